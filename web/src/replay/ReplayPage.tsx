// The replay page: a finished game (/games/<id>/replay) or a record file opened here (/replay),
// step by step from any seat's view or the spectator's, drawn by the same tables as a live game.
// The address keeps the viewer and the step (?viewer=2&step=120), so a link shares that moment.
import { Brand } from "../ui/Brand";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { gameOf } from "../games";
import { asLang, browserLang, translator, type Translate } from "../i18n";
import { RulesDialog } from "../ui/Rules";
import { Controls } from "./Controls";
import { connectionAt, fromWire, gather, type Replay, type ReplayWire, viewerParam } from "./frames";
import { OpenRecord, type Opened } from "./OpenRecord";
import "./replay.css";

const MAX_FILE = 1 << 20; // the server takes a record file up to this size (server/edge.py)

interface Asked {
  viewer: string; // "spectator" or a seat 1 … n, as the address has it
  step: number | null; // null: the last
}

function askedInAddress(): Asked {
  const query = new URLSearchParams(window.location.search);
  const step = Number(query.get("step"));
  return {
    viewer: query.get("viewer") ?? "spectator",
    step: query.has("step") && Number.isInteger(step) && step >= 0 ? step : null,
  };
}

async function fetchReplay(gameId: string | null, opened: Opened | null, viewer: string): Promise<Replay> {
  const query = `viewer=${encodeURIComponent(viewer)}`;
  const response =
    gameId !== null
      ? await fetch(`/api/games/${encodeURIComponent(gameId)}/replay?${query}`)
      : await fetch(`/api/replays?${query}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: opened?.bytes ?? new ArrayBuffer(0),
        });
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    try {
      const body = (await response.json()) as { detail?: unknown };
      if (typeof body.detail === "string") detail = body.detail;
    } catch {
      // not JSON: the status says it
    }
    throw new Error(detail);
  }
  return fromWire((await response.json()) as ReplayWire);
}

export function ReplayPage({ game: stored }: { game: string | null }) {
  const first = useMemo(askedInAddress, []);
  const [gameId, setGameId] = useState(stored); // null: a record file opened here
  const [viewer, setViewer] = useState(first.viewer);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [replay, setReplay] = useState<Replay | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(gameId !== null);
  const [step, setStep] = useState(0);
  const [fresh, setFresh] = useState(false); // the step was stepped onto: its ride is news
  const [rules, setRules] = useState<{ card?: string | undefined } | null>(null);
  const wanted = useRef<number | null>(first.step); // the step to show once the replay is here
  const lang = replay ? asLang(replay.lang) : browserLang();
  const t: Translate = useMemo(() => translator(lang), [lang]);

  // Fetch the replay whenever the viewer (or the opened file) changes; the step stays.
  useEffect(() => {
    if (gameId === null && opened === null) return;
    let current = true;
    setLoading(true);
    fetchReplay(gameId, opened, viewer)
      .then((made) => {
        if (!current) return;
        const asked = wanted.current;
        wanted.current = null;
        setReplay(made);
        setStep((old) => Math.min(made.steps, asked ?? (replay ? old : made.steps)));
        setFresh(false);
        setError(null);
      })
      .catch((reason: unknown) => {
        if (current) setError(reason instanceof Error ? reason.message : String(reason));
      })
      .finally(() => {
        if (current) setLoading(false);
      });
    return () => {
      current = false;
    };
  }, [gameId, opened, viewer]);

  const gathered = useMemo(() => (replay ? gather(replay) : null), [replay]);
  const game = useMemo(() => (replay && gathered ? connectionAt(replay, gathered, step, fresh) : null), [replay, gathered, step, fresh]);
  const state = game?.state ?? null;
  const obs = state?.observation;
  const entry = gameOf(replay?.game);
  const gameName = entry.name;

  // The address says what is shown: a link (or a reload) opens the same moment.
  useEffect(() => {
    if (replay === null) return;
    const query = new URLSearchParams({ viewer, step: String(step) });
    window.history.replaceState(null, "", `${window.location.pathname}?${query}`);
  }, [replay, viewer, step]);

  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = `${t("replayTitle")} · ${entry.title}${gameId ? ` · ${gameId}` : ""}`;
  }, [lang, gameName]);

  // Page state for tests and styles, set in the same commit as the DOM it describes (a
  // deferred effect let a test read the step before the one already drawn).
  useLayoutEffect(() => {
    const body = document.body.dataset;
    body.loading = loading ? "yes" : "no";
    if (replay === null || obs === undefined) return;
    body.step = String(step);
    body.steps = String(replay.steps);
    body.viewer = viewer;
    body.move = String(obs.move);
    body.over = "result" in obs && obs.result ? "yes" : "no";
  }, [replay, step, viewer, loading]);

  const go = (to: number, stepped = false) => {
    if (replay === null) return;
    setStep(Math.max(0, Math.min(replay.steps, to)));
    setFresh(stepped);
  };

  const open = (file: Opened) => {
    if (file.bytes.byteLength > MAX_FILE) {
      setError(t("replayFileTooBig", { size: Math.round(MAX_FILE / 1024) }));
      return;
    }
    if (gameId !== null) {
      setGameId(null); // this page shows the file now, at the address of an opened file
      window.history.pushState(null, "", "/replay");
    }
    wanted.current = 0;
    setReplay(null);
    setViewer("spectator");
    setOpened(file);
  };

  const name = (q: number): string => {
    const given = state?.names?.[q];
    if (given) return given;
    return replay?.names[q] ?? `p${q + 1}`;
  };

  return (
    <div class={`page game-page replay-page game-${gameName}`}>
      <header class="topbar">
        <Brand game={entry} />
        <span class="top-stat replay-badge">{t("replayTitle")}</span>
        {obs ? (
          <span class="top-stat" id="move" data-move={obs.move}>
            {t("move")} <strong>{obs.move}</strong>
          </span>
        ) : null}
        <span class="spacer" />
        {gameId ? (
          <a class="ghost button small" id="back-to-game" href={`/games/${encodeURIComponent(gameId)}`}>
            {t("replayBackToGame")}
          </a>
        ) : null}
        <button type="button" class="ghost" id="rules-button" onClick={() => setRules({})}>
          {t("rules")}
        </button>
      </header>
      <main class="game-main replay-main">
        <div class="replay-tools panel">
          {replay ? (
            <label class="replay-viewer">
              <span>{t("replayViewer")}</span>
              <select id="viewer" value={viewer} onChange={(e) => setViewer((e.target as HTMLSelectElement).value)}>
                <option value="spectator">{t("spectator")}</option>
                {replay.seats.map(({ seat }) => (
                  <option value={viewerParam(seat)}>{replay.names[seat] ?? `p${seat + 1}`}</option>
                ))}
              </select>
            </label>
          ) : null}
          {gameId ? <ShareButtons gameId={gameId} t={t} /> : null}
          <OpenRecord onOpen={open} t={t} />
        </div>
        {error ? (
          <div id="replay-error" class="refusal fatal" role="alert">
            <strong>{error}</strong>
          </div>
        ) : null}
        {replay?.verified === false ? (
          <p class="replay-note" id="replay-unverified">
            {t("replayDiffers")}
          </p>
        ) : null}
        {gameId === null && opened === null && !error ? <p class="replay-note">{t("replayOpenHelp")}</p> : null}
        {loading && replay === null ? <p class="loading">{t("replayLoading")}</p> : null}
        {replay && game && state && obs ? (
          <>
            <Controls replay={replay} step={step} go={go} t={t} />
            <div class={`replay-table${loading ? " is-loading" : ""}`} key={`${viewer}`}>
              <entry.Table game={game} state={state} lang={lang} t={t} name={name} openRules={(card) => setRules({ card })} />
            </div>
          </>
        ) : null}
      </main>
      {rules ? (
        <RulesDialog
          game={gameName}
          lang={lang}
          card={rules.card}
          facts={game?.cards}
          onClose={() => setRules(null)}
          t={t}
        />
      ) : null}
    </div>
  );
}

function ShareButtons({ gameId, t }: { gameId: string; t: Translate }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    navigator.clipboard
      ?.writeText(window.location.href)
      .then(() => setCopied(true))
      .catch(() => setCopied(false));
  };
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 2000);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return (
    <span class="replay-share">
      <button type="button" class="ghost" id="copy-link" onClick={copy}>
        {copied ? t("replayCopied") : t("replayCopyLink")}
      </button>
      <a class="button ghost" id="download-record" href={`/api/games/${encodeURIComponent(gameId)}/record`} download={`apokalypse-${gameId}.json`}>
        {t("replayDownload")}
      </a>
    </span>
  );
}
