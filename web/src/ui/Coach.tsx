// The coach: "What would the expert do?" asks the server's searching player (the expert level)
// about this seat's decision, from what this seat knows; its best candidates come back with the
// choice worded as the choices are, the share of its search and a one-line reason, and each can
// be lit on the table (the places and cards whose action it is). The learner still moves.
// In a game whose creator offered the coach to everybody, the bar asks this person to agree.
import { useEffect, useState } from "preact/hooks";
import type { GameConnection } from "../game/useGame";
import type { Translate } from "../i18n";
import type { AdviceCandidate, StateMessage } from "../protocol";
import "./coach.css";
import { useTableMark } from "./marks";

const MARK = "coach-mark";

export function CoachAgreement({ state, game, t }: { state: StateMessage; game: GameConnection; t: Translate }) {
  const coach = state.coach;
  const others = state.seats.some((s) => s.kind === "human" && s.seat !== state.seat);
  if (!coach || !coach.offered || !others || state.observation.result) return null;
  return (
    <div class="coach-agreement" id="coach-agreement" data-agreed={coach.agreed ? "yes" : "no"}>
      <span>{coach.agreed ? t("coachAgreed") : t("coachOffered")}</span>
      {coach.agreed && !coach.available && coach.reason ? <span class="dim">{coach.reason}</span> : null}
      <button type="button" class={coach.agreed ? "ghost" : "primary"} id="coach-agree" onClick={() => game.agreeCoach(!coach.agreed)}>
        {coach.agreed ? t("coachWithdraw") : t("coachAgree")}
      </button>
    </div>
  );
}

export function Coach({ state, game, t }: { state: StateMessage; game: GameConnection; t: Translate }) {
  const [shown, setShown] = useState<string | null>(null);
  const advice = game.advice;
  const move = state.observation.move;
  const current = advice !== null && advice.move === move ? advice : null;
  useEffect(() => setShown(current?.candidates[0]?.action ?? null), [current]);
  // The candidate shown is lit on the table, and the first place that makes it scrolled into view.
  useTableMark(MARK, current ? shown : null, (first) => first.scrollIntoView?.({ block: "nearest", behavior: "smooth" }));
  if (!state.coach?.available || state.legal.length === 0 || state.observation.result) return null;
  return (
    <section class="coach" id="coach" aria-live="polite" data-state={game.asking ? "thinking" : current ? "advised" : "idle"}>
      {current === null ? (
        <button type="button" class="ghost coach-ask" id="coach-ask" disabled={game.asking} onClick={() => game.advise()}>
          {game.asking ? (
            <>
              <span class="coach-spinner" aria-hidden="true" /> {t("coachThinking")}
            </>
          ) : (
            t("coachButton")
          )}
        </button>
      ) : (
        <>
          <div class="coach-head">
            <strong>{t("coachTitle")}</strong>
            <span class="dim">{t("coachNote")}</span>
          </div>
          <p class="dim coach-order" id="coach-order">
            {t("coachOrder")}
          </p>
          <ol class="coach-candidates">
            {current.candidates.map((c: AdviceCandidate) => (
              <li class={`coach-candidate${shown === c.action ? " shown" : ""}`} data-coach-action={c.action}>
                <button type="button" class="coach-pick" aria-pressed={shown === c.action} title={t("coachShow")} onClick={() => setShown(c.action)}>
                  <span class="coach-choice">{c.choice}</span>
                  <span class="coach-share">
                    <span class="coach-bar" style={{ width: `${Math.round(c.share * 100)}%` }} />
                    <span class="coach-share-text">{t("coachShare", { share: Math.round(c.share * 100) })}</span>
                  </span>
                  <span class="coach-reason">{c.reason}</span>
                  <code class="coach-notation">{c.action}</code>
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
