// What this browser remembers of the guided games: per game, the lessons already shown (so that a
// resumed game goes on where it was and repeats none), and the guided games it started, so that
// the lobby offers "Continue learning". localStorage only, like "my games".
const SHOWN = "apokalypse.tutorial.";
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
    // storage full or off: the coach then only forgets what it showed
  }
}

export function shownLessons(gameId: string): string[] {
  const shown = read<unknown>(SHOWN + gameId, []);
  return Array.isArray(shown) ? shown.filter((id): id is string => typeof id === "string") : [];
}

export function rememberShown(gameId: string, shown: readonly string[]): void {
  write(SHOWN + gameId, shown);
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
