// Where I am awaited: for the seats this browser keeps (their game and key), what each seat's
// own view shows now (POST /api/seats): whether its person decides, the time left. At most 30
// seats a request (the browser keeps 30 games); an error per seat whose key opens nothing.
import type { SeatNews } from "../protocol";
import type { SavedGame } from "../storage";

export const REFRESH_MS = 30_000; // how often "my games" asks again while the lobby is open …
export const REFRESHES = 120; // … and how many times at most (an hour): then on the next visit

export async function seatsNews(games: SavedGame[]): Promise<Map<string, SeatNews>> {
  const found = new Map<string, SeatNews>();
  const asks = games.filter((g) => g.token).map((g) => ({ id: g.id, token: g.token as string }));
  if (asks.length === 0) return found;
  const response = await fetch("/api/seats", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(asks.slice(0, 30)),
  });
  if (!response.ok) return found; // an older server, or asked too often: the list as it was
  const data = (await response.json()) as { seats?: SeatNews[] };
  for (const news of data.seats ?? []) if (news.error === undefined) found.set(news.id, news);
  return found;
}

/** Games where I am awaited first, the least time left first among them; the rest as kept. */
export function byUrgency(games: SavedGame[], news: Map<string, SeatNews>): SavedGame[] {
  const awaited = (g: SavedGame) => (g.token ? news.get(g.id)?.awaited === true : false);
  const left = (g: SavedGame) => news.get(g.id)?.left_ms ?? Number.POSITIVE_INFINITY;
  return games
    .map((game, index) => ({ game, index }))
    .sort((a, b) => {
      const first = Number(awaited(b.game)) - Number(awaited(a.game));
      if (first !== 0) return first;
      if (awaited(a.game)) {
        const sooner = left(a.game) - left(b.game);
        if (sooner !== 0 && Number.isFinite(sooner)) return sooner;
        if (left(a.game) !== left(b.game)) return Number.isFinite(left(a.game)) ? -1 : 1;
      }
      return a.index - b.index;
    })
    .map(({ game }) => game);
}
