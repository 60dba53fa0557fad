// The server answers for a person a defence (block) window's question they cannot but decline
// (their setting, on by default): the hint says so instead of asking them to click, and the
// seat's own toggle turns it off or on. Nobody else is told the setting, nor can tell an
// automatic answer from a chosen one.
import type { Translate } from "../i18n";
import type { StateMessage } from "../protocol";
import "./auto-answer.css";

const ANSWERS = new Set(["decline", "allow"]); // the verbs that answer a window's question

/** Whether the server is about to answer this seat's question for it. */
export function answeredForMe(state: StateMessage): boolean {
  const legal = state.legal;
  return state.auto === true && legal.length === 1 && ANSWERS.has(legal[0]?.verb ?? "");
}

export function AnsweringHint({ t }: { t: Translate }) {
  return (
    <p class="hint answering" id="answering" role="status">
      <span class="answering-dot" aria-hidden="true" />
      {t("answeringForYou")}
    </p>
  );
}

interface ToggleProps {
  state: StateMessage;
  setAuto: (on: boolean) => boolean;
  t: Translate;
}

export function AutoAnswerToggle({ state, setAuto, t }: ToggleProps) {
  if (state.auto === null || state.auto === undefined || state.observation.result) return null;
  return (
    <label class="check auto-answer" id="auto-answer" title={t("autoAnswerHelp")}>
      <input type="checkbox" id="auto-answer-on" checked={state.auto} onChange={(e) => setAuto((e.target as HTMLInputElement).checked)} />
      <span>{t("autoAnswer")}</span>
    </label>
  );
}
