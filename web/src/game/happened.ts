// What an event touched on this page, read from the event alone (its kind and the args this
// viewer was sent): the elements it moved a card into or out of, as CSS selectors, and a sentence
// when it touched the viewer's own seat (a card stolen from me, a gift to me, an attack on my
// display, a seal to place, a ride's reckoning for me). Nothing here sees more than the event
// view the server sent this viewer, so a highlight or a toast cannot tell a secret.
import type { Translate, WordKey } from "../i18n";
import { gameOf } from "../games";
import type { CardFacts, EventMessage, Observation } from "../protocol";

const SIDES = ["good", "evil"] as const;
const PLANES = ["heaven", "earth", "nether"] as const;

const esc = (text: string): string => text.replace(/["\\]/g, "\\$&");

const place = (seat: number, side: number, plane: number, pos: number): string =>
  `.cell[data-place="p${seat + 1}.${SIDES[side] ?? "good"}.${PLANES[plane] ?? "earth"}.${pos}"]`;
const row = (seat: number, side: number, plane: number): string =>
  `.cell[data-place^="p${seat + 1}.${SIDES[side] ?? "good"}.${PLANES[plane] ?? "earth"}."]`;
const display = (seat: number): string => `.display[data-seat="${seat}"]`;
const player = (seat: number): string => `.player[data-seat="${seat}"], .poker-players tr[data-seat="${seat}"]`;
const handCard = (code: string): string => `#hand .hand-card[data-code="${esc(code)}"]`;

/** The outermost populace of a side as the latest observation shows it. */
function outermost(obs: Observation, seat: number, side: number): string | null {
  const count = gameOf(obs.game).populaces?.(obs, seat, SIDES[side] ?? "good") ?? null;
  return count !== null && count > 0 ? place(seat, side, 1, count - 1) : null;
}

/** The elements ``event`` changed, as selectors on the page (some may no longer exist). */
export function marksOf(event: EventMessage, me: number | null, obs: Observation): string[] {
  const marks: string[] = [];
  const mine = (q: number) => q === me;
  switch (event.kind) {
    // Apokalypse
    case "place":
    case "replace":
    case "seal-place": {
      const { seat, side, plane, pos } = event.args;
      marks.push(place(seat, side, plane, pos));
      break;
    }
    case "neutralise":
    case "seal-neutralise": {
      const { seat, side, plane } = event.args;
      marks.push(row(seat, side, plane), display(seat));
      break;
    }
    case "populace":
    case "person":
    case "attack": {
      const { seat, side } = event.args;
      marks.push(outermost(obs, seat, side) ?? display(seat));
      break;
    }
    case "killed":
    case "deaths":
      marks.push(display(event.args.seat));
      break;
    case "converted": {
      const { seat, side, dest } = event.args;
      marks.push(display(seat), outermost(obs, dest, 1 - side) ?? display(dest));
      break;
    }
    case "gift":
      marks.push(player(event.args.actor), player(event.args.target));
      // the card now lies in the hand of the one who got it
      if (event.args.card !== undefined && mine(event.args.target)) marks.push(handCard(event.args.card));
      break;
    case "steal":
      if ("actor" in event.args) {
        marks.push(player(event.args.actor), player(event.args.target));
        // the card now lies in the thief's hand
        if (event.args.card !== undefined && mine(event.args.actor)) marks.push(handCard(event.args.card));
      } else {
        // Apokerlypse: chips from the target to the seat (KD-EFFECT-1)
        marks.push(player(event.args.seat), player(event.args.target));
      }
      break;
    case "deal":
      if ("target" in event.args && event.args.card !== undefined && mine(event.args.target)) marks.push(handCard(event.args.card));
      break;
    // Apokerlypse
    case "draw":
      if (event.args.card !== undefined && mine(event.args.seat)) marks.push(handCard(event.args.card));
      marks.push(player(event.args.seat));
      break;
    case "take":
    case "give": {
      const { seat, target, card } = event.args;
      marks.push(player(seat), player(target));
      if (card !== undefined && mine(event.kind === "give" ? target : seat)) marks.push(handCard(card));
      break;
    }
    case "swap": {
      const { seat, target, given, taken } = event.args;
      marks.push(player(seat), player(target));
      const got = mine(seat) ? taken : mine(target) ? given : undefined;
      if (got !== undefined) marks.push(handCard(got));
      break;
    }
    case "pay":
      marks.push("#pot", player(event.args.seat));
      break;
    case "pot":
      marks.push("#pot");
      break;
    case "gain":
    case "lose":
    case "stand":
    case "drop":
    case "discard":
      marks.push(player(event.args.seat));
      break;
    default:
      break;
  }
  return marks;
}

export interface Toast {
  id: number; // the event's index in the page's events
  text: string;
}

interface Words {
  t: Translate;
  name: (seat: number) => string;
  facts: Record<string, CardFacts>;
}

/** A sentence for an event that touched the viewer's own seat, or null. */
export function toastOf(event: EventMessage, me: number | null, { t, name, facts }: Words): string | null {
  if (me === null) return null;
  const cardName = (code: string | null | undefined): string => (code == null ? "?" : (facts[code]?.name ?? code));
  const sideWord = (s: number): string => t(s === 1 ? "sideAdjEvil" : "sideAdjGood");
  const horseman = (n: number): string => t(`horseman${Math.min(Math.max(n, 1), 4)}` as WordKey);
  switch (event.kind) {
    case "steal": {
      const a = event.args;
      if (a.target !== me) return null;
      if ("actor" in a) return t("toastStolen", { name: name(a.actor), card: cardName(a.card) });
      // Apokerlypse: chips taken from this seat (KD-EFFECT-1)
      const left = String(a.left);
      return a.amount === 1 ? t("toastRobbedOne", { name: name(a.seat), chips: left }) : t("toastRobbed", { name: name(a.seat), amount: String(a.amount), chips: left });
    }
    case "gift":
      return event.args.target === me ? t("toastGift", { name: name(event.args.actor), card: cardName(event.args.card) }) : null;
    case "attack": {
      const { seat, actor, side, card } = event.args;
      return seat === me && actor !== me ? t("toastAttack", { name: name(actor), side: sideWord(side), card: cardName(card) }) : null;
    }
    case "killed":
      return event.args.seat === me ? t("toastKilled", { side: sideWord(event.args.side) }) : null;
    case "converted": {
      const { seat, side, dest } = event.args;
      if (seat !== me) return null;
      return dest === me ? t("toastConvertedOwn", { side: sideWord(side) }) : t("toastConverted", { side: sideWord(side), dest: name(dest) });
    }
    case "replace": {
      const { seat, actor, old, card } = event.args;
      return seat === me && actor !== me ? t("toastReplaced", { name: name(actor), old: cardName(old), card: cardName(card) }) : null;
    }
    case "neutralise":
    case "seal-neutralise": {
      const { seat, actor, old } = event.args;
      return seat === me && actor !== me ? t("toastNeutralised", { name: name(actor), old: cardName(old) }) : null;
    }
    case "place":
    case "person": {
      const { seat, actor, card } = event.args;
      return seat === me && actor !== me ? t("toastPlaced", { name: name(actor), card: cardName(card) }) : null;
    }
    case "seal-award":
      return event.args.seats.includes(me) ? t("toastSeal") : null;
    case "reckoning": {
      const score = event.args.scores[me];
      return score === undefined ? null : t("toastRide", { horseman: horseman(event.args.number), score: score > 0 ? `+${score}` : String(score) });
    }
    // Apokerlypse
    case "take":
      return event.args.target === me ? t("toastTaken", { name: name(event.args.seat), card: cardName(event.args.card) }) : null;
    case "give":
      return event.args.target === me ? t("toastGift", { name: name(event.args.seat), card: cardName(event.args.card) }) : null;
    case "swap": {
      const { seat, target, taken, given } = event.args;
      return target === me ? t("toastSwapped", { name: name(seat), taken: cardName(taken), given: cardName(given) }) : null;
    }
    case "peek":
      return event.args.target === me ? t("toastPeeked", { name: name(event.args.seat) }) : null;
    case "target":
      return event.args.target === me && event.args.seat !== me ? t("toastAimed", { name: name(event.args.seat) }) : null;
    case "lose": {
      const { seat, amount, chips } = event.args;
      if (seat !== me) return null;
      return amount === 1 ? t("toastLostOne", { chips: String(chips) }) : t("toastLost", { amount: String(amount), chips: String(chips) });
    }
    case "blocked":
      return event.args.owner === me && event.args.seat !== me ? t("toastBlocked", { name: name(event.args.seat), card: cardName(event.args.blocked) }) : null;
    case "pot":
      return event.args.winners.includes(me) ? t("toastPot", { pot: String(event.args.share) }) : null;
    default:
      return null;
  }
}

