// The lobby: create a game, hand out its links, and find the games played in this browser.
import { useMemo, useState } from "preact/hooks";
import { browserLang, translator } from "../i18n";
import type { Created, CreateRequest, Lang } from "../protocol";
import { rememberGame } from "../storage";
import { useCatalog } from "./catalog";
import { CreatedGame } from "./CreatedGame";
import { CreateForm } from "./CreateForm";
import { MyGames } from "./MyGames";
import { LearnToPlay } from "../tutorial/LearnToPlay";
import { useInstallOffer } from "../ui/install";

export function Lobby() {
  const [lang, setLang] = useState<Lang>(browserLang());
  const t = useMemo(() => translator(lang), [lang]);
  const { catalog, failed } = useCatalog(lang); // the games on offer, for the form and "my games"
  const [created, setCreated] = useState<Created | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [refresh, setRefresh] = useState(0);
  const install = useInstallOffer();

  const create = async (request: CreateRequest) => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/games", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request),
      });
      const data = (await response.json()) as Created & { detail?: unknown };
      if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : response.statusText);
      setCreated(data);
      const first = data.seats.find((s) => s.token);
      rememberGame(first?.token ? { id: data.id, game: request.game, seat: first.seat, token: first.token } : { id: data.id, game: request.game, seat: null });
      setRefresh((n) => n + 1);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const switchLang = (next: Lang) => {
    setLang(next);
    window.localStorage.setItem("apokalypse.lang", next);
    document.documentElement.lang = next;
  };

  return (
    <div class="page lobby-page">
      <header class="topbar">
        <a href="/" class="brand">
          <span class="brand-mark" aria-hidden="true">
            ✝
          </span>
          {t("appName")}
        </a>
        <span class="spacer" />
        {install ? (
          <button type="button" id="install-app" class="install-app" title={t("installAppHelp")} onClick={install}>
            {t("installApp")}
          </button>
        ) : null}
        <div class="lang-switch" role="group" aria-label={t("language")}>
          {(["en", "de"] as const).map((l) => (
            <button type="button" class={lang === l ? "chosen" : ""} aria-pressed={lang === l} onClick={() => switchLang(l)}>
              {l.toUpperCase()}
            </button>
          ))}
        </div>
      </header>
      <main class="lobby">
        <section class="hero">
          <h1>{t("appName")}</h1>
          <p>{t("tagline")}</p>
        </section>
        <LearnToPlay lang={lang} catalog={catalog} />
        <div class="lobby-grid">
          <CreateForm lang={lang} t={t} busy={busy} catalog={catalog} failed={failed} onCreate={create} />
          <div class="lobby-side">
            {error ? (
              <p id="error" class="refusal" role="alert">
                {error}
              </p>
            ) : null}
            {created ? <CreatedGame created={created} t={t} lang={lang} /> : null}
            <MyGames t={t} refresh={refresh} catalog={catalog} />
          </div>
        </div>
      </main>
    </div>
  );
}
