// The viewer's own corner: their ethos card, their hand (cards light up when an action uses
// them), what they know of other hands, and the card chosen in an unfinished two-step decision.
import { Icon } from "../ui/icons";
import { CardFace, cardName } from "./Card";
import { useTable } from "./context";
import { cardQuestions } from "./moves";

interface HandProps {
  pending: string | null; // a card whose uses are being chosen
  onPick: (code: string) => void;
}

export function Hand({ pending, onPick }: HandProps) {
  const table = useTable();
  const { obs, moves, t, facts } = table;
  const hand = obs.hand ?? [];
  return (
    <section class="my-corner" id="mine" aria-label={t("yourHand")}>
      {obs.ethos ? <EthosCard ethos={obs.ethos} /> : null}
      <div class="hand-box">
        <h2 class="box-title">
          {t("yourHand")} <span class="count">{hand.length}</span>
        </h2>
        <ul id="hand" class="hand">
          {hand.map((code, i) => {
            const actions = moves.hand.get(code) ?? [];
            const live = actions.length > 0;
            return (
              <li key={`${code}-${i}`}>
                <button
                  type="button"
                  class={`hand-card${live ? " target" : ""}${pending === code ? " picked" : ""}`}
                  data-code={code}
                  data-actions={actions.map((a) => a.text).join("|")}
                  aria-label={`${cardName(code, facts)}${facts[code]?.about ? ` — ${facts[code]?.about}` : ""}`}
                  aria-pressed={pending === code}
                  onMouseEnter={() => table.inspect(code)}
                  onFocus={() => table.inspect(code)}
                  onClick={() => {
                    table.inspect(code);
                    if (live) onPick(code);
                    else table.ask(cardQuestions(obs, code, facts[code]?.uses ?? [], table.deciding)); // why not?
                  }}
                >
                  <CardFace code={code} facts={facts} size="hand" />
                </button>
              </li>
            );
          })}
          {hand.length === 0 ? <li class="empty">{t("emptyHand")}</li> : null}
        </ul>
        {obs.choice ? (
          <p class="picked-card">
            ▸ <CardName code={obs.choice.code} />
          </p>
        ) : null}
        {Object.entries(obs.known ?? {}).map(([holder, codes]) => (
          <p class="known">
            {t("known", { name: /^p\d+$/.test(holder) ? table.name(Number(holder.slice(1)) - 1) : holder })}: {(codes ?? []).map((c) => cardName(c, facts)).join(", ")}
          </p>
        ))}
      </div>
    </section>
  );
}

function CardName({ code }: { code: string }) {
  const { facts } = useTable();
  return <strong>{cardName(code, facts)}</strong>;
}

export function EthosCard({ ethos }: { ethos: "good" | "evil" }) {
  const { t } = useTable();
  return (
    <div id="ethos" class={`ethos ethos-${ethos}`} data-ethos={ethos} title={t(ethos === "good" ? "ethosHelpGood" : "ethosHelpEvil")}>
      <span class="ethos-label">{t("yourEthos")}</span>
      <Icon name={ethos === "good" ? "halo" : "horns"} size={34} />
      <strong>{t(ethos === "good" ? "ethosGood" : "ethosEvil")}</strong>
    </div>
  );
}
