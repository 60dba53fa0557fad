// The coach's lessons of the guided first games, in English and German: what each thing means, in
// a few short sentences, with the rule ids (docs/rules/) in small print, and why the move it
// suggests is a good one. Which lesson opens when, and the move it suggests, are the server's
// (server/tutorial/): the page is sent them. German follows the 2009 rules' vocabulary.
import type { ApokalypseAction, ApokalypseObservation, Lang, LegalAction, Observation } from "../protocol";

export interface LessonText {
  title: string;
  body: string[];
  others?: string; // the alternatives to the suggested move, briefly
}

export interface Lesson {
  id: string;
  rules: string[];
  text: Record<Lang, LessonText>;
}

export const APOKALYPSE_LESSONS: Lesson[] = [
  {
    id: "ethos",
    rules: ["R-SETUP-3", "R-END-3", "R-END-4", "R-END-5"],
    text: {
      en: {
        title: "Your ethos: good",
        body: [
          "The card beside your hand is your ethos, secret until the end: you are good.",
          "The game ends after the fourth horseman, Death. With more good than evil populaces on the table, the good players win together if their points add up to more than the evil players'; otherwise nobody wins. Without that majority, evil rules and the evil player with the most points wins alone.",
          "So: lay good populaces, protect them from the horsemen, and score in the reckonings.",
        ],
      },
      de: {
        title: "Deine Gesinnung: gut",
        body: [
          "Die Karte neben deiner Hand ist deine Gesinnung, geheim bis zum Schluss: Du bist gut.",
          "Das Spiel endet nach dem vierten Reiter, dem Tod. Liegen dann mehr gute als böse Bevölkerungsanteile auf dem Tisch, gewinnen die Guten gemeinsam, wenn ihre Punkte zusammen mehr sind als die der Bösen; sonst gewinnt niemand. Ohne diese Mehrheit herrscht das Böse, und der Böse mit den meisten Punkten gewinnt allein.",
          "Also: gute Bevölkerungsanteile auslegen, sie vor den Reitern schützen und in den Wertungen punkten.",
        ],
      },
    },
  },
  {
    id: "good-populace",
    rules: ["R-PLAY-3", "R-PLAY-4", "R-DEAL-1"],
    text: {
      en: {
        title: "A good populace and its gift",
        body: [
          "Any B card (a B in its corner) can be laid face down as a new populace, on the good or the evil side of a display.",
          "A good populace brings a good deed: you must give another card of your hand to another player you choose.",
          "Every good populace earns a B card when the round ends.",
        ],
        others: "You could keep the card for Heaven instead, or pass.",
      },
      de: {
        title: "Ein guter Bevölkerungsanteil und sein Geschenk",
        body: [
          "Jede B-Karte (ein B in der Ecke) kann verdeckt als neuer Bevölkerungsanteil ausgelegt werden, auf der guten oder der bösen Seite einer Auslage.",
          "Ein guter Bevölkerungsanteil bringt eine gute Tat: Du musst eine andere Karte deiner Hand einem Mitspieler deiner Wahl schenken.",
          "Jeder gute Bevölkerungsanteil bringt am Ende der Runde eine B-Karte.",
        ],
        others: "Du könntest die Karte auch für den Himmel aufheben oder passen.",
      },
    },
  },
  {
    id: "protection",
    rules: ["R-COMP-2", "R-PLAY-8", "R-HORSE-1", "R-HORSE-2"],
    text: {
      en: {
        title: "Protection against the horsemen",
        body: [
          "The front of most B cards is a protection card: laid in Heaven above a good populace, its left half counts.",
          "The gas mask protects against horseman 1, the helmet against horseman 2, the pig's head against horseman 3: each icon of the riding horseman saves one good populace besides the basic one.",
          "What the good side does not need passes to the evil side of the same display. A Church hymns card protects one populace against any horseman.",
        ],
        others: "A Netherworld card below a populace protects with its icons too.",
      },
      de: {
        title: "Schutz vor den Reitern",
        body: [
          "Die Vorderseite der meisten B-Karten ist eine Schutzkarte: In der Himmelsebene über einem guten Bevölkerungsanteil zählt ihre linke Hälfte.",
          "Die ABC-Schutzmaske schützt vor Reiter 1, der Helm vor Reiter 2, der Schweinskopf vor Reiter 3: Jedes Symbol des reitenden Reiters rettet einen guten Bevölkerungsanteil außer der Grundbevölkerung.",
          "Was die gute Seite nicht braucht, geht an die böse Seite derselben Auslage. Kirchenmusik schützt einen Bevölkerungsanteil vor jedem Reiter.",
        ],
        others: "Auch eine Höllenkarte unter einem Bevölkerungsanteil schützt mit ihren Symbolen.",
      },
    },
  },
  {
    id: "evil-populace",
    rules: ["R-PLAY-3", "R-PLAY-5", "R-DEAL-1", "R-END-3"],
    text: {
      en: {
        title: "An evil populace and its theft",
        body: [
          "A B card can also be laid as an evil populace, on the right side of a display.",
          "Its evil deed is compulsory: you draw one card unseen from the hand of another player you pick.",
          "Every evil populace earns a K card when the round ends — but at the end each one counts for the evil.",
        ],
        others: "A good player lays one seldom: for the theft, or for a K card that it earns.",
      },
      de: {
        title: "Ein böser Bevölkerungsanteil und sein Diebstahl",
        body: [
          "Eine B-Karte kann auch als böser Bevölkerungsanteil ausgelegt werden, auf der rechten Seite einer Auslage.",
          "Seine böse Tat ist Pflicht: Du musst einem Mitspieler deiner Wahl eine Karte ungesehen aus der Hand ziehen.",
          "Jeder böse Bevölkerungsanteil bringt am Ende der Runde eine K-Karte — aber am Schluss zählt jeder für das Böse.",
        ],
        others: "Ein guter Spieler legt selten einen: für den Diebstahl oder die K-Karte, die er bringt.",
      },
    },
  },
  {
    id: "forecast",
    rules: ["R-DEAL-3", "R-DEAL-5", "R-HORSE-1", "R-HORSE-5"],
    text: {
      en: {
        title: "The forecast",
        body: [
          "Each deck shows how many cards lie above its next horseman: when the dealing turns it up, it rides once both decks have been dealt.",
          "The chip on each display (✝ dead · reckoning) and the forecast panel say what the next horseman would do if it rode now.",
          "Lay protection with the next horseman's icon to keep your populaces alive.",
        ],
      },
      de: {
        title: "Die Vorhersage",
        body: [
          "Jeder Stapel zeigt, wie viele Karten über seinem nächsten Reiter liegen: Wird er beim Austeilen aufgedeckt, reitet er, sobald beide Stapel ausgeteilt sind.",
          "Das Zeichen an jeder Auslage (✝ Tote · Wertung) und die Vorhersage sagen, was der nächste Reiter täte, wenn er jetzt ritte.",
          "Lege Schutz mit dem Symbol des nächsten Reiters aus, damit deine Bevölkerungsanteile überleben.",
        ],
      },
    },
  },
  {
    id: "ride",
    rules: ["R-HORSE-1", "R-HORSE-2", "R-HORSE-5", "R-REWARD-1", "R-REWARD-2"],
    text: {
      en: {
        title: "A horseman rode: the reckoning",
        body: [
          "The good side of each display comes first: each icon of this horseman saves one good populace besides the basic one, the others die from the outside in; the surplus protects the evil side.",
          "The reckoning: each player scores the populaces left in their display minus those this horseman killed there.",
          "The best reckoning earns the horseman's card (1, 2, 4 or 7 points at the end); the most populaces earn a seal, laid at once as music.",
        ],
      },
      de: {
        title: "Ein Reiter ist geritten: die Wertung",
        body: [
          "Zuerst die gute Seite jeder Auslage: Jedes Symbol dieses Reiters rettet einen guten Bevölkerungsanteil außer der Grundbevölkerung, die anderen sterben von außen nach innen; der Überschuss schützt die böse Seite.",
          "Die Wertung: Jeder Spieler zählt die Bevölkerungsanteile, die in seiner Auslage übrig sind, minus die, die dieser Reiter dort getötet hat.",
          "Die beste Wertung bekommt die Reiterkarte (am Schluss 1, 2, 4 oder 7 Punkte); wer die meisten Bevölkerungsanteile hat, bekommt ein Siegel, das sofort als Musik gelegt wird.",
        ],
      },
    },
  },
  {
    id: "attack",
    rules: ["R-ATTACK-1", "R-ATTACK-2", "R-ATTACK-3", "R-ATTACK-4", "R-PLAY-17"],
    text: {
      en: {
        title: "An attack and a defence",
        body: [
          "Violence and Ethos change are never laid: they attack the outermost populace of one side of a display. Violence kills it; Ethos change moves it to the other side of a display its attacker chooses.",
          "Any other player may fend an attack off out of turn: Violence with Ethos change or music, Ethos change with Violence or music. Both cards are discarded.",
          "A music card directly above or below a populace shields it from attacks.",
        ],
        others: "Defend only when it matters to you: the card is gone afterwards.",
      },
      de: {
        title: "Ein Angriff und eine Abwehr",
        body: [
          "Gewalt und Gesinnungswechsel werden nie ausgelegt: Sie greifen den äußersten Bevölkerungsanteil einer Seite einer Auslage an. Gewalt tötet ihn; Gesinnungswechsel legt ihn auf die andere Seite einer Auslage, die der Angreifer wählt.",
          "Jeder andere Spieler darf einen Angriff außer der Reihe abwehren: Gewalt mit Gesinnungswechsel oder Musik, Gesinnungswechsel mit Gewalt oder Musik. Beide Karten werden abgelegt.",
          "Eine Musikkarte direkt über oder unter einem Bevölkerungsanteil schützt ihn vor Angriffen.",
        ],
        others: "Wehre nur ab, wenn es dich betrifft: Die Karte ist danach weg.",
      },
    },
  },
  {
    id: "pass",
    rules: ["R-TURN-2", "R-TURN-3", "R-TURN-4", "R-DEAL-1", "R-DEAL-3", "R-DEAL-5"],
    text: {
      en: {
        title: "Passing and the deal",
        body: [
          "Pass when nothing is worth playing: you play no more this round, but you may still defend. The first to pass starts the next round.",
          "When all but one have passed, the round ends and the decks are dealt: every good populace earns a B card, every evil populace a K card, basic populaces included.",
          "A horseman turning up stops its deck's dealing; it rides after both decks are dealt.",
        ],
      },
      de: {
        title: "Passen und das Austeilen",
        body: [
          "Passe, wenn sich nichts lohnt: Du spielst in dieser Runde nichts mehr, abwehren darfst du aber noch. Wer zuerst passt, beginnt die nächste Runde.",
          "Haben alle bis auf einen gepasst, endet die Runde und es wird ausgeteilt: Jeder gute Bevölkerungsanteil bekommt eine B-Karte, jeder böse eine K-Karte, die Grundbevölkerung eingeschlossen.",
          "Ein Reiter, der aufgedeckt wird, beendet das Austeilen seines Stapels; er reitet, wenn beide Stapel ausgeteilt sind.",
        ],
      },
    },
  },
  {
    id: "death",
    rules: ["R-HORSE-4", "R-END-1"],
    text: {
      en: {
        title: "Death, the fourth horseman",
        body: [
          "The next horseman is Death. Against it a single icon no longer helps: a populace needs a full set of the three icons, or one music card.",
          "A horseman card you own stands for its icon: whoever holds all three has nothing to fear.",
          "After Death's reckoning the game ends.",
        ],
      },
      de: {
        title: "Der Tod, der vierte Reiter",
        body: [
          "Der nächste Reiter ist der Tod. Gegen ihn hilft ein einzelnes Symbol nicht mehr: Ein Bevölkerungsanteil braucht alle drei Symbole oder eine Musikkarte.",
          "Eine Reiterkarte, die du besitzt, ersetzt ihr Symbol: Wer alle drei hat, hat nichts zu fürchten.",
          "Nach der Wertung des Todes endet das Spiel.",
        ],
      },
    },
  },
  {
    id: "win",
    rules: ["R-END-2", "R-END-3", "R-END-4", "R-END-5", "R-END-6"],
    text: {
      en: {
        title: "Who wins",
        body: [
          "The game is over: the good and the evil populaces of the whole table are counted, then every ethos is shown.",
          "With more good than evil, the good win together if their points add up to more than the evil players'; otherwise nobody wins. With no more good than evil, the evil player with the best total wins alone.",
          "If everybody has the same ethos, the best total wins, but only if that ethos has more populaces on the table. A total is the reckonings plus the horseman cards (1, 2, 4, 7 points).",
        ],
      },
      de: {
        title: "Wer gewinnt",
        body: [
          "Das Spiel ist aus: Die guten und die bösen Bevölkerungsanteile des ganzen Tisches werden gezählt, dann zeigt jeder seine Gesinnung.",
          "Bei mehr guten als bösen gewinnen die Guten gemeinsam, wenn ihre Punkte zusammen mehr sind als die der Bösen; sonst gewinnt niemand. Liegen nicht mehr gute als böse aus, gewinnt der Böse mit der besten Summe allein.",
          "Haben alle dieselbe Gesinnung, gewinnt die beste Summe, aber nur, wenn diese Gesinnung mehr Bevölkerungsanteile auf dem Tisch hat. Die Summe eines Spielers ergibt sich aus seinen Wertungen und seinen Reiterkarten (1, 2, 4, 7 Punkte).",
        ],
      },
    },
  },
];

