// The Apokerlypse table for one viewer: round, cost, pot and bank, every player's chips and
// hand size, the viewer's poker hand (cards light up when an action uses them), the decision,
// the scoring and the end. Its observation differs from Apokalypse's (schema/apokerlypse).
import type { GameConnection } from "../game/useGame";
import type { Translate } from "../i18n";
import type { ApokerlypseAction, ApokerlypseState, CardFacts } from "../protocol";
import { ReplayLink } from "../replay/ReplayLink";
import { AnsweringHint, AutoAnswerToggle, answeredForMe } from "../ui/AutoAnswer";
import { Choices, choicesOf } from "../ui/Choices";
import { Clock } from "../ui/Clock";
import { Log } from "../ui/Log";
import { SeatControls, SeatDot } from "../ui/SeatControls";

interface PageProps {
  game: GameConnection;
  state: ApokerlypseState;
  t: Translate;
  name: (seat: number) => string;
}

const RED = new Set(["h", "d"]);

function PlayingCard({ code, facts }: { code: string; facts: Record<string, CardFacts> }) {
  const label = facts[code]?.name ?? code;
  const suit = code.slice(-1).toLowerCase();
  return (
    <span class={`playing-card${RED.has(suit) ? " red" : ""}`} data-code={code}>
      <span class="pc-corner">{label}</span>
      <span class="pc-suit">{label.slice(-1)}</span>
    </span>
  );
}

