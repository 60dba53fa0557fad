// When each lesson fires, and the move the coach suggests. Both read only what the page already
// has: the seat's observation, the kinds of event it has seen, its legal actions and the card
// facts. The same preference is apokalypse.server.tutorial.newcomer, which chose the prepared
// deals by playing them this way (keep the two alike, or the deal may stop teaching in order).
import type { ApokalypseAction, ApokalypseObservation, ApokerlypseAction, ApokerlypseObservation, CardFacts, Lang, LegalAction, Observation } from "../protocol";

export interface Seen {
  obs: Observation;
  legal: readonly LegalAction[]; // empty when the seat is not deciding
  kinds: ReadonlySet<string>; // the kinds of event this seat has seen so far
  facts: Record<string, CardFacts | undefined>;
}

const populaceCard = (facts: Seen["facts"], code: string | undefined): boolean => code !== undefined && facts[code]?.back === "B";

/** The lessons whose topic matters now, in the lessons' order, less those already shown. */
export function dueLessons(seen: Seen, shown: readonly string[]): string[] {
  const due = seen.obs.game === "apokalypse" ? apokalypseDue(seen, seen.obs, shown) : apokerlypseDue(seen, seen.obs);
  return due.filter((id) => !shown.includes(id));
}

function apokalypseDue({ legal, kinds, facts }: Seen, obs: ApokalypseObservation, shown: readonly string[]): string[] {
  const plays = new Set((legal as ApokalypseAction[]).filter((a) => a.verb === "play").map((a) => `${a.use}:${populaceCard(facts, a.card)}`));
  const me = obs.seat ?? 0;
  const own = obs.displays[me];
  const populaces = own ? own.good.earth.length + own.evil.earth.length : 0;
  const near = Math.min(...obs.decks.map((deck) => deck.above_horseman)) <= 8;
  const due: Record<string, boolean> = {
    ethos: true,
    "good-populace": plays.has("good:true") || kinds.has("gift"),
    protection: plays.has("heaven:false") || plays.has("heaven:true"),
    "evil-populace": (plays.has("evil:true") && shown.includes("good-populace") && populaces > 0) || kinds.has("steal"),
    forecast: (populaces > 0 && (obs.round >= 2 || near)) || kinds.has("ride"),
    ride: kinds.has("ride"),
    attack: obs.attack !== null || plays.has("attack:false"),
    pass: kinds.has("pass") || kinds.has("round-end"),
    death: obs.horseman >= 4,
    win: Boolean(obs.result),
  };
  return Object.keys(due).filter((id) => due[id]);
}

function apokerlypseDue({ kinds }: Seen, obs: ApokerlypseObservation): string[] {
  const due: Record<string, boolean> = {
    chips: true,
    discard: obs.decision === "discard",
    stake: obs.decision === "stake",
    participate: obs.decision === "participate",
    scoring: kinds.has("score"),
    end: Boolean(obs.result),
  };
  return Object.keys(due).filter((id) => due[id]);
}

/** The index in ``legal`` of the suggested move (the first of the best), or -1 for none. */
export function suggestMove(seen: Seen, lesson: string | null): number {
  const { obs, legal } = seen;
  if (legal.length === 0) return -1;
  const scores = legal.map((action) =>
    obs.game === "apokalypse" ? apokalypseRank(seen, obs, action as ApokalypseAction, lesson) : apokerlypseRank(obs, action as ApokerlypseAction),
  );
  return scores.indexOf(Math.max(...scores));
}

const PLAY_RANK: Record<string, number> = { heaven: 6, good: 5, attack: 4, nether: 3, neutralise: 2 };

function apokalypseRank({ facts }: Seen, obs: ApokalypseObservation, action: ApokalypseAction, lesson: string | null): number {
  const me = obs.seat;
  if (action.verb === "play") {
    if (action.use === "evil" && populaceCard(facts, action.card)) return lesson === "evil-populace" ? 10 : -1;
    // protection is worth most where one of my own populaces lacks it
    if ((action.use === "heaven" || action.use === "nether") && !ownOpen(obs, action.use)) return 1;
    return PLAY_RANK[action.use ?? ""] ?? -1;
  }
  if (action.verb === "target" || action.verb === "to") {
    const attack = obs.choice?.use === "attack";
    const own = action.seat === me;
    let score = attack ? (own ? 0 : 4) : own ? 4 : 0;
    if (action.pos === undefined) score += 2; // add rather than replace
    if (action.side === (attack ? "evil" : "good")) score += 1;
    return score;
  }
  if (action.verb === "defend") return obs.attack !== null && obs.attack.seat === me ? 5 : -1;
  return 0; // pass, decline, give, steal: the first the server lists
}

