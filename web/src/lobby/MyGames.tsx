// "My games": the links created or opened in this browser (localStorage), each with its game's
// state from the server (GET /api/games?ids=…; without that endpoint, one summary each).
import { useEffect, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { Catalog, GameSummary } from "../protocol";
import { forgetGame, gameLink, savedGames, type SavedGame } from "../storage";

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
  useEffect(() => {
    const list = savedGames();
    setGames(list);
    summaries([...new Set(list.map((g) => g.id))])
      .then(setInfo)
      .catch(() => setInfo(new Map()));
  }, [refresh]);

  return (
    <section class="panel my-games" id="my-games" aria-labelledby="my-games-title">
      <h2 class="box-title" id="my-games-title">
        {t("myGames")}
      </h2>
      {games.length === 0 ? <p class="dim">{t("noGamesYet")}</p> : null}
      <ul class="game-list">
        {games.map((g) => {
          const summary = info?.get(g.id);
          const status = info === null ? "" : summary === undefined ? t("gone") : summary.over ? t("finished") : `${t("running")} · ${t("atMove", { move: summary.move })}`;
          return (
            <li class={`game-item${summary?.over ? " over" : ""}`} data-id={g.id} data-status={summary === undefined ? "unknown" : summary.over ? "over" : "running"}>
              <a href={gameLink(g.id, g.token)}>
                <strong>{title(g.game)}</strong> <code>{g.id}</code>
              </a>
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
    </section>
  );
}
