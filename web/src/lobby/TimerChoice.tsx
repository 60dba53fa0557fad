// The create form's turn timer: off; live (seconds per decision and a time bank, for people at
// the table together); or turn-based (hours or days per move, for a game played over days:
// the server keeps each deadline, and friends need not be online together).
import type { Translate } from "../i18n";
import type { CreateRequest } from "../protocol";
import "./timer-choice.css";

export type TimerMode = "off" | "live" | "days";
export type TimerUnit = "hours" | "days";

export interface TimerSetting {
  mode: TimerMode;
  turn: number; // live: seconds per decision
  bank: number; // live: seconds of time bank
  amount: number; // turn-based: so many hours or days per move
  unit: TimerUnit;
}

export const TIMER_DEFAULT: TimerSetting = { mode: "off", turn: 60, bank: 120, amount: 1, unit: "days" };
const LONGEST_HOURS = 14 * 24; // the server's bound: two weeks a move

/** The request's part for the timer chosen. */
export function timerRequest(setting: TimerSetting): Pick<CreateRequest, "timer" | "turn_based"> {
  if (setting.mode === "live") return { timer: { turn: setting.turn, bank: setting.bank } };
  if (setting.mode === "days") {
    const hours = setting.unit === "days" ? setting.amount * 24 : setting.amount;
    return { turn_based: { hours: Math.max(1, Math.min(LONGEST_HOURS, hours)) } };
  }
  return {};
}

const number = (e: Event, least: number): number => Math.max(least, Math.round(Number((e.target as HTMLInputElement).value)) || least);

export function TimerChoice({ setting, onChange, t }: { setting: TimerSetting; onChange: (next: TimerSetting) => void; t: Translate }) {
  const set = (part: Partial<TimerSetting>) => onChange({ ...setting, ...part });
  const modes: [TimerMode, string][] = [
    ["off", t("timerOff")],
    ["live", t("timerLive")],
    ["days", t("timerDays")],
  ];
  return (
    <fieldset class="timer" id="timer">
      <legend>{t("timer")}</legend>
      <div class="timer-modes" role="radiogroup">
        {modes.map(([mode, label]) => (
          <label class={`check timer-mode${setting.mode === mode ? " chosen" : ""}`}>
            <input type="radio" name="timer-mode" id={`timer-${mode}`} value={mode} checked={setting.mode === mode} onChange={() => set({ mode })} />
            <span>{label}</span>
          </label>
        ))}
      </div>
      {setting.mode === "live" ? (
        <div class="row">
          <label class="field">
            <span>{t("turnSeconds")}</span>
            <input type="number" id="timer-turn" min={5} max={3600} value={setting.turn} onInput={(e) => set({ turn: number(e, 1) })} />
          </label>
          <label class="field">
            <span>{t("bankSeconds")}</span>
            <input type="number" id="timer-bank" min={0} max={36000} value={setting.bank} onInput={(e) => set({ bank: number(e, 0) })} />
          </label>
        </div>
      ) : null}
      {setting.mode === "days" ? (
        <div class="row">
          <label class="field">
            <span>{t("perMove")}</span>
            <input
              type="number"
              id="timer-amount"
              min={1}
              max={setting.unit === "days" ? 14 : LONGEST_HOURS}
              value={setting.amount}
              onInput={(e) => set({ amount: number(e, 1) })}
            />
          </label>
          <label class="field">
            <span>&nbsp;</span>
            <select id="timer-unit" value={setting.unit} onChange={(e) => set({ unit: (e.target as HTMLSelectElement).value === "hours" ? "hours" : "days" })}>
              <option value="hours">{t("hours")}</option>
              <option value="days">{t("days")}</option>
            </select>
          </label>
        </div>
      ) : null}
      <p class="dim small">{setting.mode === "days" ? t("daysHelp") : t("timerHelp")}</p>
    </fieldset>
  );
}
