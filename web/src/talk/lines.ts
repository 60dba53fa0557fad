// Table talk as this browser keeps it: the lines merged as they come (a reconnection is sent the
// history again), whom this person muted in each game, and the name they go by, remembered in
// localStorage (this browser only). Nothing here is ever read as markup: the lines are text.
import type { TalkLine } from "../protocol";

const KEEP = 500; // lines kept in the page
const NAME_KEY = "apokalypse.name";
const MUTE_KEY = "apokalypse.mute."; // + the game's id
export const NAME_LENGTH = 24; // as the server checks it (wire/talk.py)
export const TEXT_LENGTH = 300;

/** The lines so far with ``incoming`` merged in: each once (by channel and number), in the
 * order they were said. */
export function mergeTalk(old: TalkLine[], incoming: TalkLine[]): TalkLine[] {
  const seen = new Set(old.map(key));
  const fresh = incoming.filter((line) => !seen.has(key(line)));
  if (fresh.length === 0) return old;
  return [...old, ...fresh].sort((a, b) => a.at - b.at).slice(-KEEP);
}

function key(line: TalkLine): string {
  return `${line.channel}:${line.n}`;
}

/** Who said a line, for muting: a seat, or a spectator by the name they gave. */
export function speaker(line: TalkLine): string {
  return line.seat === null ? `spectator:${line.name}` : `seat:${line.seat}`;
}

export function mutedIn(gameId: string): string[] {
  try {
    const data: unknown = JSON.parse(window.localStorage.getItem(MUTE_KEY + gameId) ?? "[]");
    return Array.isArray(data) ? data.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

export function saveMuted(gameId: string, speakers: string[]): void {
  try {
    window.localStorage.setItem(MUTE_KEY + gameId, JSON.stringify(speakers));
  } catch {
    // storage full or off: the mute lasts as long as the page
  }
}

export function rememberedName(): string | null {
  try {
    const name = window.localStorage.getItem(NAME_KEY);
    return name && name.trim() ? name : null;
  } catch {
    return null;
  }
}

export function rememberName(name: string): void {
  try {
    window.localStorage.setItem(NAME_KEY, name);
  } catch {
    // storage off: the name is sent, just not remembered
  }
}

/** A name as the server takes it (NFC, trimmed, 1–24 characters, no control characters), or
 * null; the server checks again and says why where it refuses. */
export function cleanName(raw: string): string | null {
  const name = raw.normalize("NFC").trim();
  // eslint-disable-next-line no-control-regex
  if (!name || [...name].length > NAME_LENGTH || /[\u0000-\u001f\u007f-\u009f]/.test(name)) return null;
  return name;
}
