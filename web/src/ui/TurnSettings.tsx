// What tells a seated person it is their turn besides the page: a tone and a browser
// notification, each off until they turn it on here (game/useTurnSignal).
import type { TurnSettings as Settings } from "../game/useTurnSignal";
import type { Translate } from "../i18n";
import "./seen.css";

export function TurnSettings({ settings, t }: { settings: Settings; t: Translate }) {
  return (
    <fieldset class="turn-settings" id="turn-settings">
      <legend>{t("turnSignals")}</legend>
      <label>
        <input type="checkbox" id="turn-sound" checked={settings.sound} onChange={(e) => settings.setSound((e.target as HTMLInputElement).checked)} />{" "}
        {t("turnSound")}
      </label>
      <label>
        <input type="checkbox" id="turn-notify" checked={settings.notify} onChange={(e) => settings.setNotify((e.target as HTMLInputElement).checked)} />{" "}
        {t("notifyMe")}
      </label>
      {settings.blocked ? <p class="dim small">{t("notifyBlocked")}</p> : null}
    </fieldset>
  );
}
