// A game just created: every human seat's invite link, the spectator link, each with a copy
// button, and a button to play seat 1 here.
import { useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { Created } from "../protocol";
import { gameLink } from "../storage";
import { Icon } from "../ui/icons";

function absolute(path: string): string {
  return new URL(path, window.location.origin).href;
}

function CopyButton({ text, t, id }: { text: string; t: Translate; id?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // no clipboard (plain http, an old browser): select the text for a manual copy instead
      const field = document.querySelector<HTMLInputElement>(`input[value="${CSS.escape(text)}"]`);
      field?.select();
    }
    setDone(true);
    window.setTimeout(() => setDone(false), 1500);
  };
  return (
    <button type="button" class="ghost copy" id={id} onClick={copy} aria-live="polite">
      {done ? `✓ ${t("copied")}` : t("copy")}
    </button>
  );
}

export function CreatedGame({ created, t }: { created: Created; t: Translate }) {
  const first = created.seats.find((s) => s.token);
  return (
    <section class="panel created" id="created" aria-labelledby="created-title">
      <h2 class="box-title" id="created-title">
        {t("created")} <code id="game-id">{created.id}</code>
      </h2>
      <p class="dim">{t("inviteHelp")}</p>
      <ul class="links" id="links">
        {created.seats.map((seat) => {
          const href = seat.token ? absolute(gameLink(created.id, seat.token)) : null;
          return (
            <li class="link-row" data-seat={seat.seat}>
              <span class="seat-number">{seat.seat + 1}</span>
              {href ? (
                <>
                  <input class="link-field" readOnly value={href} aria-label={`${t("inviteLink")} ${t("seat")} ${seat.seat + 1}`} onFocus={(e) => (e.target as HTMLInputElement).select()} />
                  <CopyButton text={href} t={t} />
                  <a class="seat-link" href={href} data-seat={seat.seat}>
                    {t("open")}
                  </a>
                </>
              ) : (
                <span class="dim">
                  {t("computer")} ({seat.kind})
                </span>
              )}
            </li>
          );
        })}
        <li class="link-row spectators">
          <span class="seat-number" title={t("spectators")}>
            <Icon name="eye" size={14} />
          </span>
          <input class="link-field" readOnly value={absolute(gameLink(created.id))} aria-label={t("spectatorLink")} onFocus={(e) => (e.target as HTMLInputElement).select()} />
          <CopyButton text={absolute(gameLink(created.id))} t={t} />
          <a id="spectator-link" href={absolute(gameLink(created.id))}>
            {t("open")}
          </a>
        </li>
      </ul>
      {first?.token ? (
        <a class="button primary big" id="open-seat" href={gameLink(created.id, first.token)}>
          ▶ {t("playSeat1")}
        </a>
      ) : null}
    </section>
  );
}
