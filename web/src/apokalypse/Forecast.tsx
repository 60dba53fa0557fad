// The forecast (public, the same for every viewer): per display and side how many populaces the
// next horseman would leave alive if it rode now, the protection passed from the good side, the
// reckoning it would give, what Death would kill; and the count of good and evil populaces.
import type { WordKey } from "../i18n";
import type { Forecast, SideForecast } from "../protocol";
import { Icon } from "../ui/icons";
import { HORSEMAN_ICON, ICON_WORD } from "./cardLook";
import { horsemanTitle, useTable } from "./context";
import { signed } from "./Display";

/** Who holds the majority that decides the end, as the server's forecast says by the game's
 * variants (under V-GOOD-TIES a tie counts for the good). */
const LEAD: Record<Forecast["lead"], WordKey> = {
  good: "goodLead",
  evil: "evilLead",
  "good-tie": "goodTieLead",
  "evil-more": "evilMoreLead",
};

/** One side: populaces left of all, the dead, and the protection counted (+ passed on). */
function Side({ side }: { side: SideForecast }) {
  const { t } = useTable();
  if (side.populaces === 0) return <span class="dim">–</span>;
  const dead = side.dead;
  return (
    <span>
      {side.populaces - dead}/{side.populaces}
      {/* the spaces between the parts, outside them: where a narrow column breaks the line */}
      {dead ? " " : null}
      {dead ? <span class="dead">✝{dead}</span> : null}{" "}
      <span class="protection" title={`${t("protection")}${side.passed ? ` (${side.passed} ${t("passedOn")})` : ""}`}>
        <Icon name="shield" size={11} />
        {side.protection}
      </span>
    </span>
  );
}

export function ForecastPanel() {
  const { forecast, t, name, obs } = useTable();
  if (!forecast || obs.result) return null;
  const icon = HORSEMAN_ICON[forecast.horseman];
  const lead = LEAD[forecast.lead];
  return (
    <section class="panel forecast" id="forecast" aria-label={t("forecast")}>
      <h2 class="box-title">
        <Icon name="horse" size={16} /> {t("forecastTitle", { horseman: horsemanTitle(t, forecast.horseman) })}
      </h2>
      <p class="dim small">
        {icon ? <Icon name={icon} size={14} /> : null} {icon ? t("forecastProtects", { icon: t(ICON_WORD[icon]) }) : t("forecastProtectsAll")}
      </p>
      <p class="dim small">{t("forecastLegend")}</p>
      <table class="forecast-table">
        <thead>
          <tr>
            <th scope="col">{t("player")}</th>
            <th scope="col" class="good">
              {t("good")} {t("safe")}
            </th>
            <th scope="col" class="evil">
              {t("evil")} {t("safe")}
            </th>
            <th scope="col">{t("reckoning")}</th>
            <th scope="col">{t("ifDeath")}</th>
          </tr>
        </thead>
        <tbody>
          {forecast.displays.map((d) => {
            const score = d.next.score;
            const death = d.death.good.dead + d.death.evil.dead;
            return (
              <tr data-seat={d.seat}>
                <th scope="row">{name(d.seat)}</th>
                <td class="good">
                  <Side side={d.next.good} />
                </td>
                <td class="evil">
                  <Side side={d.next.evil} />
                </td>
                <td class="num">{signed(score)}</td>
                <td class="num">{death ? <span class="dead">✝{death}</span> : "–"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p class="majority">
        <span class="good">{t("good")} {forecast.good_populaces}</span> · <span class="evil">{t("evil")} {forecast.evil_populaces}</span> — {t(lead)}
      </p>
    </section>
  );
}
