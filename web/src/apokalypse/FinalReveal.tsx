// The end (R-END-3): every ethos turned over, each player's total, the winners, and why.
import type { ResultView } from "../wire/apokalypse";
import { ReplayLink } from "../replay/ReplayLink";
import { Icon } from "../ui/icons";
import { useTable } from "./context";

const CASE = { good: "resultGood", nobody: "resultNobody", evil: "resultEvil", "shared-ethos": "resultShared" } as const;

export function FinalReveal({ result }: { result: ResultView }) {
  const { t, name, obs } = useTable();
  const order = Array.from({ length: obs.players }, (_, q) => q).sort((a, b) => (result.totals[b] ?? 0) - (result.totals[a] ?? 0));
  return (
    <section class="final-reveal" id="final-reveal" data-case={result.case} aria-labelledby="final-title">
      <h2 id="final-title">
        {t("gameOver")} — {t("finalReveal")}
      </h2>
      <p class="verdict">{t(CASE[result.case], { good: result.good_populaces, evil: result.evil_populaces })}</p>
      <ol class="podium">
        {order.map((q) => {
          const ethos = result.ethos[q] ?? "good";
          const won = result.winners.includes(q);
          return (
            <li class={`reveal reveal-${ethos}${won ? " won" : ""}`} data-seat={q} data-ethos={ethos} data-winner={won ? "yes" : "no"}>
              <span class="reveal-card">
                <Icon name={ethos === "good" ? "halo" : "horns"} size={30} />
                <span>{t(ethos === "good" ? "ethosGood" : "ethosEvil")}</span>
              </span>
              <span class="reveal-name">{name(q)}</span>
              <span class="reveal-total">
                <strong>{result.totals[q] ?? 0}</strong> {t("totals")}
              </span>
              {won ? <span class="crown">★ {t("winner")}</span> : null}
            </li>
          );
        })}
      </ol>
      <p class="dim small">
        {t("winners")}: {result.winners.map(name).join(", ") || t("nobody")}
      </p>
      <ReplayLink seat={obs.seat} t={t} />
    </section>
  );
}
