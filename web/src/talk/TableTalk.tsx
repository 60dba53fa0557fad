// The table talk beside the board: every line this connection may read (a player: the players'
// channel, and the spectators' once the game is over; a spectator: both), quick phrases, and
// muting a speaker (this browser only, per game). On a narrow screen it is a drawer behind a tab
// with the unread count, so that the board stays in view. Lines and names are text, never markup.
import { badge } from "../ui/badge";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { GameConnection } from "../game/useGame";
import type { Translate, WordKey } from "../i18n";
import type { TalkLine } from "../protocol";
import { TEXT_LENGTH, mutedIn, saveMuted, speaker } from "./lines";
import "./talk.css";

const PHRASES: WordKey[] = ["phraseGoodGame", "phraseWhoAttacked", "phraseWellPlayed", "phraseThanks", "phraseOops"];
const WIDE = "(min-width: 1180px)"; // the panel is a column of its own from here (talk.css)

function useWide(): boolean {
  const query = useMemo(() => window.matchMedia(WIDE), []);
  const [wide, setWide] = useState(query.matches);
  useEffect(() => {
    const change = () => setWide(query.matches);
    query.addEventListener("change", change);
    return () => query.removeEventListener("change", change);
  }, [query]);
  return wide;
}

interface TalkProps {
  game: GameConnection;
  gameId: string;
  seat: number | null;
  myName: string | null; // a spectator's own name, to know their own lines
  t: Translate;
}

export function TableTalk({ game, gameId, seat, myName, t }: TalkProps) {
  const wide = useWide();
  const [open, setOpen] = useState(false);
  const [muted, setMuted] = useState<string[]>(() => mutedIn(gameId));
  const [draft, setDraft] = useState("");
  const [read, setRead] = useState(0); // how many shown lines were in view
  const list = useRef<HTMLOListElement>(null);

  const mine = (line: TalkLine) => (seat !== null ? line.seat === seat : line.seat === null && line.name === myName);
  const shown = game.talk.filter((line) => mine(line) || !muted.includes(speaker(line)));
  const hidden = game.talk.length - shown.length;
  const visible = wide || open;
  useEffect(() => {
    if (visible) setRead(shown.length);
    const box = list.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [visible, shown.length]);
  const unread = visible ? 0 : Math.max(0, shown.filter((line) => !mine(line)).length - read);

  const mute = (who: string, on: boolean) => {
    const next = on ? [...new Set([...muted, who])] : muted.filter((s) => s !== who);
    setMuted(next);
    saveMuted(gameId, next);
  };
  const say = (text: string) => {
    const line = text.trim();
    if (line && game.say(line)) setDraft("");
  };
  const mutedSpeakers = [...new Set(game.talk.filter((line) => !mine(line) && muted.includes(speaker(line))).map((line) => `${speaker(line)}\n${line.name}`))];

  return (
    <>
      {/* The tab opens the drawer; the drawer closes by its own button, in its head: a tab left
          floating above the open drawer covered the board (a hand card on a phone). */}
      {wide || open ? null : (
        <button type="button" id="talk-tab" class="talk-tab" aria-expanded={open} aria-controls="talk" onClick={() => setOpen(true)}>
          {t("talk")}
          {unread > 0 ? (
            <span class="talk-unread" id="talk-unread" aria-label={t("talkUnread", { n: unread })}>
              {badge(unread)}
            </span>
          ) : null}
        </button>
      )}
      <section id="talk" class={`talk-panel panel${wide ? " wide" : " drawer"}${open ? " open" : ""}`} aria-label={t("talk")} hidden={!visible} data-lines={shown.length} data-unread={unread}>
        <header class="talk-head">
          <h2 class="box-title">{t("talk")}</h2>
          {wide ? null : (
            <button type="button" id="talk-close" class="talk-close" onClick={() => setOpen(false)}>
              {t("talkBoard")} ✕
            </button>
          )}
        </header>
        {seat === null ? <p class="talk-note dim">{t("talkSpectatorsNote")}</p> : null}
        <ol class="talk-lines" ref={list} aria-live="polite">
          {shown.length === 0 ? <li class="talk-empty dim">{t("talkEmpty")}</li> : null}
          {shown.map((line) => (
            <li class={`talk-line channel-${line.channel}${mine(line) ? " mine" : ""}`} data-channel={line.channel} data-seat={line.seat ?? ""} data-n={line.n}>
              <span class="talk-who">
                <span class="talk-name" title={new Date(line.at).toLocaleTimeString()}>
                  {line.name}
                </span>
                {line.channel === "spectators" ? <span class="talk-channel">{t("talkSpectators")}</span> : null}
                {mine(line) ? null : (
                  <button type="button" class="talk-mute" aria-label={t("talkMute", { name: line.name })} title={t("talkMute", { name: line.name })} onClick={() => mute(speaker(line), true)}>
                    ⊘
                  </button>
                )}
              </span>
              <span class="talk-text">{line.text}</span>
            </li>
          ))}
        </ol>
        {hidden > 0 ? (
          <div class="talk-muted" id="talk-muted">
            <span class="dim">{hidden === 1 ? t("talkMutedOne") : t("talkMuted", { n: hidden })}</span>
            {mutedSpeakers.map((entry) => {
              const [who = "", name = ""] = entry.split("\n");
              return (
                <button type="button" class="link-button" onClick={() => mute(who, false)}>
                  {t("talkUnmute", { name })}
                </button>
              );
            })}
          </div>
        ) : null}
        <div class="talk-phrases" role="group" aria-label={t("talkPhrases")}>
          {PHRASES.map((phrase) => (
            <button type="button" class="talk-phrase" data-phrase={phrase} onClick={() => say(t(phrase))}>
              {t(phrase)}
            </button>
          ))}
        </div>
        <form
          class="talk-form"
          onSubmit={(event) => {
            event.preventDefault();
            say(draft);
          }}
        >
          <input type="text" id="talk-input" name="say" value={draft} maxLength={TEXT_LENGTH} placeholder={t("talkPlaceholder")} aria-label={t("talkPlaceholder")} autoComplete="off" onInput={(event) => setDraft(event.currentTarget.value)} />
          <button type="submit" class="primary" disabled={!draft.trim()}>
            {t("talkSend")}
          </button>
        </form>
      </section>
    </>
  );
}
