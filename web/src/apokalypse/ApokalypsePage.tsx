// The Apokalypse table for one viewer: the decision, every display, the viewer's hand and ethos,
// the players, decks, forecast and log; a horseman's ride as a panel when it happens; the final
// reveal at the end. What is legal is always the server's list; this only lays it onto the table.
import { useEffect, useLayoutEffect, useMemo, useState } from "preact/hooks";
import type { GameConnection } from "../game/useGame";
import type { Translate } from "../i18n";
import type { ApokalypseState, Lang } from "../protocol";
import { useFitText } from "../ui/fitText";
import { Log } from "../ui/Log";
import { AutoAnswerToggle } from "../ui/AutoAnswer";
import { SeatControls } from "../ui/SeatControls";
import { WhyNot } from "../ui/WhyNot";
import { CardHelp } from "./CardHelp";
import { TableContext, type Table } from "./context";
import { Decision } from "./Decision";
import { Display } from "./Display";
import { FinalReveal } from "./FinalReveal";
import { ForecastPanel } from "./Forecast";
import { Hand } from "./Hand";
import { layMoves } from "./moves";
import { Players } from "./Players";
import { readRides } from "./rides";
import { RidePanel } from "./RidePanel";
import { TableInfo } from "./TableInfo";

interface PageProps {
  game: GameConnection;
  state: ApokalypseState;
  lang: Lang;
  t: Translate;
  name: (seat: number) => string;
  openRules: (card?: string) => void;
}

export function ApokalypsePage({ game, state, lang, t, name, openRules }: PageProps) {
  const obs = state.observation;
  const [pending, setPending] = useState<string | null>(null);
  const [inspected, setInspected] = useState<string | null>(null);
  const rides = useMemo(() => readRides(game.events), [game.events]);
  const [shownRide, setShownRide] = useState<number | null>(null); // index into rides
  const [seenRides, setSeenRides] = useState(-1);

  // A ride that happens while the page is open opens its panel; rides from before (the first
  // message after connecting resends the whole game) stay behind the "last ride" button.
  // Opened in the frame the ride arrives (a layout effect), not one later over a click meant
  // for the table.
  useLayoutEffect(() => {
    const fresh = rides.filter((r) => r.index >= game.firstBatch);
    const newest = rides.length - 1;
    if (fresh.length > 0 && newest > seenRides) setShownRide(newest);
    setSeenRides(newest);
  }, [rides.length, game.firstBatch]);

  useEffect(() => setPending(null), [obs.move]);

  useFitText();
  const moves = useMemo(() => layMoves(obs, state.legal), [obs, state.legal]);
  const table: Table = {
    obs,
    forecast: state.forecast ?? null,
    facts: game.cards,
    moves,
    name,
    t,
    lang,
    act: (action) => {
      setPending(null);
      game.dismissWhy();
      game.act(action);
    },
    ask: (actions) => game.ask(actions),
    deciding: state.legal.length > 0,
    inspect: setInspected,
    openRules,
  };

  const pick = (code: string) => {
    game.dismissWhy(); // a card that can be used: no longer a question of why not
    const actions = moves.hand.get(code) ?? [];
    if (actions.length === 1 && actions[0] !== undefined) table.act(actions[0].text);
    else setPending(code);
  };

  const ride = shownRide === null ? undefined : rides[shownRide];
  return (
    <TableContext.Provider value={table}>
      <div class="apokalypse-table">
        <div class="main-column">
          {obs.result ? <FinalReveal result={obs.result} /> : null}
          <Decision state={state} arrived={game.arrived} pending={pending} onCancel={() => setPending(null)} />
          {obs.seat !== null && obs.hand !== undefined ? (
            <Hand pending={pending} onPick={pick} />
          ) : (
            <p class="spectator-note" id="spectator-note">
              {t("spectatorHelp")}
            </p>
          )}
          {game.why && game.why.move === obs.move ? <WhyNot why={game.why} onDismiss={game.dismissWhy} t={t} /> : null}
          <CardHelp code={inspected} />
          <section class="displays" id="displays" aria-label={t("display")}>
            {obs.displays.map((display, q) => (
              <Display seat={q} display={display} />
            ))}
          </section>
        </div>
        <aside class="side-column">
          <SeatControls gameId={game.gameId} seat={obs.seat} seats={state.seats} over={Boolean(obs.result)} rematch={state.rematch} token={game.token} control={game.control} t={t} />
          <AutoAnswerToggle state={state} setAuto={game.setAuto} t={t} />
          <Players seats={state.seats} />
          <TableInfo />
          {rides.length > 0 ? (
            <button type="button" class="ghost wide" id="last-ride" onClick={() => setShownRide(rides.length - 1)}>
              {t("lastRideButton")}: {t(`horseman${Math.min(4, rides[rides.length - 1]?.number ?? 1)}` as "horseman1")}
            </button>
          ) : null}
          <ForecastPanel />
          <Log lines={game.log} events={game.logEvents} t={t} />
        </aside>
      </div>
      {ride ? <RidePanel ride={ride} onClose={() => setShownRide(null)} /> : null}
    </TableContext.Provider>
  );
}
