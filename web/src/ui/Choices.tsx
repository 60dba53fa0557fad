// The decision as the server words it: its question and one button per legal action (the
// terminal's own sentences), in a fixed grid so that buttons do not jump about between moves.
import type { Translate } from "../i18n";
import type { LegalAction } from "../protocol";

export interface Choice<L extends LegalAction = LegalAction> {
  legal: L; // the action: its text (sent back when chosen) and its parts
  label: string; // what it does, in the game's language
}

interface ChoicesProps {
  choices: Choice[];
  onChoose: (action: string) => void;
  t: Translate;
}

/** The legal actions with the server's wording of each (`text.choices`, in the same order). */
export function choicesOf<L extends LegalAction>(legal: readonly L[], labels: readonly string[] | undefined): Choice<L>[] {
  return legal.map((action, i) => ({ legal: action, label: labels?.[i] || action.text }));
}

// Declining to do anything: drawn quieter than the choices that do something.
const QUIET: ReadonlySet<string> = new Set(["pass", "decline", "drop"]);

export function Choices({ choices, onChoose, t }: ChoicesProps) {
  return (
    <div id="choices" class="choices" role="group" aria-label={t("choices")}>
      {choices.map(({ legal, label }) => (
        <button
          type="button"
          class={`choice${QUIET.has(legal.verb) ? " quiet" : ""}`}
          data-action={legal.text}
          data-verb={legal.verb}
          onClick={() => onChoose(legal.text)}
        >
          <span class="label">{label}</span>
          <code class="notation">{legal.text}</code>
        </button>
      ))}
    </div>
  );
}
