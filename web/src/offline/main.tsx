import { render } from "preact";
import "../style.css";
import "./offline.css";
import { browserLang, translator } from "../i18n";

// The page the service worker answers with when a page cannot be fetched (web/sw/sw.js): it says
// so in the browser's language and goes back to the page that was asked for once the network
// is back. Its own address stays the one asked for, so reloading is going back.
function Offline() {
  const t = translator(browserLang());
  const retry = () => window.location.reload();
  return (
    <main class="offline">
      <img class="offline-icon" src="/static/icons/icon-192.png" alt="" width="96" height="96" />
      <h1>{t("offlineTitle")}</h1>
      <p>{t("offlineText")}</p>
      <button type="button" class="primary" id="offline-retry" onClick={retry}>
        {t("offlineRetry")}
      </button>
      <p class="dim">{t("offlineAuto")}</p>
    </main>
  );
}

window.addEventListener("online", () => window.location.reload());
const root = document.getElementById("app");
if (root) {
  document.documentElement.lang = browserLang();
  document.title = translator(browserLang())("offlineTitle");
  render(<Offline />, root);
}
