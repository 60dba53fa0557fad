// Reading the server's action texts, so that a legal action can be put where it belongs on the
// table (a card in the hand, a place on a display, a player). Only the shape of the text is read:
// which actions are legal is always the server's list.
export type SideName = "good" | "evil";
export type PlaneName = "heaven" | "earth" | "nether";
export const PLANES: readonly PlaneName[] = ["heaven", "earth", "nether"];
export const SIDES: readonly SideName[] = ["good", "evil"];

/** `target p2.good.heaven.1`: a side (attack or populace), a row's free end, or one card. */
export interface Place {
  seat: number;
  side: SideName;
  plane?: PlaneName;
  pos?: number;
}

export function parseSeat(text: string): number | null {
  const match = /^p(\d+)$/i.exec(text);
  return match ? Number(match[1]) - 1 : null;
}

export function parseTarget(action: string): Place | null {
  const match = /^target (p\d+)\.(good|evil)(?:\.(heaven|earth|nether)(?:\.(\d+))?)?$/i.exec(action);
  if (!match) return null;
  const seat = parseSeat(match[1] ?? "");
  if (seat === null) return null;
  const place: Place = { seat, side: match[2] as SideName };
  if (match[3]) place.plane = match[3] as PlaneName;
  if (match[4]) place.pos = Number(match[4]);
  return place;
}

/** The card an action names (`play CODE USE`, `give CODE`, `defend CODE`, `discard CODE`…). */
export function actionCard(action: string): string | null {
  const words = action.split(" ");
  const verb = words[0];
  if (words.length < 2) return null;
  if (verb === "play" || verb === "give" || verb === "defend" || verb === "discard" || verb === "use"
    || verb === "swap" || verb === "block") {
    return words[1] ?? null;
  }
  return null;
}

/** The player an action names (`to p3`, `steal p3`, Apokerlypse's `target p2`). */
export function actionSeat(action: string): number | null {
  const match = /^(to|steal|target) (p\d+)$/i.exec(action);
  return match ? parseSeat(match[2] ?? "") : null;
}

export function placeKey(seat: number, side: SideName, plane: PlaneName, pos: number): string {
  return `p${seat + 1}.${side}.${plane}.${pos}`;
}
