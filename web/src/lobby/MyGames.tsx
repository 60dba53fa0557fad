// "My games": the links created or opened in this browser (localStorage), each with its game's
// state from the server (GET /api/games?ids=…; without that endpoint, one summary each), and,
// for my seats, where I am awaited (POST /api/seats): those first, marked, with the time left.
import { useEffect, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { Catalog, GameSummary, SeatNews } from "../protocol";
import { forgetGame, gameLink, savedGames, type SavedGame } from "../storage";
import { duration } from "../ui/duration";
import { byUrgency, REFRESH_MS, REFRESHES, seatsNews } from "./awaited";
import { MoveGames } from "./MoveGames";
import "./awaited.css";

async function summaries(ids: string[]): Promise<Map<string, GameSummary>> {
  const found = new Map<string, GameSummary>();
  if (ids.length === 0) return found;
  const response = await fetch(`/api/games?ids=${ids.map(encodeURIComponent).join(",")}`);
  if (response.ok) {
    const data = (await response.json()) as { games?: GameSummary[] };
    for (const game of data.games ?? []) found.set(game.id, game);
    return found;
  }
  // an older server: ask for each game alone
  await Promise.all(
    ids.map(async (id) => {
      const one = await fetch(`/api/games/${encodeURIComponent(id)}`);
      if (one.ok) found.set(id, (await one.json()) as GameSummary);
    }),
  );
  return found;
}

export function MyGames({ t, refresh, catalog }: { t: Translate; refresh: number; catalog: Catalog | null }) {
  // A game's title from the catalog; its registry name until the catalog came (or for a game this
  // server no longer offers).
  const title = (game: string) => catalog?.games.find((g) => g.name === game)?.title ?? game;
  const [games, setGames] = useState<SavedGame[]>(savedGames());
  const [info, setInfo] = useState<Map<string, GameSummary> | null>(null);
  const [news, setNews] = useState<Map<string, SeatNews>>(new Map());
  const [tick, setTick] = useState(0); // the periodic refreshes so far
  useEffect(() => {
    const list = savedGames();
    setGames(list);
    summaries([...new Set(list.map((g) => g.id))])
      .then(setInfo)
      .catch(() => setInfo(new Map()));
    seatsNews(list)
      .then(setNews)
      .catch(() => undefined); // the list as it was
  }, [refresh, tick]);
  useEffect(() => {
    if (tick >= REFRESHES) return;
    const timer = window.setTimeout(() => {
      if (document.visibilityState === "visible") setTick(tick + 1);
      else setTick(tick); // hidden: ask again later, not now
    }, REFRESH_MS);
    return () => window.clearTimeout(timer);
  }, [tick, news]);

  return (
    <section class="panel my-games" id="my-games" aria-labelledby="my-games-title">
      <h2 class="box-title" id="my-games-title">
        {t("myGames")}
      </h2>
      {games.length === 0 ? <p class="dim">{t("noGamesYet")}</p> : null}
      <ul class="game-list">
        {byUrgency(games, news).map((g) => {
          const summary = info?.get(g.id);
          const mine = g.token ? news.get(g.id) : undefined;
          const awaited = mine?.awaited === true && !summary?.over;
          const move = mine?.move ?? summary?.move; // my own view's move, where I have a seat
          const status = info === null ? "" : summary === undefined ? t("gone") : summary.over ? t("finished") : `${t("running")} · ${t("atMove", { move: move ?? 0 })}`;
          const left = awaited && typeof mine?.left_ms === "number" ? mine.left_ms : null;
          return (
            <li
              class={`game-item${summary?.over ? " over" : ""}${awaited ? " awaited" : ""}`}
              data-id={g.id}
              data-status={summary === undefined ? "unknown" : summary.over ? "over" : "running"}
              data-awaited={awaited ? "yes" : "no"}
            >
              <a href={gameLink(g.id, g.token)}>
                <strong>{title(g.game)}</strong> <code>{g.id}</code>
              </a>
              {awaited ? (
                <span class="your-turn" data-left={left ?? ""}>
                  {t("yourTurn")}
                  {left !== null ? <small> · {t("leftShort", { time: duration(left, t) })}</small> : null}
                </span>
              ) : null}
              <span class="dim">{g.seat === null ? t("asSpectator") : t("asSeat", { seat: g.seat + 1 })}</span>
              <span class="game-status">{status}</span>
              {summary?.seats.some((s) => s.name) ? <span class="game-names dim">{summary.seats.flatMap((s) => (s.name ? [s.name] : [])).join(", ")}</span> : null}
              <button
                type="button"
                class="link-button"
                onClick={() => {
                  forgetGame(g.id, g.seat);
                  setGames(savedGames());
                }}
              >
                {t("forget")}
              </button>
            </li>
          );
        })}
      </ul>
      <MoveGames t={t} count={games.length} onAdded={() => setTick(tick + 1)} />
    </section>
  );
}
