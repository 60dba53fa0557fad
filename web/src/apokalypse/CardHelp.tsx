// Per-card help: the card last pointed at, focused or clicked, with what it does (the server's
// card facts) and a button for its full rules.
import { touchOnly } from "../ui/touch";
import { cardName } from "./Card";
import { useTable } from "./context";

export function CardHelp({ code }: { code: string | null }) {
  const { facts, t, openRules } = useTable();
  if (code === null || code === "populace" || !facts[code]) {
    return (
      <div class="card-help empty" id="card-help" aria-live="polite">
        {t(touchOnly() ? "cardHelpHintTouch" : "cardHelpHint")}
      </div>
    );
  }
  return (
    <div class="card-help" id="card-help" aria-live="polite" data-code={code}>
      <strong>{cardName(code, facts)}</strong>
      <span>{facts[code]?.about}</span>
      <button type="button" class="link-button" onClick={() => openRules(code)}>
        {t("rules")} ›
      </button>
    </div>
  );
}
