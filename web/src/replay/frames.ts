// A replay as the server sends it (server/replays.py): the game, its seats and one state message
// per step (0: the start, i: after action i), each as the game's seat view made it for one
// viewer. The tables draw a frame through a GameConnection that can do nothing: act and control
// are refused, no frame offers a decision.
import type { GameConnection } from "../game/useGame";
import type { CardFacts, EventMessage, GameName, Lang, StateMessage } from "../protocol";

export interface Replay {
  id: string | null; // the stored game's id; null: a record file opened in the page
  game: GameName;
  players: number;
  lang: Lang;
  viewer: number | null; // the seat (0-based) seen from; null: a spectator
  names: string[]; // each seat's name as a spectator reads it
  seats: { seat: number; kind: string }[];
  steps: number; // actions: frames[0 … steps]
  over: boolean;
  verified: boolean | null; // whether an opened file's events digest matched its replay
  frames: StateMessage[];
}

/** A replay as it comes over the wire: the first frame whole, every later one as its change from
 * the one before (server/changes.py says the form). */
export interface ReplayWire extends Omit<Replay, "frames"> {
  first: StateMessage;
  changes: Change[];
}

/** A change of one JSON value into another: `[value]` the new value whole; for an object the
 * changed keys (`k`) and the dropped ones (`d`); for an array its new length when shorter (`t`),
 * the items changed by index (`i`) and the items added (`a`). */
export type Change = [unknown] | { k?: Record<string, Change>; d?: string[]; t?: number; i?: Record<string, Change>; a?: unknown[] };

/** Set a key as data (never a setter: a key "__proto__" stays a key). */
function put(target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `old` changed by `change`, a new value; what did not change is shared with `old`. */
export function applyChange(old: unknown, change: Change): unknown {
  if (Array.isArray(change)) return change[0];
  if (Array.isArray(old)) {
    const items = old.slice(0, change.t ?? old.length);
    for (const [index, inner] of Object.entries(change.i ?? {})) put(items, Number(index), applyChange(items[Number(index)], inner));
    items.push(...(change.a ?? []));
    return items;
  }
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(old as Record<string, unknown>)) put(result, key, value);
  for (const [key, inner] of Object.entries(change.k ?? {})) put(result, key, applyChange(result[key], inner));
  for (const key of change.d ?? []) delete result[key];
  return result;
}

/** The replay with every frame rebuilt from its first and the changes. */
export function fromWire({ first, changes, ...rest }: ReplayWire): Replay {
  const frames: StateMessage[] = [first];
  for (const change of changes) frames.push(applyChange(frames[frames.length - 1], change) as StateMessage);
  return { ...rest, frames };
}

/** The viewer in an address or request: a seat 1 … n, or "spectator". */
export type ViewerParam = string;

export function viewerParam(seat: number | null): ViewerParam {
  return seat === null ? "spectator" : String(seat + 1);
}

export function parseViewer(text: string | null, players: number): number | null {
  const seat = Number(text);
  return Number.isInteger(seat) && seat >= 1 && seat <= players ? seat - 1 : null;
}

const LOG_LIMIT = 500;
const nothing = (): boolean => false;

/** Where each step's log lines and events end in the whole game's lists. */
export interface Gathered {
  log: string[];
  logEvents: number[]; // for each line of `log`, the index in `events` of the event it tells
  events: EventMessage[];
  logEnd: number[];
  eventEnd: number[];
  cards: Record<string, CardFacts>;
}

export function gather(replay: Replay): Gathered {
  const log: string[] = [];
  const logEvents: number[] = [];
  const events: EventMessage[] = [];
  const logEnd: number[] = [];
  const eventEnd: number[] = [];
  for (const frame of replay.frames) {
    log.push(...(frame.text?.log ?? []));
    logEvents.push(...(frame.text?.log_events ?? []).map((index) => index + events.length));
    events.push(...(frame.events ?? []));
    logEnd.push(log.length);
    eventEnd.push(events.length);
  }
  const cards = (replay.frames[0]?.cards ?? {}) as Record<string, CardFacts>;
  return { log, logEvents, events, logEnd, eventEnd, cards };
}

/** The table's connection at ``step``; ``fresh``: the events from which on a ride is news (its
 * panel opens): the step's own when it was stepped onto, none after a jump. */
export function connectionAt(replay: Replay, gathered: Gathered, step: number, fresh: boolean): GameConnection {
  const end = gathered.eventEnd[step] ?? 0;
  const before = step > 0 ? (gathered.eventEnd[step - 1] ?? 0) : 0;
  return {
    gameId: "",
    token: null,
    connection: "connected",
    state: replay.frames[step] ?? null,
    arrived: 0,
    log: gathered.log.slice(0, gathered.logEnd[step] ?? 0).slice(-LOG_LIMIT),
    logEvents: gathered.logEvents.slice(0, gathered.logEnd[step] ?? 0).slice(-LOG_LIMIT),
    events: gathered.events.slice(0, end),
    firstBatch: fresh ? before : end,
    latest: before,
    cards: gathered.cards,
    refusal: null,
    fatal: null,
    act: nothing,
    control: nothing,
    setAuto: nothing,
    talk: [],
    say: nothing,
    rename: nothing,
    dismissRefusal: () => undefined,
    why: null, // a replay asks the server nothing
    ask: nothing,
    dismissWhy: () => undefined,
    advice: null,
    asking: false,
    advise: nothing,
    agreeCoach: nothing,
    readOn: nothing,
  };
}
