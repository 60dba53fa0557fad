// What every part of the Apokalypse table needs to draw itself, handed down once.
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Translate } from "../i18n";
import type { ApokalypseObservation, CardFacts, Forecast, Lang } from "../protocol";
import type { Moves } from "./moves";

export interface Table {
  obs: ApokalypseObservation;
  forecast: Forecast | null;
  facts: Record<string, CardFacts>;
  moves: Moves;
  name: (seat: number) => string;
  t: Translate;
  lang: Lang;
  act: (action: string) => void;
  /** Ask the server why these actions would be refused now (a click on what lights up nothing). */
  ask: (actions: readonly string[]) => void;
  /** Whether the viewer decides now (the server sent legal actions). */
  deciding: boolean;
  inspect: (code: string | null) => void; // show a card's facts in the card help
  openRules: (card?: string) => void;
}

export const TableContext = createContext<Table | null>(null);

export function useTable(): Table {
  const table = useContext(TableContext);
  if (table === null) throw new Error("useTable outside the Apokalypse table");
  return table;
}

export function horsemanTitle(t: Translate, n: number): string {
  const key = (["horseman1", "horseman2", "horseman3", "horseman4"] as const)[Math.min(Math.max(n, 1), 4) - 1] ?? "horseman4";
  return t("horsemanTitle", { n, name: t(key) });
}
