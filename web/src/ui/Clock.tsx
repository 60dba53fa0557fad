// The turn timer: the time left for the decision being taken, counted down in the browser from
// when the server's message arrived (the server's own clock decides when time is up).
import { useEffect, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { Clock as ClockState } from "../protocol";
import { Icon } from "./icons";

interface ClockProps {
  clock: ClockState;
  arrived: number;
  name: string;
  mine: boolean;
  t: Translate;
}

function mmss(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function Clock({ clock, arrived, name, mine, t }: ClockProps) {
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(performance.now()), 250);
    return () => window.clearInterval(timer);
  }, []);
  // remaining_ms counts the decision's own time and then the bank: show them apart, the bank
  // counting down (and marked) once the decision's own time is spent.
  const left = Math.max(0, clock.remaining_ms - (now - arrived));
  const bank = clock.bank_ms[clock.seat] ?? 0;
  const turnLeft = Math.max(0, left - bank);
  const bankLeft = Math.min(bank, left);
  const onBank = turnLeft === 0;
  const whole = onBank ? bank : clock.turn_s * 1000;
  const fraction = whole > 0 ? Math.min(1, (onBank ? bankLeft : turnLeft) / whole) : 0;
  return (
    <div id="clock" class={`clock${mine ? " mine" : ""}${onBank ? " on-bank" : ""}${left < 10_000 ? " urgent" : ""}`} data-seat={clock.seat} role="timer" aria-live="off" title={t("timeLeft")}>
      <Icon name="clock" size={16} />
      <span class="who">{name}</span>
      <strong class="time">{mmss(onBank ? bankLeft : turnLeft)}</strong>
      <span class="bar" aria-hidden="true">
        <span style={{ width: `${fraction * 100}%` }} />
      </span>
      {bank > 0 ? (
        <span class="bank">
          + {t("bank")} {mmss(bankLeft)}
        </span>
      ) : null}
    </div>
  );
}
