// A game just created: every human seat's invite link, the spectator link, each with a copy
// button and a QR code for a phone, and (first) a button to play seat 1 here. The links are the
// server's (POST /api/games answers them): the address friends can open, which need not be the
// one this browser is at (a host who opened http://127.0.0.1:8000 must not hand that out).
import { useMemo, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { Created, Lang } from "../protocol";
import { gameLink } from "../storage";
import { Icon } from "../ui/icons";
import "./lobby.css";
import { qrDataUrl } from "./qr";
import { qrWords } from "./words";


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

/** A link's QR code; tapping it makes it large enough to scan across a table, tapping again
 * makes it small. `which`: the seat's number, or "spectators". */
function QrTile({ link, label, which, alt }: { link: string; label: string; which: string; alt: string }) {
  const [big, setBig] = useState(false);
  const src = useMemo(() => qrDataUrl(link), [link]);
  return (
    <li class={`qr-tile${big ? " big" : ""}`} data-qr={which}>
      <button type="button" class="qr-button" aria-pressed={big} onClick={() => setBig(!big)}>
        <img class="qr-code" src={src} alt={alt} data-qr={which} width={160} height={160} />
        <span class="qr-label">{label}</span>
      </button>
    </li>
  );
}

/** The links under ``address`` instead of the one the server chose (same paths and keys). */
function under(created: Created, address: string): Created {
  const moved = (link: string) => (link.startsWith(created.address) ? address + link.slice(created.address.length) : link);
  return {
    ...created,
    seats: created.seats.map((seat) => (seat.url === undefined ? seat : { ...seat, url: moved(seat.url) })),
    watch: moved(created.watch),
  };
}

/** Which address the links name, and (where the machine has others, or the page was opened at
 * another) a choice of it: a host on two networks sends each friend the one they can reach. */
function AddressChoice({ created, address, choose, t }: { created: Created; address: string; choose: (a: string) => void; t: Translate }) {
  const all = [created.address, ...created.addresses];
  return (
    <p class="links-address">
      <label>
        <span>{t("linksAddress")} </span>
        {created.addresses.length ? (
          <select id="links-address" value={address} onChange={(e) => choose((e.target as HTMLSelectElement).value)}>
            {all.map((one) => (
              <option value={one}>{one}</option>
            ))}
          </select>
        ) : (
          <code id="links-address">{created.address}</code>
        )}
      </label>
      {created.addresses.length ? <small class="dim"> {t("linksAddressHelp")}</small> : null}
    </p>
  );
}

export function CreatedGame({ created: made, t, lang }: { created: Created; t: Translate; lang: Lang }) {
  const [address, setAddress] = useState(made.address);
  const created = useMemo(() => under(made, address), [made, address]);
  const first = created.seats.find((s) => s.token);
  const words = qrWords(lang);
  const people = created.seats.filter((s): s is typeof s & { url: string } => typeof s.url === "string");
  return (
    <section class="panel created" id="created" aria-labelledby="created-title">
      <h2 class="box-title" id="created-title">
        {t("created")} <code id="game-id">{created.id}</code>
      </h2>
      {first?.token ? (
        // Seat 1 played here, at this browser's own address (its "my games" live here): first,
        // so that a phone shows it without scrolling past the links.
        <a class="button primary big" id="open-seat" href={gameLink(created.id, first.token)}>
          ▶ {t("playSeat1")}
        </a>
      ) : null}
      <p class="dim">{t("inviteHelp")}</p>
      <AddressChoice created={made} address={address} choose={setAddress} t={t} />
      <ul class="links" id="links">
        {created.seats.map((seat) => {
          const href = seat.url ?? null;
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
          <input class="link-field" readOnly value={created.watch} aria-label={t("spectatorLink")} onFocus={(e) => (e.target as HTMLInputElement).select()} />
          <CopyButton text={created.watch} t={t} />
          <a id="spectator-link" href={created.watch}>
            {t("open")}
          </a>
        </li>
      </ul>
      <p class="dim small">{words.qrHelp}</p>
      <ul class="qr-codes" id="qr-codes">
        {people.map((seat) => (
          <QrTile
            key={seat.url}
            link={seat.url}
            which={String(seat.seat)}
            label={`${t("seat")} ${seat.seat + 1}`}
            alt={words.qrOf(`${t("inviteLink")} ${t("seat")} ${seat.seat + 1}`)}
          />
        ))}
        <QrTile key={created.watch} link={created.watch} which="spectators" label={t("spectators")} alt={words.qrOf(t("spectatorLink"))} />
      </ul>
    </section>
  );
}
