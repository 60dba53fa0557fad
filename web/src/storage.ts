// "My games": the links this browser created or opened, kept in localStorage only (a seat's
// token is the key to that seat, so it never leaves this browser except in its own link).
const KEY = "apokalypse.games";
const LIMIT = 30;

export interface SavedGame {
  id: string;
  game: string;
  seat: number | null; // null: watched as a spectator
  token?: string;
  at: number; // when it was last opened (ms since 1970)
}

export function savedGames(): SavedGame[] {
  try {
    const data: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(data) ? (data as SavedGame[]).filter((g) => typeof g?.id === "string") : [];
  } catch {
    return [];
  }
}

function store(games: SavedGame[]): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(games.slice(0, LIMIT)));
  } catch {
    // storage full or off: the list is a convenience only
  }
}

/** Remember a game link (newest first; one entry per game and seat). */
export function rememberGame(entry: Omit<SavedGame, "at">): void {
  const others = savedGames().filter((g) => !(g.id === entry.id && g.seat === entry.seat));
  store([{ ...entry, at: Date.now() }, ...others]);
}

/** Add the games of another device (server/transfers.py) to this browser's list, in their order,
 * before the games kept here. */
export function addGames(entries: Omit<SavedGame, "at">[]): void {
  const now = Date.now();
  const added = entries.map((entry, index) => ({ ...entry, at: now - index }));
  const others = savedGames().filter((g) => !entries.some((e) => e.id === g.id && e.seat === g.seat));
  store([...added, ...others]);
}

export function forgetGame(id: string, seat: number | null): void {
  store(savedGames().filter((g) => !(g.id === id && g.seat === seat)));
}

export function gameLink(id: string, token?: string): string {
  const path = `/games/${encodeURIComponent(id)}`;
  return token ? `${path}?token=${encodeURIComponent(token)}` : path;
}
