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

type Args = Record<string, unknown>;

function int(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) ? value : null;
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

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
  const a = event.args as Args;
  const seat = int(a.seat);
  const side = int(a.side);
  const plane = int(a.plane);
  const pos = int(a.pos);
  const actor = int(a.actor);
  const target = int(a.target);
  const card = str(a.card);
  const marks: string[] = [];
  const mine = (q: number | null) => q !== null && q === me;
  switch (event.kind) {
    // Apokalypse
    case "place":
    case "replace":
    case "seal-place":
      if (seat !== null && side !== null && plane !== null && pos !== null) marks.push(place(seat, side, plane, pos));
      break;
    case "neutralise":
    case "seal-neutralise":
      if (seat !== null && side !== null && plane !== null) marks.push(row(seat, side, plane), display(seat));
      break;
    case "populace":
    case "person":
    case "attack":
      if (seat !== null && side !== null) marks.push(outermost(obs, seat, side) ?? display(seat));
      break;
    case "killed":
    case "deaths":
      if (seat !== null) marks.push(display(seat));
      break;
    case "converted": {
      const dest = int(a.dest);
      if (seat !== null) marks.push(display(seat));
      if (dest !== null && side !== null) marks.push(outermost(obs, dest, 1 - side) ?? display(dest));
      break;
    }
    case "gift":
    case "steal":
      if (actor !== null) marks.push(player(actor));
      if (target !== null) marks.push(player(target));
      // the card now lies in the hand of the one who got it: the recipient, or the thief
      if (card && mine(event.kind === "gift" ? target : actor)) marks.push(handCard(card));
      break;
    case "deal":
      if (card && mine(target)) marks.push(handCard(card));
      break;
    // Apokerlypse
    case "draw":
      if (card && mine(seat)) marks.push(handCard(card));
      if (seat !== null) marks.push(player(seat));
      break;
    case "take":
    case "give":
      if (seat !== null) marks.push(player(seat));
      if (target !== null) marks.push(player(target));
      if (card && mine(event.kind === "give" ? target : seat)) marks.push(handCard(card));
      break;
    case "swap": {
      if (seat !== null) marks.push(player(seat));
      if (target !== null) marks.push(player(target));
      const got = mine(seat) ? str(a.taken) : mine(target) ? str(a.given) : null;
      if (got) marks.push(handCard(got));
      break;
    }
    case "pay":
    case "pot":
      marks.push("#pot");
      if (seat !== null) marks.push(player(seat));
      break;
    case "gain":
    case "lose":
    case "stand":
    case "drop":
    case "discard":
      if (seat !== null) marks.push(player(seat));
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
  const a = event.args as Args;
  const seat = int(a.seat);
  const actor = int(a.actor);
  const target = int(a.target);
  const side = int(a.side);
  const cardName = (value: unknown): string => {
    const code = str(value);
    return code === null ? "?" : (facts[code]?.name ?? code);
  };
  const sideWord = (s: number | null): string => t(s === 1 ? "sideAdjEvil" : "sideAdjGood");
  const horseman = (n: number | null): string => t(`horseman${Math.min(Math.max(n ?? 1, 1), 4)}` as WordKey);
  const by = (q: number | null): string => (q === null ? "?" : name(q));
  switch (event.kind) {
    case "steal": {
      if (target !== me) return null;
      const amount = int(a.amount);
      if (amount === null) return t("toastStolen", { name: by(actor), card: cardName(a.card) });
      // Apokerlypse: chips taken from this seat (KD-EFFECT-1)
      const left = String(a.left ?? "?");
      return amount === 1 ? t("toastRobbedOne", { name: by(seat), chips: left }) : t("toastRobbed", { name: by(seat), amount: String(amount), chips: left });
    }
    case "gift":
      return target === me ? t("toastGift", { name: by(actor), card: cardName(a.card) }) : null;
    case "attack":
      return seat === me && actor !== me ? t("toastAttack", { name: by(actor), side: sideWord(side), card: cardName(a.card) }) : null;
    case "killed":
      return seat === me ? t("toastKilled", { side: sideWord(side) }) : null;
    case "converted":
      if (seat !== me) return null;
      return int(a.dest) === me ? t("toastConvertedOwn", { side: sideWord(side) }) : t("toastConverted", { side: sideWord(side), dest: by(int(a.dest)) });
    case "replace":
      return seat === me && actor !== me ? t("toastReplaced", { name: by(actor), old: cardName(a.old), card: cardName(a.card) }) : null;
    case "neutralise":
    case "seal-neutralise":
      return seat === me && actor !== me ? t("toastNeutralised", { name: by(actor), old: cardName(a.old) }) : null;
    case "place":
    case "person":
      return seat === me && actor !== me ? t("toastPlaced", { name: by(actor), card: cardName(a.card) }) : null;
    case "seal-award":
      return Array.isArray(a.seats) && a.seats.includes(me) ? t("toastSeal") : null;
    case "reckoning": {
      const score = Array.isArray(a.scores) ? int(a.scores[me]) : null;
      return score === null ? null : t("toastRide", { horseman: horseman(int(a.number)), score: score > 0 ? `+${score}` : String(score) });
    }
    // Apokerlypse
    case "take":
      return target === me ? t("toastTaken", { name: by(seat), card: cardName(a.card) }) : null;
    case "give":
      return target === me ? t("toastGift", { name: by(seat), card: cardName(a.card) }) : null;
    case "swap":
      return target === me ? t("toastSwapped", { name: by(seat), taken: cardName(a.taken), given: cardName(a.given) }) : null;
    case "peek":
      return target === me ? t("toastPeeked", { name: by(seat) }) : null;
    case "target":
      return target === me && seat !== me ? t("toastAimed", { name: by(seat) }) : null;
    case "lose":
      if (seat !== me) return null;
      return int(a.amount) === 1 ? t("toastLostOne", { chips: String(a.chips ?? "?") }) : t("toastLost", { amount: String(a.amount ?? "?"), chips: String(a.chips ?? "?") });
    case "blocked":
      return int(a.owner) === me && seat !== me ? t("toastBlocked", { name: by(seat), card: cardName(a.blocked) }) : null;
    case "pot":
      return Array.isArray(a.winners) && a.winners.includes(me) ? t("toastPot", { pot: String(a.share ?? a.pot ?? "?") }) : null;
    default:
      return null;
  }
}
