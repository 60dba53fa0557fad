// The server's legal actions laid onto the table: which hand card, which place on a display and
// which player each one belongs to, so that the page can light them up and a click sends the text.
import type { ApokalypseObservation } from "../protocol";
import { actionCard, actionSeat, parseTarget, placeKey } from "../notation";

export interface Moves {
  /** A card lying on a display (replace, neutralise, attack its populace): `p1.good.heaven.0`. */
  cards: Map<string, string>;
  /** A row's free end (add a card there): `p1.good.heaven`. */
  slots: Map<string, string>;
  /** Hand cards by code: the actions that play, give or defend with it. */
  hand: Map<string, string[]>;
  /** Players by seat: give to, steal from, move a converted populace to. */
  seats: Map<number, string>;
}

function push(map: Map<string, string[]>, key: string, action: string): void {
  const list = map.get(key);
  if (list) list.push(action);
  else map.set(key, [action]);
}

export function layMoves(obs: ApokalypseObservation, legal: readonly string[]): Moves {
  const moves: Moves = { cards: new Map(), slots: new Map(), hand: new Map(), seats: new Map() };
  const attacking = obs.choice?.use === "attack";
  for (const action of legal) {
    const place = parseTarget(action);
    if (place !== null) {
      const display = obs.displays[place.seat];
      if (display === undefined) continue;
      if (place.plane === undefined) {
        // A side: an attack hits its outermost populace; a populace joins its Earthly row's end.
        const earth = display[place.side].earth;
        if (attacking && earth.length > 0) moves.cards.set(placeKey(place.seat, place.side, "earth", earth.length - 1), action);
        else moves.slots.set(`p${place.seat + 1}.${place.side}.earth`, action);
      } else if (place.pos === undefined) {
        moves.slots.set(`p${place.seat + 1}.${place.side}.${place.plane}`, action);
      } else {
        moves.cards.set(placeKey(place.seat, place.side, place.plane, place.pos), action);
      }
      continue;
    }
    const seat = actionSeat(action);
    if (seat !== null) {
      moves.seats.set(seat, action);
      continue;
    }
    const code = actionCard(action);
    if (code !== null) push(moves.hand, code, action);
  }
  return moves;
}

/** The decisions whose first step can be taken back with `back` (never listed as legal). */
export function canGoBack(obs: ApokalypseObservation): boolean {
  return obs.decision === "choose-target" || obs.decision === "choose-recipient";
}