export const APOKERLYPSE_LESSONS: Lesson[] = [
  {
    id: "chips",
    rules: ["K-SETUP-2", "K-ROUND-1", "K-END-1"],
    text: {
      en: {
        title: "Chips decide",
        body: [
          "Apokerlypse is poker for survival: each of you starts with 12 chips.",
          "Every dealer round costs chips for each draw phase: 1 in round 1, 2 in round 2, and so on.",
          "Once a player has run out of chips, that round is the last: the most chips win.",
        ],
      },
      de: {
        title: "Chips entscheiden",
        body: [
          "Apokerlypse ist Poker ums Überleben: Jeder beginnt mit 12 Chips.",
          "Jede Geberrunde kostet Chips für jede Ziehphase: 1 in Runde 1, 2 in Runde 2 und so weiter.",
          "Hat ein Spieler keine Chips mehr, ist diese Runde die letzte: Die meisten Chips gewinnen.",
        ],
      },
    },
  },
  {
    id: "discard",
    rules: ["K-ROUND-2", "K-SCORE-2"],
    text: {
      en: {
        title: "Phase 1: draw and discard",
        body: [
          "Phase 1 is compulsory: you paid the cost and drew two cards.",
          "Now bring your hand back to five cards, one discard at a time. Keep pairs and high cards: they make your poker hand.",
        ],
      },
      de: {
        title: "Phase 1: ziehen und abwerfen",
        body: [
          "Phase 1 ist Pflicht: Du hast die Kosten bezahlt und zwei Karten gezogen.",
          "Bring deine Hand jetzt wieder auf fünf Karten, eine Karte nach der anderen. Behalte Paare und hohe Karten: Sie machen deine Pokerhand.",
        ],
      },
    },
  },
  {
    id: "stake",
    rules: ["K-ROUND-3", "K-SHORT-1"],
    text: {
      en: {
        title: "Phase 2: draw again, stand or drop out",
        body: [
          "Phase 2 is phase 1 again, but now you choose: pay the cost to draw two more cards, stand (keep your hand and pay nothing) or drop out of the round.",
          "Dropping out saves chips but gives up the pot.",
        ],
        others: "Stand when your hand is good already; drop out when it is hopeless.",
      },
      de: {
        title: "Phase 2: nachziehen, stehen bleiben oder aussteigen",
        body: [
          "Phase 2 ist wie Phase 1, aber jetzt wählst du: die Kosten zahlen und zwei Karten ziehen, stehen bleiben (Hand behalten, nichts zahlen) oder aus der Runde aussteigen.",
          "Aussteigen spart Chips, gibt aber den Pot auf.",
        ],
        others: "Bleib stehen, wenn deine Hand schon gut ist; steig aus, wenn sie hoffnungslos ist.",
      },
    },
  },
  {
    id: "participate",
    rules: ["K-ROUND-4", "KD-ROUND-1"],
    text: {
      en: {
        title: "Phase 3: take part in the final scoring",
        body: ["To take part in the final scoring you pay the cost once more (without enough chips, for free), or you drop out.", "Everybody who stays shows their hand."],
      },
      de: {
        title: "Phase 3: an der Endwertung teilnehmen",
        body: ["Um an der Endwertung teilzunehmen, zahlst du die Kosten noch einmal (ohne genug Chips umsonst), oder du steigst aus.", "Wer bleibt, zeigt seine Hand."],
      },
    },
  },
  {
    id: "scoring",
    rules: ["K-SCORE-1", "K-SCORE-2", "K-SCORE-3", "K-SCORE-7"],
    text: {
      en: {
        title: "The poker hand and the pot",
        body: [
          "The hands still in the round are scored: points for the category (one pair 2, two pair 5, three of a kind 9, straight 14, flush 18 …) plus a card bonus (7 to 10 one point each, J, Q, K, A two).",
          "The best total takes the whole pot.",
        ],
      },
      de: {
        title: "Die Pokerhand und der Pot",
        body: [
          "Die Hände, die noch in der Runde sind, werden gewertet: Punkte für die Kategorie (ein Paar 2, zwei Paare 5, Drilling 9, Straße 14, Flush 18 …) plus Kartenbonus (7 bis 10 je einen, B, D, K, A je zwei).",
          "Die beste Summe bekommt den ganzen Pot.",
        ],
      },
    },
  },
  {
    id: "end",
    rules: ["K-END-1", "KD-END-1"],
    text: {
      en: {
        title: "The end",
        body: ["A player's chips ran out during this round, so it was the last one: whoever holds the most chips wins."],
      },
      de: {
        title: "Das Ende",
        body: ["Die Chips eines Spielers sind in dieser Runde ausgegangen, also war sie die letzte: Wer die meisten Chips hat, gewinnt."],
      },
    },
  },
];

