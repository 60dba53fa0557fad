// A refused action: the server's reason (translated) and the rule that explains it.
import type { Translate } from "../i18n";
import type { RefusedMessage } from "../protocol";

export function Refusal({ refusal, onDismiss, t }: { refusal: RefusedMessage; onDismiss: () => void; t: Translate }) {
  return (
    <div id="refusal" class="refusal" role="alert" data-rule={refusal.rule ?? ""}>
      <strong>{t("refused")}</strong>
      {refusal.rule ? (
        <span class="rule-id" title={t("rule")}>
          {refusal.rule}
        </span>
      ) : null}
      <span class="reason">{refusal.reason}</span>
      <button type="button" class="icon-button" aria-label={t("dismiss")} onClick={onDismiss}>
        ✕
      </button>
    </div>
  );
}
