// The game page: one game, seen from one seat (the token in this page's address) or by a
// spectator. It connects, keeps the link in "my games", and hands the state to the table of its
// game. The token never leaves the address bar and this browser's storage.
import { Brand } from "../ui/Brand";
import { useEffect, useMemo, useState } from "preact/hooks";
import { gameOf } from "../games";
import { asLang, translator } from "../i18n";
import type { GameSummary, Lang } from "../protocol";
import { rememberGame } from "../storage";
import { Coach, CoachAgreement } from "../ui/Coach";
import { Refusal } from "../ui/Refusal";
import { RulesDialog } from "../ui/Rules";
import { rememberedName } from "../talk/lines";
import { NameDialog, NamePrompt } from "../talk/NameDialog";
import { useRememberedName } from "../talk/name";
import { TableTalk } from "../talk/TableTalk";
import { Toasts } from "../ui/Toasts";
import { badge } from "../ui/badge";
import { Coach as TutorialCoach } from "../tutorial/Coach";
import { SeenContext } from "./seen";
import { useActGuard } from "./useActGuard";
import { useGame } from "./useGame";
import { useLitInView } from "./useLitInView";
import { useTurnSignal } from "./useTurnSignal";
import { useWhatHappened } from "./useWhatHappened";


export function GamePage({ gameId, token }: { gameId: string; token: string | null }) {
  const [summary, setSummary] = useState<GameSummary | null>(null);
  const game = useActGuard(useGame(gameId, token));
  const [rules, setRules] = useState<{ card?: string | undefined } | null>(null);
  const [naming, setNaming] = useState(false);
  const [later, setLater] = useState(false); // the name prompt put off for this page
  const lang: Lang = asLang(summary?.lang);
  const t = useMemo(() => translator(lang), [lang]);
  const state = game.state;
  const obs = state?.observation;
  const entry = gameOf(obs?.game ?? summary?.game);
  const gameName = entry.name;

  useEffect(() => {
    fetch(`/api/games/${encodeURIComponent(gameId)}`)
      .then(async (response) => (response.ok ? setSummary((await response.json()) as GameSummary) : undefined))
      .catch(() => undefined); // the WebSocket tells what is wrong
  }, [gameId]);

  const seat = state?.seat ?? obs?.seat ?? null;
  useRememberedName(game, seat);
  const chosen = seat === null ? null : (state?.seats[seat]?.name ?? null);
  const remembered = rememberedName();
  useEffect(() => {
    if (obs === undefined) return;
    rememberGame({ id: gameId, game: obs.game, seat: token === null ? null : seat, ...(token ? { token } : {}) });
  }, [obs?.game, seat]);

  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const deciding = Boolean(state && state.legal.length > 0 && !(obs && "result" in obs && obs.result));
  useLitInView(deciding && obs ? `${obs.move}:${obs.decision}` : null);
  const turn = useTurnSignal({
    deciding,
    title: `${entry.title} · ${gameId}`,
    turnTitle: t("yourTurnTitle"),
    notice: t("turnNotice", { game: entry.title, id: gameId }),
    decision: `${obs?.move}:${obs?.decision}`,
  });

  // Page state for tests and styles: the move shown, the decision, the viewer's seat.
  useEffect(() => {
    const body = document.body.dataset;
    if (obs === undefined) return;
    body.move = String(obs.move);
    body.decision = obs.decision;
    body.deciding = state && state.legal.length > 0 ? "yes" : "no";
    body.over = "result" in obs && obs.result ? "yes" : "no";
    body.toAct = obs.to_act === null ? "" : String(obs.to_act);
    body.seat = seat === null ? "" : String(seat);
  }, [state]);

  const name = (q: number): string => {
    const given = state?.names?.[q];
    if (given) return given;
    const kind = state?.seats?.[q]?.kind ?? summary?.seats[q]?.kind;
    if (q === seat) return `p${q + 1} (${t("you")})`;
    return kind && kind !== "human" ? `p${q + 1} (${kind})` : `p${q + 1}`;
  };

  const seen = useWhatHappened(game, seat, t, name, game.cards);
  const connection = game.fatal ? "disconnected" : game.connection; // a dead link is not connected

  return (
    <SeenContext.Provider value={{ ...seen, turn }}>
    <div class={`page game-page game-${gameName}`}>
      <header class="topbar">
        <Brand game={entry} />
        {obs && entry.TopStats ? <entry.TopStats obs={obs} t={t} /> : null}
        {obs ? (
          <span class="top-stat" id="move" data-move={obs.move}>
            {t("move")} <strong>{obs.move}</strong>
          </span>
        ) : null}
        <span class="spacer" />
        <button type="button" id="whoami" class="whoami ghost" title={t("nameChange")} onClick={() => setNaming(true)}>
          {token === null ? t("spectator") : seat !== null ? `${t("seat")} ${seat + 1}` : ""}
        </button>
        {state ? (
          <button type="button" class="ghost log-button" id="log-button" aria-expanded={seen.logOpen} aria-controls="log-panel" onClick={() => seen.setLogOpen(!seen.logOpen)}>
            {t("logButton")}
            {seen.unread > 0 ? (
              <span class="unread" id="log-unread" aria-label={t("logUnread", { count: seen.unread })}>
                {badge(seen.unread)}
              </span>
            ) : null}
          </button>
        ) : null}
        <span id="connection" class={`connection ${connection}`} data-state={connection}>
          {t(connection)}
        </span>
        <button type="button" class="ghost" id="rules-button" onClick={() => setRules({})}>
          {t("rules")}
        </button>
      </header>
      <main class="game-main">
        {game.fatal ? (
          <div id="fatal" class="refusal fatal" role="alert">
            <strong>{t(game.fatal)}</strong> <a href="/">{t("newGame")}</a>
          </div>
        ) : null}
        {game.refusal ? <Refusal refusal={game.refusal} onDismiss={game.dismissRefusal} t={t} /> : null}
        {/* Asked once, of a seat and of a spectator alike (whose talk lines read "Spectator"
            until then); a guided game is played alone: nobody there to be named for. */}
        {state && chosen === null && remembered === null && !later && !summary?.tutorial ? <NamePrompt rename={game.rename} onLater={() => setLater(true)} t={t} /> : null}
        {state && summary?.tutorial && seat !== null ? <TutorialCoach gameId={gameId} game={game} state={state} lang={lang} /> : null}
        {state ? <CoachAgreement state={state} game={game} t={t} /> : null}
        {state ? <Coach state={state} game={game} t={t} /> : null}
        <div class={state ? "talk-layout" : undefined}>
        {state && obs ? (
          <entry.Table game={game} state={state} lang={lang} t={t} name={name} openRules={(card) => setRules({ card })} />
        ) : game.fatal ? null : (
          <p class="loading">{t("connecting")}</p>
        )}
        {state ? <TableTalk game={game} gameId={gameId} seat={seat} myName={seat === null ? remembered : null} t={t} /> : null}
        </div>
      </main>
      {naming ? <NameDialog initial={chosen ?? remembered ?? ""} rename={game.rename} onClose={() => setNaming(false)} t={t} /> : null}
      <Toasts toasts={seen.toasts} dismiss={seen.dismiss} t={t} />
      {rules ? (
        <RulesDialog game={gameName} lang={lang} card={rules.card} facts={game.cards} onClose={() => setRules(null)} t={t} />
      ) : null}
    </div>
    </SeenContext.Provider>
  );
}