/** The coach's own words around the lessons. */
const WORDS = {
  en: {
    coach: "Coach",
    lessonOf: "Lesson {n} of {total}",
    suggested: "Suggested",
    gotIt: "Got it",
    collapse: "Hide",
    expand: "Show the coach",
    backTo: "Back to a lesson",
    resume: "Back to the game",
    waiting: "Watch the computer players move.",
    answered: "You have nothing to answer with: the server answers for you.",
    rules: "Rules",
    summary: "You have learned",
    playReal: "Play a real game",
    done: "Well done: that was the whole game.",
    learn: "Learn to play",
    learnHelp: "A guided first game against two computer players: a coach explains each thing when it first matters. About ten minutes.",
    learnHelpPoker: "A short guided game of Apokerlypse: its phases, the poker hand, the chips and the end.",
    continueLearning: "Continue learning",
  },
  de: {
    coach: "Trainer",
    lessonOf: "Lektion {n} von {total}",
    suggested: "Vorschlag",
    gotIt: "Verstanden",
    collapse: "Ausblenden",
    expand: "Trainer zeigen",
    backTo: "Zurück zu einer Lektion",
    resume: "Zurück zum Spiel",
    waiting: "Sieh den Computerspielern zu.",
    answered: "Du hast nichts, womit du antworten könntest: Der Server antwortet für dich.",
    rules: "Regeln",
    summary: "Du hast gelernt",
    playReal: "Ein echtes Spiel spielen",
    done: "Gut gemacht: Das war das ganze Spiel.",
    learn: "Spielen lernen",
    learnHelp: "Ein geführtes erstes Spiel gegen zwei Computerspieler: Ein Trainer erklärt alles, sobald es zum ersten Mal wichtig wird. Etwa zehn Minuten.",
    learnHelpPoker: "Ein kurzes geführtes Spiel Apokerlypse: seine Phasen, die Pokerhand, die Chips und das Ende.",
    continueLearning: "Weiterlernen",
  },
} as const;

