// What a seated person can do about their seat: leave it to a computer player (after saying so
// in a dialog), take it back, and, once the game is over, ask for a rematch (then the link to
// the new game: the same invite key opens the same seat there; a spectator gets the rematch's
// watch link). And how the seat is told that it is its turn (ui/TurnSettings).
import { useState } from "preact/hooks";
import { useSeen } from "../game/seen";
import type { Translate } from "../i18n";
import type { Rematch, SeatStatus } from "../protocol";
import { gameLink } from "../storage";
import { Dialog } from "./Dialog";
import { NotifyMe } from "./NotifyMe";
import { TurnSettings } from "./TurnSettings";

interface SeatControlsProps {
  gameId: string;
  seat: number | null;
  seats: SeatStatus[] | undefined;
  over: boolean;
  rematch: Rematch | null | undefined;
  token: string | null;
  control: (type: "leave" | "reclaim" | "rematch") => void;
  t: Translate;
}

export function SeatControls({ gameId, seat, seats, over, rematch, token, control, t }: SeatControlsProps) {
  const [leaving, setLeaving] = useState(false);
  const turn = useSeen()?.turn;
  if (seat === null) {
    return rematch ? (
      <div class="seat-controls" id="seat-controls">
        <a id="rematch-link" class="button primary" href={gameLink(rematch.id)}>
          {t("rematchReady")} — {t("watchRematch")}
        </a>
      </div>
    ) : null;
  }
  const mine = seats?.[seat];
  return (
    <div class="seat-controls" id="seat-controls">
      {mine?.away ? <p class="away-note">{t("youAreAway")}</p> : null}
      {mine && !over && !mine.away ? (
        <button type="button" id="leave" class="ghost" onClick={() => setLeaving(true)}>
          {t("leave")}
        </button>
      ) : null}
      {mine?.away ? (
        <button type="button" id="reclaim" class="primary" onClick={() => control("reclaim")}>
          {t("reclaim")}
        </button>
      ) : null}
      {over && seats !== undefined && !rematch ? (
        <button type="button" id="rematch" class="primary" onClick={() => control("rematch")}>
          {t("rematch")}
        </button>
      ) : null}
      {rematch ? (
        <a id="rematch-link" class="button primary" href={gameLink(rematch.id, token ?? undefined)}>
          {t("rematchReady")} — {t("openRematch")}
        </a>
      ) : null}
      {turn && !over ? <TurnSettings settings={turn} t={t} /> : null}
      {token && !over ? <NotifyMe gameId={gameId} token={token} t={t} /> : null}
      {leaving ? (
        <Dialog id="leave-dialog" title={t("leaveTitle")} closeLabel={t("stay")} onClose={() => setLeaving(false)}>
          <p>{t("leaveText")}</p>
          <div class="dialog-actions">
            <button type="button" class="ghost" id="leave-stay" autoFocus onClick={() => setLeaving(false)}>
              {t("stay")}
            </button>
            <button
              type="button"
              class="primary"
              id="leave-confirm"
              onClick={() => {
                setLeaving(false);
                control("leave");
              }}
            >
              {t("leaveYes")}
            </button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}

/** A seat's state in a word and a coloured dot. */
export function SeatDot({ status, t }: { status: SeatStatus | undefined; t: Translate }) {
  if (status === undefined) return null;
  const [state, word] =
    status.kind !== "human"
      ? ["computer", `${t("seatComputer")} (${status.kind})`]
      : status.away
        ? ["away", t("seatAway")]
        : status.connected
          ? ["connected", t("seatConnected")]
          : ["offline", t("seatOffline")];
  return <span class={`seat-dot ${state}`} data-state={state} title={word} aria-label={word} role="img" />;
}
