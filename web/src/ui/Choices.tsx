// The decision as the server words it: its question and one button per legal action (the
// terminal's own sentences), in a fixed grid so that buttons do not jump about between moves.
import type { Translate } from "../i18n";

export interface Choice {
  action: string;
  label: string;
}

interface ChoicesProps {
  choices: Choice[];
  onChoose: (action: string) => void;
  t: Translate;
}

export function choicesOf(legal: readonly string[], labels: readonly string[] | undefined): Choice[] {
  return legal.map((action, i) => ({ action, label: labels?.[i] || action }));
}

export function Choices({ choices, onChoose, t }: ChoicesProps) {
  return (
    <div id="choices" class="choices" role="group" aria-label={t("choices")}>
      {choices.map(({ action, label }) => (
        <button
          type="button"
          class={`choice${action === "pass" || action === "decline" || action === "drop" ? " quiet" : ""}`}
          data-action={action}
          onClick={() => onChoose(action)}
        >
          <span class="label">{label}</span>
          <code class="notation">{action}</code>
        </button>
      ))}
    </div>
  );
}
