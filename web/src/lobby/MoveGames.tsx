// Moving "my games" to another device without accounts (server/transfers.py): this browser sends
// its list and shows a one-time code, with a QR code of the lobby's address carrying the code in
// its fragment (never sent to a server); the other browser enters the code, or opens that
// address, and adds the list to its own "my games". A code works once, for minutes.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import { addGames, savedGames, type SavedGame } from "../storage";
import { qrDataUrl } from "./qr";

interface Made {
  code: string;
  expires_s: number;
}
type Moved = Omit<SavedGame, "at">;

const FRAGMENT = /^#move=([A-Za-z0-9-]{1,32})$/;

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = (await response.json()) as T & { detail?: unknown };
  if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : response.statusText);
  return data;
}

/** The games of the other device under ``code``, added to this browser's "my games"; how many. */
async function takeGames(code: string): Promise<number> {
  const { games } = await post<{ games: Moved[] }>("/api/transfers/take", { code });
  addGames(games);
  return games.length;
}

export function MoveGames({ t, count, onAdded }: { t: Translate; count: number; onAdded: () => void }) {
  const [made, setMade] = useState<Made | null>(null);
  const [adding, setAdding] = useState(false);
  const [code, setCode] = useState("");
  const [told, setTold] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const link = made ? `${window.location.origin}/#move=${made.code}` : "";
  const qr = useMemo(() => (link ? qrDataUrl(link) : ""), [link]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setTold(null);
    try {
      await work();
    } catch (problem) {
      setTold({ text: problem instanceof Error ? problem.message : String(problem), error: true });
    } finally {
      setBusy(false);
    }
  };
  const take = (typed: string) =>
    run(async () => {
      const added = await takeGames(typed);
      setTold({ text: t("gamesAdded", { count: added }), error: false });
      setAdding(false);
      setCode("");
      onAdded();
    });
  const send = () =>
    run(async () => {
      const games: Moved[] = savedGames().map(({ id, game, seat, token }) => (token ? { id, game, seat, token } : { id, game, seat }));
      setMade(await post<Made>("/api/transfers", { games }));
    });

  // Opened from the other device's QR code: the code is in the fragment; taken once, then dropped
  // from the address (a reload must not try a used code again).
  useEffect(() => {
    const found = FRAGMENT.exec(window.location.hash);
    if (!found?.[1]) return;
    window.history.replaceState(null, "", window.location.pathname);
    void take(found[1]);
  }, []);

  return (
    <div class="move-games" id="move-games">
      <div class="move-games-actions">
        {count > 0 && !made ? (
          <button type="button" class="link-button" id="move-games-send" disabled={busy} onClick={send}>
            {t("moveGames")}
          </button>
        ) : null}
        {!adding ? (
          <button type="button" class="link-button" id="move-games-add" onClick={() => setAdding(true)}>
            {t("addGames")}
          </button>
        ) : null}
      </div>
      {made ? (
        <div class="move-code" data-code={made.code}>
          <p class="dim">{t("moveGamesHelp", { minutes: Math.round(made.expires_s / 60) })}</p>
          <p class="move-code-text" id="move-code">
            {made.code}
          </p>
          <img class="qr-code" src={qr} alt={t("moveGamesQr")} width={160} height={160} />
          <button type="button" onClick={() => setMade(null)}>
            {t("close")}
          </button>
        </div>
      ) : null}
      {adding ? (
        <form
          class="move-take"
          onSubmit={(event) => {
            event.preventDefault();
            void take(code);
          }}
        >
          <label>
            {t("addGamesCode")}
            <input id="move-games-code" value={code} maxLength={16} autoComplete="off" autoCapitalize="characters" spellcheck={false} onInput={(event) => setCode(event.currentTarget.value)} />
          </label>
          <button type="submit" class="primary" disabled={busy || code.trim() === ""}>
            {t("addGamesButton")}
          </button>
        </form>
      ) : null}
      {told ? (
        <p class={told.error ? "refusal" : "dim"} id="move-games-told" role={told.error ? "alert" : "status"}>
          {told.text}
        </p>
      ) : null}
    </div>
  );
}
