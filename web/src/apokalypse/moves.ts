// The server's legal actions laid onto the table from their parts (never from their notation):
// which hand card, which place on a display and which player each one belongs to, so that the
// page can light them up and a click sends the action's text.
import type { ApokalypseAction, ApokalypseObservation } from "../protocol";
import type { DisplayView, SideView } from "../wire/apokalypse";

export type SideName = keyof DisplayView;
export type PlaneName = keyof SideView;
export const PLANES: readonly PlaneName[] = ["heaven", "earth", "nether"];
export const SIDES: readonly SideName[] = ["good", "evil"];

/** A card lying on a display, as a page attribute: `p1.good.heaven.0`. */
export function placeKey(seat: number, side: SideName, plane: PlaneName, pos: number): string {
  return `${rowKey(seat, side, plane)}.${pos}`;
}

/** A row of a display, as a page attribute: `p1.good.heaven`. */
export function rowKey(seat: number, side: SideName, plane: PlaneName): string {
  return `p${seat + 1}.${side}.${plane}`;
}

export interface Moves {
  /** A card lying on a display (replace, neutralise, attack its populace), by its place key. */
  cards: Map<string, ApokalypseAction>;
  /** A row's free end (add a card there), by its row key. */
  slots: Map<string, ApokalypseAction>;
  /** Hand cards by code: the actions that play, give or defend with it. */
  hand: Map<string, ApokalypseAction[]>;
  /** Players by seat: give to, steal from, move a converted populace to. */
  seats: Map<number, ApokalypseAction>;
}

export function layMoves(obs: ApokalypseObservation, legal: readonly ApokalypseAction[]): Moves {
  const moves: Moves = { cards: new Map(), slots: new Map(), hand: new Map(), seats: new Map() };
  const attacking = obs.choice?.use === "attack";
  for (const action of legal) {
    const { seat, side, plane, pos, card } = action;
    if (seat !== undefined && side !== undefined) {
      // A place on a display: a side (attack or populace), a row's free end, or one card.
      const display = obs.displays[seat];
      if (display === undefined) continue;
      if (plane === undefined) {
        // A side: an attack hits its outermost populace; a populace joins its Earthly row's end.
        const earth = display[side].earth;
        if (attacking && earth.length > 0) moves.cards.set(placeKey(seat, side, "earth", earth.length - 1), action);
        else moves.slots.set(rowKey(seat, side, "earth"), action);
      } else if (pos === undefined) {
        moves.slots.set(rowKey(seat, side, plane), action);
      } else {
        moves.cards.set(placeKey(seat, side, plane, pos), action);
      }
    } else if (seat !== undefined) {
      moves.seats.set(seat, action);
    } else if (card !== undefined) {
      const list = moves.hand.get(card);
      if (list) list.push(action);
      else moves.hand.set(card, [action]);
    }
  }
  return moves;
}

/** The decisions whose first step can be taken back with `back` (never listed as legal). */
export function canGoBack(obs: ApokalypseObservation): boolean {
  return obs.decision === "choose-target" || obs.decision === "choose-recipient";
}

// --- why not: what to ask the server about a hand card, place or player that lights up nothing ---

/** The decisions whose step names a place on a display, and those whose step names a player. */
const PLACE_STEPS = new Set(["choose-target", "place-seal"]);
const PLAYER_VERBS: Partial<Record<ApokalypseObservation["decision"], string>> = {
  "choose-recipient": "to",
  "choose-victim": "steal",
  "choose-destination": "to",
};

/** The actions to ask "why not?" about for a hand card that no legal action uses: on a turn its
 * natural uses (`uses`, from the card facts), in a defence window defending with it; at any
 * other step (or when the decision is not the viewer's) its first use, which the server
 * answers with what is asked instead. */
export function cardQuestions(obs: ApokalypseObservation, code: string, uses: readonly string[], deciding: boolean): string[] {
  if (deciding && obs.decision === "defence") return [`defend ${code}`];
  const all = uses.map((use) => `play ${code} ${use}`);
  return deciding && obs.decision === "turn" ? all : all.slice(0, 1);
}

/** The action a click on a display place that is not a legal target stands for, when the
 * viewer's step names a place (null otherwise): a side for a populace or an attack, else the
 * row's end or the card at `pos`. */
export function placeQuestion(obs: ApokalypseObservation, seat: number, side: SideName, plane: PlaneName, pos?: number): string | null {
  if (!PLACE_STEPS.has(obs.decision)) return null;
  const use = obs.choice?.use;
  if (use === "good" || use === "evil" || use === "attack") return `target p${seat + 1}.${side}`;
  return `target ${pos === undefined ? rowKey(seat, side, plane) : placeKey(seat, side, plane, pos)}`;
}

/** The action a click on a player who is not a legal choice stands for, when the viewer's step
 * names a player (null otherwise). */
export function playerQuestion(obs: ApokalypseObservation, seat: number): string | null {
  const verb = PLAYER_VERBS[obs.decision];
  return verb === undefined ? null : `${verb} p${seat + 1}`;
}
