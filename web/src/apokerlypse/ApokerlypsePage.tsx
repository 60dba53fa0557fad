// The Apokerlypse table for one viewer: round, cost, pot and bank, every player's chips and
// hand size, the viewer's poker hand (cards light up when an action uses them) with each card's
// effect and the viewer's faction ability (the content's, as the server words them), the
// decision, the scoring and the end. Its observation differs from Apokalypse's
// (schema/apokerlypse).
import { useLayoutEffect, useState } from "preact/hooks";
import type { GameConnection } from "../game/useGame";
import type { Translate } from "../i18n";
import type { ApokerlypseAction, ApokerlypseCardFacts, ApokerlypseObservation, ApokerlypseState, CardFacts } from "../protocol";
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
  openRules: (card?: string) => void; // the rules dialog, at a card's help
}

const RED = new Set(["h", "d"]);

export function PlayingCard({ code, facts }: { code: string; facts: Record<string, CardFacts> }) {
  const label = facts[code]?.name ?? code;
  const suit = code.slice(-1).toLowerCase();
  return (
    <span class={`playing-card${RED.has(suit) ? " red" : ""}`} data-code={code}>
      <span class="pc-corner">{label}</span>
      <span class="pc-suit">{label.slice(-1)}</span>
    </span>
  );
}

type Result = NonNullable<ApokerlypseObservation["result"]>;
type Score = NonNullable<ApokerlypseObservation["scores"][number]>;

/** Why the game ended, naming who ran out of chips (K-END-1) as the game-over event does. */
function endReason(result: Result, t: Translate, name: (seat: number) => string): string {
  if (result.reason !== "no-chips") return t("reasonNobodyCanPay");
  const broke = result.broke ?? [];
  return broke.length ? t("reasonNoChipsNamed", { names: broke.map(name).join(", "), rounds: result.rounds }) : t("reasonNoChips");
}

/** A scored hand: its category and its points, so that "pair" and "4" do not read as a pair of
 * fours (K-SCORE-2/3: the total is base points + card bonus, times any multiplier). */
function handValue(score: Score, t: Translate): string {
  const category = t(score.category);
  return score.total === 1 ? t("handValueOne", { category }) : t("handValue", { category, total: score.total });
}

export function ApokerlypsePage({ game, state, t, name, openRules }: PageProps) {
  // A hand card with several uses (discard it, or use its effect) was clicked: its uses are the
  // choices until one is taken or the pick is cancelled. A new state drops the pick in the same
  // frame (a layout effect), so a stale pick never filters the next decision's choices.
  const [picked, setPicked] = useState<string | null>(null);
  useLayoutEffect(() => setPicked(null), [state]);
  const obs = state.observation;
  const facts = game.cards;
  const about: Record<string, ApokerlypseCardFacts | undefined> = game.cards;
  const faction = obs.seat !== null ? obs.factions[obs.seat] : undefined;
  const ability = faction ? about[faction] : undefined;
  // The legal actions laid out from their parts: a card of the hand, or a player they name.
  const byCard = new Map<string, ApokerlypseAction[]>();
  const bySeat = new Map<number, ApokerlypseAction>();
  for (const action of state.legal) {
    if (action.seat !== undefined) bySeat.set(action.seat, action);
    if (action.card !== undefined) byCard.set(action.card, [...(byCard.get(action.card) ?? []), action]);
  }
  const deciding = state.legal.length > 0;
  const clock = state.clock;
  const pending = picked !== null && (byCard.get(picked)?.length ?? 0) > 1 ? picked : null;
  let choices = choicesOf(state.legal, state.text?.choices);
  if (pending) choices = choices.filter(({ legal }) => legal.card === pending);
  return (
    <div class="apokerlypse-table">
      <div class="main-column">
        {obs.result ? (
          <section class="final-reveal" id="final-reveal" aria-labelledby="final-title">
            <h2 id="final-title">{t("gameOver")}</h2>
            <p class="verdict" id="end-reason">
              {endReason(obs.result, t, name)}
            </p>
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
              {pending
                ? t("chooseUse", { card: facts[pending]?.name ?? pending })
                : deciding
                  ? state.text?.question || t("yourDecision")
                  : obs.to_act === null ? t("waitingPlayers") : t("waiting", { name: name(obs.to_act) })}
            </h2>
            {clock ? <Clock clock={clock} arrived={game.arrived} name={name} me={obs.seat} t={t} /> : null}
            {answeredForMe(state) ? <AnsweringHint t={t} /> : null}
            {deciding ? <Choices choices={choices} onChoose={game.act} t={t} /> : null}
            {pending ? (
              <div class="decision-tools">
                <button type="button" class="ghost" id="cancel-pick" onClick={() => setPicked(null)}>
                  {t("back")}
                </button>
              </div>
            ) : null}
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
                  const effect = about[code]?.about ?? "";
                  const used = obs.used.includes(code);
                  return (
                    <li class="poker-slot">
                      <button
                        type="button"
                        class={`hand-card${first ? " target" : ""}`}
                        data-code={code}
                        data-actions={actions.map((a) => a.text).join("|")}
                        aria-label={effect ? `${facts[code]?.name ?? code}: ${effect}` : (facts[code]?.name ?? code)}
                        title={effect || undefined}
                        aria-pressed={pending === code}
                        onClick={() => {
                          if (first === undefined) return;
                          if (actions.length === 1) game.act(first.text);
                          else setPicked(code);
                        }}
                      >
                        <PlayingCard code={code} facts={facts} />
                      </button>
                      {effect ? (
                        <button type="button" class={`pc-effect${used ? " used" : ""}`} data-code={code} title={t("cardHelp")} onClick={() => openRules(code)}>
                          {effect}
                        </button>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
              {faction && ability?.about ? (
                <p class="faction-ability" id="faction-ability" data-faction={faction}>
                  <strong>{ability.name}</strong> — {ability.about}
                </p>
              ) : null}
            </div>
          </section>
        ) : (
          <p class="spectator-note" id="spectator-note">
            {t("spectatorHelp")}
          </p>
        )}
      </div>
      <aside class="side-column">
        <SeatControls gameId={game.gameId} seat={obs.seat} seats={state.seats} over={Boolean(obs.result)} rematch={state.rematch} token={game.token} control={game.control} t={t} />
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
                <th scope="col" title={t("factionHelp")}>
                  {t("faction")}
                </th>
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
          <p class="dim small faction-help" id="faction-help">
            {t("factionHelp")}
          </p>
          {obs.revealed.some((r) => r !== null) ? (
            <div class="revealed">
              {obs.revealed.map((cards, q) =>
                cards ? (
                  <div class="revealed-hand" data-seat={q}>
                    <span>
                      {name(q)}
                      {obs.scores[q] ? <span class="hand-value"> — {handValue(obs.scores[q] as Score, t)}</span> : null}
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
