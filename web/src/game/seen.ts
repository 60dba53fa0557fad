// What the game page shares with the tables' parts: for the log, pointing at the cards a line
// moved and, on a narrow screen, the log as a drawer over the board with a count of the lines
// not yet read; for the seat's controls, how it is told that it is its turn.
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { TurnSettings } from "./useTurnSignal";

export interface Seen {
  // highlight what the event at this index moved (``reveal``: and scroll it into view)
  point: (event: number | null, reveal?: boolean) => void;
  logOpen: boolean;
  setLogOpen: (open: boolean) => void;
  unread: number;
  turn?: TurnSettings;
}

export const SeenContext = createContext<Seen | null>(null);

export function useSeen(): Seen | null {
  return useContext(SeenContext);
}

/** Mark the elements ``selectors`` find with ``attribute`` (a data attribute the page's own
 * rendering never sets, so a re-render leaves it alone), after clearing it everywhere. */
export function markAll(selectors: readonly string[], attribute: string): void {
  const old = document.querySelectorAll(`[${attribute}]`);
  old.forEach((element) => element.removeAttribute(attribute));
  if (old.length > 0) void document.body.offsetWidth; // restart the animation of a mark set again
  for (const selector of selectors) {
    try {
      document.querySelectorAll(selector).forEach((element) => element.setAttribute(attribute, ""));
    } catch {
      // a selector from an unexpected event's args: mark nothing
    }
  }
}