export function ApokerlypsePage({ game, state, t, name }: PageProps) {
  const obs = state.observation;
  const facts = game.cards;
  // The legal actions laid out from their parts: a card of the hand, or a player they name.
  const byCard = new Map<string, ApokerlypseAction[]>();
  const bySeat = new Map<number, ApokerlypseAction>();
  for (const action of state.legal) {
    if (action.seat !== undefined) bySeat.set(action.seat, action);
    if (action.card !== undefined) byCard.set(action.card, [...(byCard.get(action.card) ?? []), action]);
  }
  const deciding = state.legal.length > 0;
  const clock = state.clock;
  return (
    <div class="apokerlypse-table">
      <div class="main-column">
        {obs.result ? (
          <section class="final-reveal" id="final-reveal" aria-labelledby="final-title">
            <h2 id="final-title">{t("gameOver")}</h2>
            <p class="verdict">{obs.result.reason === "no-chips" ? t("reasonNoChips") : t("reasonNobodyCanPay")}</p>
            <ol class="podium">
              {Array.from({ length: obs.players }, (_, q) => q)
                .sort((a, b) => (obs.result?.chips[b] ?? 0) - (obs.result?.chips[a] ?? 0))
                .map((q) => (
                  <li class={`reveal${obs.result?.winners.includes(q) ? " won" : ""}`} data-seat={q} data-winner={obs.result?.winners.includes(q) ? "yes" : "no"}>
                    <span class="reveal-name">{name(q)}</span>
                    <span class="reveal-total">
                      <strong>{obs.result?.chips[q] ?? 0}</strong> {t("chips")}
                    </span>
                    {obs.result?.winners.includes(q) ? <span class="crown">★ {t("winner")}</span> : null}
                  </li>
                ))}
            </ol>
            <ReplayLink seat={obs.seat} t={t} />
          </section>
        ) : null}
        <section class="poker-status panel">
          <span class="stat" id="pot">
            <small>{t("pot")}</small>
            <strong>{obs.pot}</strong>
          </span>
          <span class="stat">
            <small>{t("bankChips")}</small>
            <strong>{obs.bank}</strong>
          </span>
          <span class="stat">
            <small>{t("round")}</small>
            <strong>{obs.round}</strong>
            {obs.last_round || obs.ends_after_round ? <em> {t("lastRound")}</em> : null}
          </span>
          <span class="stat">
            <small>{t("cost")}</small>
            <strong>{obs.cost}</strong>
          </span>
          <span class="stat">
            <small>{t("dealer")}</small>
            <strong>{name(obs.dealer)}</strong>
          </span>
          <span class="stat">
            <small>{t("drawPile")}</small>
            <strong>{obs.draw_pile}</strong>
          </span>
        </section>
        {!obs.result ? (
          <section class={`decision${deciding ? " yours" : " waiting"}`} id="decision" data-deciding={deciding ? "yes" : "no"}>
            <h2 class="question" id="question">
              {deciding ? state.text?.question || t("yourDecision") : obs.to_act === null ? t("waitingPlayers") : t("waiting", { name: name(obs.to_act) })}
            </h2>
            {clock ? <Clock clock={clock} arrived={game.arrived} name={name} me={obs.seat} t={t} /> : null}
            {answeredForMe(state) ? <AnsweringHint t={t} /> : null}
            {deciding ? <Choices choices={choicesOf(state.legal, state.text?.choices)} onChoose={game.act} t={t} /> : null}
          </section>
        ) : null}
        {obs.seat !== null && obs.hand !== undefined ? (
          <section class="my-corner" id="mine" aria-label={t("yourHand")}>
            <div class="hand-box">
              <h2 class="box-title">
                {t("yourHand")} <span class="count">{obs.hand.length}</span>
              </h2>
              <ul id="hand" class="hand poker-hand">
                {obs.hand.map((code) => {
                  const actions = byCard.get(code) ?? [];
                  const first = actions[0];
                  return (
                    <li>
                      <button
                        type="button"
                        class={`hand-card${first ? " target" : ""}`}
                        data-code={code}
                        data-actions={actions.map((a) => a.text).join("|")}
                        aria-label={facts[code]?.name ?? code}
                        onClick={() => first !== undefined && actions.length === 1 && game.act(first.text)}
                      >
                        <PlayingCard code={code} facts={facts} />
                      </button>
                    </li>
                  );
                })}
              </ul>
            </div>
          </section>
        ) : (
          <p class="spectator-note" id="spectator-note">
            {t("spectatorHelp")}
          </p>
        )}
      </div>
      <aside class="side-column">
        <SeatControls seat={obs.seat} seats={state.seats} over={Boolean(obs.result)} rematch={state.rematch} token={game.token} control={game.control} t={t} />
        <AutoAnswerToggle state={state} setAuto={game.setAuto} t={t} />
        <section class="panel players" aria-label={t("players")}>
          <h2 class="box-title">{t("players")}</h2>
          <table class="counts poker-players">
            <thead>
              <tr>
                <th scope="col">{t("player")}</th>
                <th scope="col">{t("chips")}</th>
                <th scope="col">{t("hand")}</th>
                <th scope="col">{t("inRound")}</th>
                <th scope="col">{t("faction")}</th>
              </tr>
            </thead>
            <tbody>
              {obs.chips.map((chips, q) => {
                const action = bySeat.get(q)?.text;
                return (
                  <tr data-seat={q} class={obs.to_act === q ? "deciding" : ""}>
                    <th scope="row">
                      <SeatDot status={state.seats?.[q]} t={t} />
                      {action ? (
                        <button type="button" class="link-button target" data-action={action} onClick={() => game.act(action)}>
                          {name(q)}
                        </button>
                      ) : (
                        name(q)
                      )}
                    </th>
                    <td class="num">{chips}</td>
                    <td class="num">{obs.hand_sizes[q]}</td>
                    <td>{obs.in_round[q] ? "✓" : t("out")}</td>
                    <td>{obs.factions[q] ? t(obs.factions[q]) : ""}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {obs.revealed.some((r) => r !== null) ? (
            <div class="revealed">
              {obs.revealed.map((cards, q) =>
                cards ? (
                  <div class="revealed-hand" data-seat={q}>
                    <span>
                      {name(q)}
                      {obs.scores[q] ? ` — ${obs.scores[q]?.category} ${obs.scores[q]?.total}` : ""}
                    </span>
                    <span class="mini-cards">
                      {cards.map((c) => (
                        <PlayingCard code={c} facts={facts} />
                      ))}
                    </span>
                  </div>
                ) : null,
              )}
            </div>
          ) : null}
        </section>
        <Log lines={game.log} events={game.logEvents} t={t} />
      </aside>
    </div>
  );
}
