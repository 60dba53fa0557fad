// The lobby's way into a guided first game: "Learn to play" per game (POST /api/tutorial, in the
// lobby's language), and "Continue learning" for one this browser started and has not finished.
import { useState } from "preact/hooks";
import { GAME_LIST } from "../games";
import type { Catalog, Created, Lang } from "../protocol";
import { gameLink, rememberGame } from "../storage";
import { coachWords } from "./lessons";
import { rememberTutorial, startedTutorials } from "./memory";
import "./coach.css";

export function LearnToPlay({ lang, catalog }: { lang: Lang; catalog: Catalog | null }) {
  const w = coachWords(lang);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = startedTutorials().filter((t) => !t.over);
  const title = (game: string): string => catalog?.games.find((g) => g.name === game)?.title ?? game;

  const start = async (game: string) => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/tutorial", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game, lang }),
      });
      const data = (await response.json()) as Created & { detail?: unknown };
      if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : response.statusText);
      const mine = data.seats.find((s) => s.token);
      if (!mine?.token) throw new Error(response.statusText);
      rememberTutorial({ game, id: data.id, token: mine.token, over: false });
      rememberGame({ id: data.id, game, seat: mine.seat, token: mine.token });
      window.location.assign(gameLink(data.id, mine.token));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };

  return (
    <section id="learn" class="panel learn" aria-labelledby="learn-title">
      <h2 id="learn-title" class="box-title">
        {w("learn")}
      </h2>
      <div class="learn-games">
        {GAME_LIST.map(({ name: game, tutorial }) => {
          if (tutorial === null) return null;
          const going = running.find((t) => t.game === game);
          return (
            <div class="learn-game" data-game={game}>
              <p class="learn-help">
                <strong>{title(game)}</strong> — {w(tutorial.help)}
              </p>
              <div class="learn-buttons">
                {going ? (
                  <a class="button primary" id={`continue-${game}`} href={gameLink(going.id, going.token)}>
                    {w("continueLearning")}
                  </a>
                ) : null}
                <button type="button" class={going ? "ghost" : "primary"} id={`learn-${game}`} disabled={busy} onClick={() => void start(game)}>
                  {w("learn")}
                </button>
              </div>
            </div>
          );
        })}
      </div>
      {error ? (
        <p class="refusal" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
