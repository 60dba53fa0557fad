// A time left in words a glance reads: minutes and seconds under an hour (a live timer), hours
// and minutes under a day, days and hours beyond (a game played over days).
import type { Translate } from "../i18n";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function mmss(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function duration(ms: number, t: Translate): string {
  const left = Math.max(0, ms);
  if (left < HOUR) return mmss(left);
  if (left < DAY) {
    const minutes = Math.floor(left / MINUTE);
    return `${Math.floor(minutes / 60)} ${t("unitHour")} ${minutes % 60} ${t("unitMinute")}`;
  }
  const hours = Math.floor(left / HOUR);
  return `${Math.floor(hours / 24)} ${t("unitDay")} ${hours % 24} ${t("unitHour")}`;
}
