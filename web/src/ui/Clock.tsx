// The turn timer: the deciding seat's time left, counted down in the browser from when the
// server's message arrived (the server's own clock decides when time is up). Shown only where
// the viewer's observation shows who decides (the server sends `deciding` only then). A game
// played over days shows hours and days (ui/duration.ts).
import { useEffect, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { ClockView } from "../protocol";
import { duration } from "./duration";
import { Icon } from "./icons";

interface ClockProps {
  clock: ClockView;
  arrived: number;
  name: (seat: number) => string;
  me: number | null; // the viewer's seat (null: a spectator)
  t: Translate;
}

export function Clock({ clock, arrived, name, me, t }: ClockProps) {
  const [now, setNow] = useState(performance.now());
  const deciding = clock.deciding;
  useEffect(() => {
    if (deciding === null) return;
    const timer = window.setInterval(() => setNow(performance.now()), 250);
    return () => window.clearInterval(timer);
  }, [deciding]);
  if (deciding === null) return null;
  // The decision's own time first, then the deciding seat's bank (remaining_ms counts both):
  // shown apart, the bank counting down (and marked) once the decision's own time is spent.
  const spent = Math.max(0, now - arrived);
  const bank = Math.max(0, deciding.remaining_ms - deciding.turn_ms);
  const left = Math.max(0, deciding.remaining_ms - spent);
  const turnLeft = Math.max(0, deciding.turn_ms - spent);
  const bankLeft = Math.min(bank, left);
  const onBank = turnLeft === 0;
  const whole = onBank ? bank : clock.turn_s * 1000;
  const fraction = whole > 0 ? Math.min(1, (onBank ? bankLeft : turnLeft) / whole) : 0;
  const mine = deciding.seat === me;
  return (
    <div
      id="clock"
      class={`clock${mine ? " mine" : ""}${onBank ? " on-bank" : ""}${left < 10_000 ? " urgent" : ""}`}
      data-seat={deciding.seat}
      role="timer"
      aria-live="off"
      title={t("timeLeft")}
    >
      <Icon name="clock" size={16} />
      <span class="who">{name(deciding.seat)}</span>
      <strong class="time">{duration(onBank ? bankLeft : turnLeft, t)}</strong>
      <span class="bar" aria-hidden="true">
        <span style={{ width: `${fraction * 100}%` }} />
      </span>
      {bank > 0 ? (
        <span class="bank">
          + {t("bank")} {duration(bankLeft, t)}
        </span>
      ) : null}
    </div>
  );
}
