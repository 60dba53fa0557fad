// One player's display as it lies on the table: three rows (Heaven, Earth, Netherworld), the
// setup cards in the middle column, the good side to their left and the evil side to their right,
// positions counted outward from the middle. Legal places light up and are buttons.
import type { DisplayView } from "../wire/apokalypse";
import { Icon } from "../ui/icons";
import { CardFace, cardName } from "./Card";
import { useTable } from "./context";
import { PLANES, SIDES, placeKey, placeQuestion, rowKey, type PlaneName, type SideName } from "./moves";

interface DisplayProps {
  seat: number;
  display: DisplayView;
}

const SETUP: Record<PlaneName, "setupHeaven" | "setupEarth" | "setupNether"> = {
  heaven: "setupHeaven",
  earth: "setupEarth",
  nether: "setupNether",
};

export function Display({ seat, display }: DisplayProps) {
  const table = useTable();
  const { obs, moves, t, forecast } = table;
  const p = `p${seat + 1}`;
  // Each side is as wide as its longest row, plus a free place where a card may be added (at
  // least two places, so that every display has room for its side's name).
  const width = (side: SideName) =>
    Math.max(2, ...PLANES.map((plane) => display[side][plane].length + (moves.slots.has(rowKey(seat, side, plane)) ? 1 : 0)));
  const good = width("good");
  const evil = width("evil");
  const column = (side: SideName, pos: number) => (side === "good" ? good - pos : good + 2 + pos);
  const strike = forecast?.displays.find((d) => d.seat === seat)?.next;
  const seatAction = moves.seats.get(seat)?.text;
  const acting = obs.to_act === seat && !obs.result;
  const mine = obs.seat === seat;
  // While my step names a place, a place that is not a legal target asks the server why not.
  const why = (side: SideName, plane: PlaneName, pos?: number) => (table.deciding ? placeQuestion(obs, seat, side, plane, pos) : null);

  const cells = [];
  for (const [row, plane] of PLANES.entries()) {
    cells.push(
      <div class={`setup plane-${plane}`} style={{ gridRow: row + 2, gridColumn: good + 1 }}>
        {t(SETUP[plane])}
      </div>,
    );
    for (const side of SIDES) {
      const cards = display[side][plane];
      for (const [pos, code] of cards.entries()) {
        const key = placeKey(seat, side, plane, pos);
        const action = moves.cards.get(key)?.text;
        const question = action === undefined ? why(side, plane, pos) : null;
        const front = plane === "earth" ? obs.fronts?.[`${p}.${side}.${pos}`] : undefined;
        const dying = plane === "earth" && strike !== undefined && strike[side].dying.includes(pos);
        // the populace an attack on the table aims at: the outermost of the attacked side
        const attacked = plane === "earth" && obs.attack?.seat === seat && obs.attack.side === side && pos === cards.length - 1;
        const label = `${t(side)} · ${t(plane)} · ${t("position", { pos })}: ${code === "populace" ? t("faceDown") : cardName(code, table.facts)}`;
        const face = (
          <CardFace code={code} facts={table.facts} side={side} front={front} size="table">
            {dying ? <span class="dying" title={t("dies")}>✝</span> : null}
          </CardFace>
        );
        cells.push(
          <button
            type="button"
            class={`cell plane-${plane} side-${side}${action ? " target" : ""}${attacked ? " attacked" : ""}`}
            style={{ gridRow: row + 2, gridColumn: column(side, pos) }}
            data-place={key}
            data-action={action}
            data-why={question ?? undefined}
            tabIndex={action || question ? 0 : -1}
            aria-label={action ? `${label} — ${action}` : question ? `${label} — ${t("whyNot")}` : label}
            title={action ?? cardName(code, table.facts)}
            onMouseEnter={() => table.inspect(code)}
            onFocus={() => table.inspect(code)}
            onClick={() => {
              if (action) return table.act(action);
              table.inspect(code);
              if (question) table.ask([question]);
            }}
          >
            {face}
          </button>,
        );
      }
      const slot = moves.slots.get(rowKey(seat, side, plane))?.text;
      const rowWhy = slot === undefined ? why(side, plane) : null;
      if (rowWhy !== null && cards.length < (side === "good" ? good : evil)) {
        // a row's free end that is no legal place (where it fits without widening the display)
        cells.push(
          <button
            type="button"
            class={`cell slot unusable plane-${plane} side-${side}`}
            style={{ gridRow: row + 2, gridColumn: column(side, cards.length) }}
            data-place={rowKey(seat, side, plane)}
            data-why={rowWhy}
            aria-label={`${t(side)} · ${t(plane)}: ${t("whyNot")}`}
            title={t("whyNot")}
            onClick={() => table.ask([rowWhy])}
          >
            <span class="plus">?</span>
          </button>,
        );
      }
      if (slot !== undefined) {
        cells.push(
          <button
            type="button"
            class={`cell slot target plane-${plane} side-${side}`}
            style={{ gridRow: row + 2, gridColumn: column(side, cards.length) }}
            data-place={rowKey(seat, side, plane)}
            data-action={slot}
            aria-label={`${t(side)} · ${t(plane)}: + (${slot})`}
            title={slot}
            onClick={() => table.act(slot)}
          >
            <span class="plus">+</span>
          </button>,
        );
      }
    }
  }

  return (
    <section
      class={`display${acting ? " acting" : ""}${mine ? " own" : ""}${seatAction ? " seat-target" : ""}`}
      data-seat={seat}
      aria-label={mine ? t("yourDisplay") : `${t("display")} ${table.name(seat)}`}
    >
      <header class="display-head">
        <span class="owner">
          {acting ? <span class="acting-dot" aria-hidden="true" /> : null}
          {mine ? t("yourDisplay") : table.name(seat)}
        </span>
        {strike ? <StrikeChip seat={seat} /> : null}
        {seatAction ? (
          <button type="button" class="seat-pick target" data-action={seatAction} onClick={() => table.act(seatAction)}>
            {table.name(seat)} ⟵
          </button>
        ) : null}
      </header>
      <div
        class="display-grid"
        style={{ "--places": good + evil, gridTemplateColumns: `repeat(${good}, var(--fit-w)) var(--setup-w) repeat(${evil}, var(--fit-w))` }}
      >
        <div class="side-label good" style={{ gridRow: 1, gridColumn: `1 / ${good + 1}` }}>
          ◀ {t("good")}
        </div>
        <div class="side-label evil" style={{ gridRow: 1, gridColumn: `${good + 2} / ${good + evil + 2}` }}>
          {t("evil")} ▶
        </div>
        {PLANES.map((plane, row) => (
          <div class={`plane-band plane-${plane}`} data-plane={plane} style={{ gridRow: row + 2, gridColumn: `1 / ${good + evil + 2}` }} />
        ))}
        {cells}
      </div>
    </section>
  );
}

/** The forecast for this display in one chip: who would die and the reckoning it would give. */
function StrikeChip({ seat }: { seat: number }) {
  const { forecast, t } = useTable();
  const strike = forecast?.displays.find((d) => d.seat === seat)?.next;
  if (!strike) return null;
  const dead = strike.good.dead + strike.evil.dead;
  const score = strike.score; // the reckoning it would give, as the server's forecast says
  return (
    <span class={`strike${dead ? " has-dead" : ""}`} title={`${t("forecastTitle", { horseman: `H${strike.horseman}` })}: ✝${dead}, ${t("reckoning")} ${signed(score)}`}>
      <Icon name="horse" size={14} /> ✝{dead} · {signed(score)}
    </span>
  );
}

export function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}