/** Whether my own display has a populace without a card in ``row`` (Heaven: on the good side). */
function ownOpen(obs: ApokalypseObservation, row: "heaven" | "nether"): boolean {
  const own = obs.displays[obs.seat ?? 0];
  if (own === undefined) return false;
  if (row === "heaven") return own.good.earth.length > own.good.heaven.length;
  return own.good.earth.length > own.good.nether.length || own.evil.earth.length > own.evil.nether.length;
}

const RANKS = "23456789TJQKA";
const VERB_RANK: Record<string, number> = { pay: 3, stand: 2, allow: 1, done: 1 };

function apokerlypseRank(obs: ApokerlypseObservation, action: ApokerlypseAction): number {
  if (action.verb === "discard") {
    // the card that helps the hand least: one not paired, then the lowest
    const card = action.card ?? "";
    const rank = card.slice(0, -1);
    const paired = (obs.hand ?? []).filter((code) => code.slice(0, -1) === rank).length > 1;
    return -(paired ? 20 : 0) - RANKS.indexOf(rank);
  }
  return VERB_RANK[action.verb] ?? 0;
}

// Why the suggested move: one short reason per kind of move.
const REASONS = {
  en: {
    heaven: "Protect a good populace: the icons in Heaven save it from a horseman.",
    good: "Lay a good populace: more good on the table, more points in the reckonings.",
    evil: "Lay an evil populace once, to see the theft.",
    attack: "Attack an evil populace: fewer evil on the table.",
    nether: "A Netherworld card: its icons protect, its symbol changes what the populace earns.",
    neutralise: "Remove the displayed music.",
    pass: "Nothing here is worth playing now: pass.",
    targetOwn: "Into your own display: it protects and scores for you.",
    targetAttack: "The outermost evil populace of another display.",
    target: "The lit place is the best one.",
    give: "You must give a card: this one.",
    to: "The player lit on the table.",
    steal: "Draw one card unseen from this player.",
    defend: "Defend: the attack is on your display.",
    decline: "Let it pass: the attack does not hit you.",
    discard: "Discard the card that helps your hand least: not part of a pair, the lowest.",
    pay: "Pay the cost: you draw two cards (or take part in the scoring).",
    stand: "Stand: keep your hand and your chips.",
    drop: "Drop out of this round.",
    other: "A sensible choice.",
  },
  de: {
    heaven: "Schütze einen guten Bevölkerungsanteil: Die Symbole in der Himmelsebene retten ihn vor einem Reiter.",
    good: "Lege einen guten Bevölkerungsanteil: mehr Gutes auf dem Tisch, mehr Punkte in den Wertungen.",
    evil: "Lege einmal einen bösen Bevölkerungsanteil, um den Diebstahl zu sehen.",
    attack: "Greif einen bösen Bevölkerungsanteil an: weniger Böses auf dem Tisch.",
    nether: "Eine Höllenkarte: Ihre Symbole schützen, ihr Zeichen ändert, was der Bevölkerungsanteil bekommt.",
    neutralise: "Entferne die ausliegende Musik.",
    pass: "Nichts lohnt sich gerade: passe.",
    targetOwn: "In deine eigene Auslage: Dort schützt und punktet sie für dich.",
    targetAttack: "Der äußerste böse Bevölkerungsanteil einer anderen Auslage.",
    target: "Der markierte Platz ist der beste.",
    give: "Du musst eine Karte schenken: diese.",
    to: "Der auf dem Tisch markierte Spieler.",
    steal: "Zieh diesem Spieler ungesehen eine Karte.",
    defend: "Wehre ab: Der Angriff gilt deiner Auslage.",
    decline: "Lass ihn durch: Der Angriff trifft dich nicht.",
    discard: "Wirf die Karte ab, die deiner Hand am wenigsten hilft: kein Paar, die niedrigste.",
    pay: "Zahle die Kosten: Du ziehst zwei Karten (oder nimmst an der Wertung teil).",
    stand: "Bleib stehen: Hand und Chips behalten.",
    drop: "Steig aus dieser Runde aus.",
    other: "Eine vernünftige Wahl.",
  },
} as const;

export function reasonFor(obs: Observation, action: LegalAction, lang: Lang): string {
  const words = REASONS[lang];
  if (obs.game === "apokalypse") {
    const a = action as ApokalypseAction;
    if (a.verb === "play" && a.use !== undefined) return words[a.use === "good" || a.use === "evil" || a.use === "heaven" || a.use === "attack" || a.use === "nether" || a.use === "neutralise" ? a.use : "good"];
    if (a.verb === "target" || a.verb === "to") {
      if (obs.choice?.use === "attack") return words.targetAttack;
      if (a.verb === "to" && obs.decision === "choose-recipient") return words.to;
      return a.seat === obs.seat ? words.targetOwn : words.target;
    }
  }
  const verb = action.verb as string;
  return verb in words ? words[verb as keyof typeof words] : words.other;
}
