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
