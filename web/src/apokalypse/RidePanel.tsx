// A horseman's ride as one panel, shown when it happens (and again from the "last ride" button):
// per player the protection counted, the dead, the reckoning, the rewards and why.
import { Dialog } from "../ui/Dialog";
import { Icon } from "../ui/icons";
import { HORSEMAN_VP } from "./cardLook";
import { horsemanTitle, useTable } from "./context";
import { signed } from "./Display";
import type { Ride, RideSide } from "./rides";

function SideCell({ side }: { side: RideSide | undefined }) {
  if (!side) return <span class="dim">–</span>;
  return (
    <span>
      {side.populaces} · {side.protection}
      {side.passed ? <span class="dim"> (+{side.passed})</span> : null}
      {side.dead ? <span class="dead"> ✝{side.dead}</span> : null}
    </span>
  );
}

export function RidePanel({ ride, onClose }: { ride: Ride; onClose: () => void }) {
  const { t, name, obs } = useTable();
  const best = ride.scores.length ? Math.max(...ride.scores) : 0;
  const title = t("rides", { horseman: horsemanTitle(t, ride.number) });
  return (
    <Dialog id="ride-panel" title={title} onClose={onClose} closeLabel={t("close")} wide data={{ horseman: String(ride.number) }}>
      <div class="ride-banner" data-horseman={ride.number}>
        <Icon name={ride.number === 4 ? "skull" : "horse"} size={46} />
        <span>{title}</span>
      </div>
      <p class="dim small">{t("rideLegend")}</p>
      <table class="ride-table">
        <thead>
          <tr>
            <th scope="col">{t("player")}</th>
            <th scope="col" class="good">{t("good")}</th>
            <th scope="col" class="evil">{t("evil")}</th>
            <th scope="col">{t("score")}</th>
            <th scope="col">{t("reward")}</th>
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: obs.players }, (_, q) => (
            <tr data-seat={q} class={ride.cardTo.includes(q) ? "rewarded" : ""}>
              <th scope="row">{name(q)}</th>
              <td class="good">
                <SideCell side={ride.sides[q]?.good} />
              </td>
              <td class="evil">
                <SideCell side={ride.sides[q]?.evil} />
              </td>
              <td class="num">{ride.scores[q] === undefined ? "–" : signed(ride.scores[q] ?? 0)}</td>
              <td>
                {ride.cardTo.includes(q) ? t("horsemanCard", { n: ride.number, vp: HORSEMAN_VP[ride.number] ?? 0 }) : ""}
                {ride.sealsTo.includes(q) ? (
                  <span class="seal-chip">
                    <Icon name="seal" size={14} /> {t("seal")}
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{ride.cardTo.length ? t("cardWhy", { score: signed(best) }) : t("noCard", { score: signed(best) })}</p>
      {ride.sealsTo.length || ride.sealPopulaces ? (
        <p>{t("sealAward", { populaces: ride.sealPopulaces, seats: ride.sealsTo.map(name).join(", ") || t("nobody") })}</p>
      ) : null}
      {ride.over ? <p class="strong">{t("lastRide")}</p> : null}
      <div class="dialog-actions">
        <button type="button" class="primary" id="ride-continue" autofocus onClick={onClose}>
          {t("continue")}
        </button>
      </div>
    </Dialog>
  );
}
