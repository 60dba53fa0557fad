// Telling a person outside the page that it is their turn: while their seat decides (its own
// `legal` is not empty, so a defence or block window's question counts, and only the asked seat
// ever knows of it) the tab's title starts with a mark and "Your turn", the favicon shows a mark,
// an optional short tone plays, and a browser notification comes when the tab is hidden. All of
// it goes back when the decision is taken. Sound and notifications are off until the person
// turns them on (kept in this browser's storage); notification permission is asked only then.
import { useEffect, useRef, useState } from "preact/hooks";

const SOUND_KEY = "apokalypse.turnSound";
const NOTIFY_KEY = "apokalypse.turnNotify";

/** The page's favicons as SVG data URLs (the page's policy allows data: images). */
function icon(mark: boolean): string {
  const dot = mark ? '<circle cx="25" cy="7" r="7" fill="#f4c542" stroke="#13101b" stroke-width="2"/>' : "";
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    '<circle cx="16" cy="16" r="15" fill="#8b2a4e"/>' +
    '<path d="M14 6h4v6h6v4h-6v10h-4V16H8v-4h6z" fill="#fff"/>' +
    `${dot}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
export const FAVICON_IDLE = icon(false);
export const FAVICON_TURN = icon(true);

function setFavicon(href: string): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (link === null) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  link.href = href;
}

function stored(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
}

function store(key: string, on: boolean): void {
  try {
    window.localStorage.setItem(key, on ? "on" : "off");
  } catch {
    // storage refused (private mode): the choice holds for this page only
  }
}

/** A short, soft two-note tone (no sound file: WebAudio makes it). */
function chime(): void {
  const Context = window.AudioContext;
  if (Context === undefined) return;
  try {
    const audio = new Context();
    const gain = audio.createGain();
    gain.connect(audio.destination);
    const now = audio.currentTime;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.15, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.45);
    [660, 880].forEach((frequency, i) => {
      const tone = audio.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(now + i * 0.12);
      tone.stop(now + 0.45);
    });
    window.setTimeout(() => void audio.close(), 800);
  } catch {
    // no audio output: the title and the favicon still say it
  }
}

export interface TurnSettings {
  sound: boolean;
  setSound: (on: boolean) => void;
  notify: boolean;
  setNotify: (on: boolean) => void; // turning it on asks the browser's permission
  blocked: boolean; // the browser refused notifications
}

interface TurnSignal {
  deciding: boolean; // this seat decides now
  title: string; // the page's title when it is not its turn
  turnTitle: string; // the words put before it on its turn ("Your turn")
  notice: string; // the notification's text
  decision: string; // what identifies this decision (a new one signals again)
}

export function useTurnSignal({ deciding, title, turnTitle, notice, decision }: TurnSignal): TurnSettings {
  const [sound, setSoundState] = useState(() => stored(SOUND_KEY));
  const [notify, setNotifyState] = useState(() => stored(NOTIFY_KEY) && "Notification" in window && Notification.permission === "granted");
  const [blocked, setBlocked] = useState(false);
  const shown = useRef<Notification | null>(null);

  useEffect(() => {
    document.title = deciding ? `● ${turnTitle} — ${title}` : title;
    setFavicon(deciding ? FAVICON_TURN : FAVICON_IDLE);
    document.body.dataset.turn = deciding ? "yes" : "no";
  }, [deciding, title, turnTitle]);

  // Sound and notification once per new decision of this seat.
  useEffect(() => {
    if (!deciding) {
      shown.current?.close();
      shown.current = null;
      return;
    }
    if (sound) chime();
    if (notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        const note = new Notification(turnTitle, { body: notice, tag: title, icon: FAVICON_TURN });
        note.onclick = () => {
          window.focus();
          note.close();
        };
        shown.current = note;
      } catch {
        // a browser that wants notifications from a service worker only: the title says it
      }
    }
  }, [deciding, decision]);

  const setSound = (on: boolean) => {
    setSoundState(on);
    store(SOUND_KEY, on);
    if (on) chime(); // what it will sound like (and a click lets the page play audio)
  };
  const setNotify = (on: boolean) => {
    if (!on || !("Notification" in window)) {
      setNotifyState(false);
      store(NOTIFY_KEY, false);
      setBlocked(on); // asked for, but this browser has none
      return;
    }
    const granted = (permission: NotificationPermission) => {
      const ok = permission === "granted";
      setNotifyState(ok);
      setBlocked(!ok);
      store(NOTIFY_KEY, ok);
    };
    if (Notification.permission === "default") void Notification.requestPermission().then(granted);
    else granted(Notification.permission);
  };
  return { sound, setSound, notify, setNotify, blocked };
}
