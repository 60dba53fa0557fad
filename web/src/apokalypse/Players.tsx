// Every player at a glance: seat status, the B and K cards in hand (public counts), points so
// far (reckonings + horseman cards), horseman cards owned, who passed, starts or decides.
// A player an action names (give to, steal from, move to) is a button here too.
import type { SeatStatus } from "../protocol";
import { Icon } from "../ui/icons";
import { SeatDot } from "../ui/SeatControls";
import { HORSEMAN_VP } from "./cardLook";
import { useTable } from "./context";
import { playerQuestion } from "./moves";

export function Players({ seats }: { seats: SeatStatus[] | undefined }) {
  const table = useTable();
  const { obs, t, forecast, moves } = table;
  return (
    <section class="panel players" aria-label={t("players")}>
      <h2 class="box-title">{t("players")}</h2>
      <ul class="player-list">
        {obs.hand_counts.map(([b = 0, k = 0], q) => {
          const total = forecast?.totals[q] ?? obs.scores.reduce((sum, row) => sum + (row[q] ?? 0), 0) + (obs.horseman_cards[q] ?? []).reduce((s, h) => s + (HORSEMAN_VP[h] ?? 0), 0);
          const action = moves.seats.get(q)?.text;
          // a player my step names but who is not a legal choice: a click asks why not
          const question = action === undefined && table.deciding ? playerQuestion(obs, q) : null;
          const deciding = obs.to_act === q && !obs.result;
          const body = (
            <>
              <span class="player-name">
                <SeatDot status={seats?.[q]} t={t} />
                {table.name(q)}
              </span>
              <span class="backs" title={`${t("handCounts")}: ${b} B · ${k} K`}>
                <span class="back-chip b">B {b}</span>
                <span class="back-chip k">K {k}</span>
              </span>
              <span class="points" title={t("totals")}>
                {total} <small>{t("totals")}</small>
              </span>
              <span class="horsemen" title={t("horsemanCards")}>
                {(obs.horseman_cards[q] ?? []).map((h) => (
                  <span class="horseman-chip">
                    <Icon name="horse" size={12} />
                    {h}
                  </span>
                ))}
              </span>
              <span class="marks">
                {deciding ? <span class="mark deciding">{t("deciding")}</span> : null}
                {!obs.result && obs.passed[q] ? <span class="mark passed">{t("passed")}</span> : null}
                {!obs.result && obs.startup === q ? <span class="mark startup">{t("startup")}</span> : null}
              </span>
            </>
          );
          return (
            <li class={`player${deciding ? " deciding" : ""}${obs.seat === q ? " me" : ""}`} data-seat={q}>
              {action ? (
                <button type="button" class="player-row target" data-action={action} onClick={() => table.act(action)}>
                  {body}
                </button>
              ) : question !== null ? (
                <button type="button" class="player-row why" data-why={question} onClick={() => table.ask([question])}>
                  {body}
                </button>
              ) : (
                <div class="player-row">{body}</div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
