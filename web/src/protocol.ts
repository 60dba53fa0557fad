// The server's messages as the browser reads them (wire version 5): the WebSocket messages are the
// generated types of schema/<game>.schema.json (src/wire/, `npm run gen`), never written by hand;
// the HTTP bodies below (create a game, a game's summary, the lobby's catalog) are not in the schema.
import type * as A from "./wire/apokalypse";
import type * as K from "./wire/apokerlypse";

export type Lang = "en" | "de";
/** A player's view of one event, of either game: one union told apart by `kind` (each kind's `args` typed). */
export type EventMessage = A.Event | K.Event;
export type ApokalypseEvent = A.Event;
export type ApokerlypseEvent = K.Event;
export type ApokalypseObservation = A.Observation;
export type ApokerlypseObservation = K.Observation;
/** A poker hand's category (K-SCORE-2), as a revealed hand's score names it. */
export type PokerCategory = K.Category;
export type Observation = ApokalypseObservation | ApokerlypseObservation;
/** A game's registry name, as each game's observation names it. */
export type GameName = Observation["game"];

export type SeatStatus = A.SeatStatus;
/** The clock as this viewer may know it: its own bank, and the deciding seat's time only where
 * its observation shows who decides. */
export type ClockView = A.ClockView;
export type Deciding = A.Deciding;
export type Forecast = A.Forecast;
export type SideForecast = A.SideForecast;
export type Sentences = A.Sentences;
export type RefusedMessage = A.RefusedMessage;
/** The answer to a "why" (would this action be refused now, and why?), to the asker only. */
export type WhyAnswer = A.WhyAnswer;
/** What the browser may tell about a card (sent once per connection): its name, for Apokalypse
 * also the half each side shows (`good`, `evil`) and what it does (`about`). */
export type CardFacts = A.CardFacts;
/** Apokerlypse's facts: by card code its name and effect, by faction name (`military` …) the
 * faction and its ability (`about`, in the table's language, "" where the content has none). */
export type ApokerlypseCardFacts = K.CardFacts;
/** GET /api/rules/{game}?lang=[&card=]: the short rules as sections of paragraphs and lists whose
 * spans name the game's icons, cards and rule ids; every card; one card's help. */
export type Rulebook = A.Rulebook;
export type RulesSection = A.Section;
export type RulesBlock = A.Paragraph | A.Items;
export type RulesSpan = A.Span;
export type RulesCardHelp = A.CardHelp;
/** A finished game's rematch: the new game (each seat's invite key opens the same seat there). */
export type Rematch = A.Rematch;

/** A legal action: its notation (`text`, what the browser sends back) and its parts. */
export type ApokalypseAction = A.ActionParts;
export type ApokerlypseAction = K.ActionParts;
export type LegalAction = ApokalypseAction | ApokerlypseAction;

export type ApokalypseState = A.StateMessage;
export type ApokerlypseState = K.StateMessage;
export type StateMessage = ApokalypseState | ApokerlypseState;
/** Lines of table talk this connection may read (the history when it joins, then each new one). */
export type TalkMessage = A.TalkMessage;
export type TalkLine = A.TalkLine;
/** The coach's answer to `advise`, for the asking connection only; the coach as a seat's own
 * view shows it (available, offered, agreed, why not). */
export type AdviceMessage = A.AdviceMessage;
export type AdviceCandidate = A.AdviceCandidate;
export type CoachView = A.CoachView;
/** A guided game's coach, in its learner's state message only: the lessons opened so far (the
 * one shown last), those due now, and the index in `legal` of the move it suggests. */
export type TutorialView = A.TutorialView;
/** Every message a server sends, one union told apart by `type`: generated from the wire
 * schema's `server` part (the server sends each through one function, server/outbox.py). */
export type ServerMessage = NonNullable<A.ApokalypseWireFormatVersion5["server"]> | NonNullable<K.ApokerlypseWireFormatVersion5["server"]>;
export type ClientMessage = A.ActionMessage | A.SeatMessage | A.AutoMessage | A.NameMessage | A.SayMessage | A.WhyMessage | A.AdviseMessage | A.CoachMessage | A.LessonMessage;

/** GET /api/games/{id}: a game's public summary. */
export interface GameSummary {
  id: string;
  game: GameName;
  players: number;
  seats: { seat: number; kind: string; name?: string | null }[]; // name: the one its person chose
  lang: string;
  move: number;
  over: boolean;
  result: unknown;
  seed?: number | string;
  tutorial?: boolean; // the guided first game ("Learn to play"): its page shows the coach
}

/** GET /api/catalog?lang=: the games the lobby offers and who may sit at them, labelled in one
 * language (`wire/seat.py`: Catalog). The lobby keeps no copy of a game's facts. */
export interface Catalog {
  games: GameChoice[];
  seats: SeatChoice[];
}
export interface GameChoice {
  name: string;
  title: string;
  players: [number, number]; // fewest and most
  variants: { id: string; label: string }[];
}
export interface SeatChoice {
  kind: string; // "human" or a computer player's name
  label: string;
  group: string | null; // the heading it is listed under (null: the first choices, unheaded)
  about: string | null; // a level's one line: what it is and what was measured
}

/** POST /api/games: the request and its answer (any game of the catalog). */
export interface CreateRequest {
  game: string;
  players: number;
  seats: string[];
  variants: string[];
  lang: Lang;
  timer?: { turn: number; bank: number } | null;
  turn_based?: { hours: number } | null; // instead of a timer: hours (up to 14 days) per move
  coach?: boolean; // the coach for every person at the table (each agrees at their seat)
}

/** POST /api/seats: where each of "my games"' seats is awaited, as its own view shows it. */
export interface SeatNews {
  id: string;
  seat?: number;
  awaited?: boolean; // its person decides now
  left_ms?: number | null; // that decision's time left, when timed
  move?: number;
  over?: boolean;
  error?: string; // a key that opens no seat, a game gone
}
/** POST /api/games's answer (`wire/seat.py`: Created, SeatLink): the server makes the links,
 * under the address friends can open (its public URL, or its network address). */
export interface Created {
  id: string;
  seats: { seat: number; kind: string; token?: string; url?: string }[];
  watch: string; // the spectator link
  address: string; // the base of the links above
  addresses: string[]; // the other bases the host may choose (none under a public address)
}
