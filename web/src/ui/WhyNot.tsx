// Why not: the server's answers to "would this be refused now, and why?" for a card, place or
// player that lights up nothing. The same reasons, in the same words and with the same rule id,
// as a refused action; nothing is sent to be played.
import type { Translate } from "../i18n";
import type { WhyAnswers } from "../game/useGame";
import "./why-not.css";

export function WhyNot({ why, onDismiss, t }: { why: WhyAnswers; onDismiss: () => void; t: Translate }) {
  // one line per distinct reason (a card's uses may be refused for the same one)
  const lines = why.answers.filter((a, i) => why.answers.findIndex((b) => b.reason === a.reason) === i);
  return (
    <div id="why-not" class="why-not" role="status" aria-live="polite" aria-busy={lines.length === 0} data-rule={lines.find((a) => a.rule)?.rule ?? ""}>
      <strong class="why-title">{t("whyNot")}</strong>
      <ul class="why-reasons">
        {lines.length === 0 ? <li class="why-waiting">{t("loading")}</li> : null}
        {lines.map((answer) => (
          <li data-rule={answer.rule ?? ""} data-allowed={answer.allowed ? "yes" : "no"} data-action={answer.action}>
            {answer.rule ? (
              <span class="rule-id" title={t("rule")}>
                {answer.rule}
              </span>
            ) : null}
            <span class="reason">{answer.reason}</span>
          </li>
        ))}
      </ul>
      <button type="button" class="icon-button" aria-label={t("dismiss")} onClick={onDismiss}>
        ✕
      </button>
    </div>
  );
}
