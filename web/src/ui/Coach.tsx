// The coach: "What would the expert do?" asks the server's searching player (the expert level)
// about this seat's decision, from what this seat knows; its best candidates come back with the
// choice worded as the choices are, the share of its search and a one-line reason, and each can
// be lit on the table (the places and cards whose action it is). The learner still moves.
// In a game whose creator offered the coach to everybody, the bar asks this person to agree.
import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import type { GameConnection } from "../game/useGame";
import type { Translate } from "../i18n";
import type { AdviceCandidate, StateMessage } from "../protocol";
import "./coach.css";

const MARK = "coach-mark";

/** The table's elements that make `action`: a place or a player (`data-action`), a hand card
 * (`data-actions`, every action that plays it), a choice button. */
function lit(action: string): Element[] {
  return [...document.querySelectorAll("[data-action], [data-actions]")].filter((el) => {
    if (el.closest("#tutor")) return false; // the guided game's own words, not the table
    const one = el.getAttribute("data-action");
    const many = el.getAttribute("data-actions");
    return one === action || (many !== null && many.split("|").includes(action));
  });
}

function useMarks(action: string | null): void {
  // A layout effect: the marks move in the same frame as the candidate shown, never a frame late.
  useLayoutEffect(() => {
    if (action === null) return;
    const marked = lit(action);
    for (const el of marked) el.classList.add(MARK);
    marked[0]?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
    return () => {
      for (const el of marked) el.classList.remove(MARK);
    };
  });
}

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
  useMarks(current ? shown : null);
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
