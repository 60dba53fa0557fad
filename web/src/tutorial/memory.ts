// What this browser remembers of the guided games: the ones it started, so that the lobby offers
// "Continue learning" (localStorage only, like "my games"). The lessons a game has shown are the
// server's: a resumed game is sent them.
const STARTED = "apokalypse.tutorials";

function read<T>(key: string, fallback: T): T {
  try {
    const data: unknown = JSON.parse(window.localStorage.getItem(key) ?? "null");
    return data === null ? fallback : (data as T);
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or off: the lobby then only forgets the guided games started
  }
}

export interface StartedTutorial {
  game: string;
  id: string;
  token: string;
  over: boolean;
}

export function startedTutorials(): StartedTutorial[] {
  const list = read<unknown>(STARTED, []);
  return Array.isArray(list) ? (list as StartedTutorial[]).filter((t) => typeof t?.id === "string" && typeof t?.token === "string") : [];
}

/** Remember a guided game just started (one per game: a new one replaces the old). */
export function rememberTutorial(entry: StartedTutorial): void {
  write(STARTED, [entry, ...startedTutorials().filter((t) => t.game !== entry.game)]);
}

export function finishTutorial(id: string): void {
  write(
    STARTED,
    startedTutorials().map((t) => (t.id === id ? { ...t, over: true } : t)),
  );
}
