// The decision in front of the viewer: the server's question, a hint where to click, the clock,
// and every legal action as a button (a card's uses only, once a card with several is picked).
import { useEffect, useRef } from "preact/hooks";
import type { ApokalypseState } from "../protocol";
import { AnsweringHint, answeredForMe } from "../ui/AutoAnswer";
import { Choices, choicesOf } from "../ui/Choices";
import { Clock } from "../ui/Clock";
import { touchOnly } from "../ui/touch";
import { cardName } from "./Card";
import { useTable } from "./context";
import { canGoBack } from "./moves";

interface DecisionProps {
  state: ApokalypseState;
  arrived: number;
  pending: string | null;
  onCancel: () => void;
}

const HINT = {
  turn: "clickCard",
  "choose-target": "clickPlace",
  "place-seal": "clickPlace",
  "choose-gift": "clickHand",
  defence: "clickHand",
  "choose-recipient": "clickPlayer",
  "choose-victim": "clickPlayer",
  "choose-destination": "clickPlayer",
} as const;

// The hints where the page is used by touch alone: nothing there is clicked.
const TAP = { clickCard: "tapCard", clickPlace: "tapPlace", clickPlayer: "tapPlayer", clickHand: "tapHand" } as const;

export function Decision({ state, arrived, pending, onCancel }: DecisionProps) {
  const table = useTable();
  const { obs, t, facts, name } = table;
  const box = useRef<HTMLElement>(null);
  // A card with several uses was picked: its uses are the choices now, the first one focused,
  // so that the keyboard goes on right there.
  useEffect(() => {
    if (pending) box.current?.querySelector<HTMLButtonElement>("#choices button")?.focus();
  }, [pending]);
  if (obs.result) return null;
  const deciding = state.legal.length > 0;
  const clockView = state.clock ? <Clock clock={state.clock} arrived={arrived} name={name} me={obs.seat} t={t} /> : null;
  if (!deciding) {
    return (
      <section class="decision waiting" id="decision" data-deciding="no">
        <p class="question">{obs.to_act === null ? t("waitingPlayers") : t("waiting", { name: name(obs.to_act) })}</p>
        {clockView}
      </section>
    );
  }
  let choices = choicesOf(state.legal, state.text?.choices);
  const question = pending ? t("chooseUse", { card: cardName(pending, facts) }) : state.text?.question || t("yourDecision");
  // a card with several uses picked in the hand: its uses only
  if (pending) choices = choices.filter(({ legal }) => legal.card === pending);
  const click = obs.decision in HINT ? HINT[obs.decision as keyof typeof HINT] : null;
  const hint = click === null ? "" : t(touchOnly() ? TAP[click] : click);
  return (
    <section ref={box} class={`decision yours decision-${obs.decision}`} id="decision" data-deciding="yes" data-decision={obs.decision}>
      <h2 id="question" class="question">
        {question}
      </h2>
      {clockView}
      {answeredForMe(state) ? <AnsweringHint t={t} /> : !pending && hint ? <p class="hint">{hint}</p> : null}
      <Choices choices={choices} onChoose={table.act} t={t} />
      <div class="decision-tools">
        {pending ? (
          <button type="button" class="ghost" id="cancel-pick" onClick={onCancel}>
            {t("back")}
          </button>
        ) : null}
        {!pending && canGoBack(obs) ? (
          <button type="button" class="ghost" id="back" data-action="back" title={t("backHelp")} onClick={() => table.act("back")}>
            ↶ {t("back")}
          </button>
        ) : null}
      </div>
    </section>
  );
}