export type CoachWord = keyof (typeof WORDS)["en"];

export function coachWords(lang: Lang): (key: CoachWord, values?: Record<string, string | number>) => string {
  return (key, values) => {
    let text: string = WORDS[lang][key];
    for (const [name, value] of Object.entries(values ?? {})) text = text.split(`{${name}}`).join(String(value));
    return text;
  };
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

type Words = (typeof REASONS)["en" | "de"];

/** Why the coach suggests ``action`` (one of the learner's legal actions) in ``obs``. */
export type Reason = (obs: Observation, action: LegalAction, lang: Lang) => string;

const byVerb = (words: Words, verb: string): string => (verb in words ? words[verb as keyof Words] : words.other);

const PLAYS = new Set(["good", "evil", "heaven", "attack", "nether", "neutralise"] as const);
type Play = typeof PLAYS extends Set<infer U> ? U : never;

/** Apokalypse's reasons: a play by its use, a place or player by what the play is for. */
export const apokalypseReason: Reason = (observation, legal, lang) => {
  const words = REASONS[lang];
  const obs = observation as ApokalypseObservation;
  const action = legal as ApokalypseAction;
  if (action.verb === "play" && action.use !== undefined) return words[PLAYS.has(action.use as Play) ? (action.use as Play) : "good"];
  if (action.verb === "target" || action.verb === "to") {
    if (obs.choice?.use === "attack") return words.targetAttack;
    if (action.verb === "to" && obs.decision === "choose-recipient") return words.to;
    return action.seat === obs.seat ? words.targetOwn : words.target;
  }
  return byVerb(words, action.verb);
};

/** Apokerlypse's reasons: one per verb. */
export const apokerlypseReason: Reason = (_obs, action, lang) => byVerb(REASONS[lang], action.verb);
