// A decision taken once: a second quick click must not land on the next step's button (a card
// given away by accident). An action is ignored while another is on its way (until the next
// state or a refusal), and a pointer's click on the table for a moment after the decision
// changed; the page shows the controls as busy meanwhile (`body[data-busy]`,
// `body[data-settling]`: ui/seen.css lets no pointer reach them). And after an action the keyboard focus, which went
// with the clicked button, comes back to a sensible control: the next decision's first choice,
// else the hand.
import { useCallback, useEffect, useRef } from "preact/hooks";
import type { GameConnection } from "./useGame";

export const SETTLE_MS = 300; // no click so soon after the decision changed
// Where a click takes or prepares a decision.
const CONTROLS = "#decision, #mine, .display, .players, .poker-players";
const LOST_MS = 8000; // an answer that never came (a dropped connection) frees the controls

const FOCUS_NEXT = ["#choices button.choice", "#hand .hand-card.target", ".target[data-action]", "#hand .hand-card", "#decision"];

function busy(on: boolean): void {
  if (on) document.body.dataset.busy = "yes";
  else delete document.body.dataset.busy;
}

export function useActGuard(game: GameConnection): GameConnection {
  const sent = useRef<number | null>(null); // performance.now() of the action on its way
  const acted = useRef(false); // an action of this page was answered: mind the focus
  const settled = useRef(0); // when the table may be clicked again
  const lost = useRef<number | undefined>(undefined);

  // A pointer's click (not a key: `detail` counts the clicks) that comes too soon is dropped
  // before it reaches its button.
  useEffect(() => {
    const early = (event: MouseEvent) => {
      if (event.detail === 0 || performance.now() >= settled.current) return;
      if (!(event.target instanceof Element) || event.target.closest(CONTROLS) === null) return;
      event.preventDefault();
      event.stopPropagation();
    };
    document.addEventListener("click", early, true);
    return () => document.removeEventListener("click", early, true);
  }, []);

  // A new state (the action's answer, or anybody's move) or a refusal frees the controls.
  useEffect(() => {
    if (sent.current !== null) acted.current = true;
    sent.current = null;
    busy(false);
    window.clearTimeout(lost.current);
    settled.current = performance.now() + SETTLE_MS;
    document.body.dataset.settling = "yes";
    const timer = window.setTimeout(() => delete document.body.dataset.settling, SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [game.state]);
  useEffect(() => {
    if (game.refusal === null) return;
    sent.current = null;
    busy(false);
  }, [game.refusal]);

  // The focus after an action: only where it was lost (never taken from a dialog or the log).
  useEffect(() => {
    if (!acted.current) return;
    acted.current = false;
    const active = document.activeElement;
    if (active !== null && active !== document.body && document.contains(active)) return;
    for (const selector of FOCUS_NEXT) {
      const next = document.querySelector<HTMLElement>(selector);
      if (next !== null) {
        if (selector === "#decision") next.tabIndex = -1;
        next.focus({ preventScroll: true });
        return;
      }
    }
  });

  const act = useCallback(
    (action: string): boolean => {
      const now = performance.now();
      if (sent.current !== null && now - sent.current < LOST_MS) return false;
      const ok = game.act(action);
      if (ok) {
        sent.current = now;
        busy(true);
        window.clearTimeout(lost.current);
        lost.current = window.setTimeout(() => busy(false), LOST_MS);
      }
      return ok;
    },
    [game.act],
  );
  return { ...game, act };
}
