// What just happened, for the page: the cards the latest message's events moved are marked
// (`data-fresh`, styled and animated by ui/seen.css) for a few seconds of the page being seen,
// the events that touched this seat become toasts, and a log line can point at what it moved.
// Everything is read from the events the server sent this viewer, and only from the news: the
// first message of a connection (the whole game again) marks nothing.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { Translate } from "../i18n";
import type { CardFacts } from "../protocol";
import { marksOf, toastOf, type Toast } from "./happened";
import { markAll, type Seen } from "./seen";
import type { GameConnection } from "./useGame";

const FRESH_MS = 4000; // how long the page shows what changed, once it is seen
const TOAST_MS = 12000;
const MAX_TOASTS = 4;
const WIDE = "(min-width: 1001px)"; // the log has its own column (ui/seen.css)

export interface WhatHappened extends Seen {
  toasts: Toast[];
  dismiss: (id: number) => void;
}

/** Runs ``then`` once the page is visible (now, or when its tab is shown). */
function whenSeen(then: () => void): () => void {
  if (!document.hidden) {
    then();
    return () => undefined;
  }
  const shown = () => {
    if (document.hidden) return;
    document.removeEventListener("visibilitychange", shown);
    then();
  };
  document.addEventListener("visibilitychange", shown);
  return () => document.removeEventListener("visibilitychange", shown);
}

export function useWhatHappened(
  game: GameConnection,
  seat: number | null,
  t: Translate,
  name: (seat: number) => string,
  facts: Record<string, CardFacts>,
): WhatHappened {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [logOpen, setLogOpen] = useState(false);
  const [read, setRead] = useState(0); // events whose lines count as read
  const words = useRef({ t, name, facts });
  words.current = { t, name, facts };
  const state = game.state;

  // The news of the latest message: marks and toasts.
  useEffect(() => {
    if (state === null) return;
    const from = Math.max(game.latest, game.firstBatch);
    const news = game.events.slice(from);
    if (news.length === 0) return;
    const obs = state.observation;
    markAll(news.flatMap((event) => marksOf(event, seat, obs)), "data-fresh");
    const fresh: Toast[] = [];
    news.forEach((event, i) => {
      const text = toastOf(event, seat, words.current);
      if (text !== null) fresh.push({ id: from + i, text });
    });
    if (fresh.length > 0) setToasts((old) => [...old, ...fresh].slice(-MAX_TOASTS));
    let timer: number | undefined;
    const stop = whenSeen(() => {
      timer = window.setTimeout(() => markAll([], "data-fresh"), FRESH_MS);
    });
    return () => {
      stop();
      window.clearTimeout(timer);
    };
  }, [state]);

  // Toasts go by themselves once they have been on a seen page for a while.
  useEffect(() => {
    if (toasts.length === 0) return;
    let timer: number | undefined;
    const oldest = toasts[0]?.id;
    const stop = whenSeen(() => {
      timer = window.setTimeout(() => setToasts((old) => old.filter((toast) => toast.id !== oldest)), TOAST_MS);
    });
    return () => {
      stop();
      window.clearTimeout(timer);
    };
  }, [toasts]);

  // Lines read: all of them while the log is in view (its own column, or the drawer open).
  const total = game.events.length;
  useEffect(() => {
    if (logOpen || window.matchMedia(WIDE).matches || read > total) setRead(total);
  }, [total, logOpen]);
  const since = Math.max(read, game.firstBatch);
  const unread = game.logEvents.filter((index) => index >= since).length;

  const point = useCallback(
    (index: number | null, reveal = false) => {
      const event = index === null ? undefined : game.events[index];
      const obs = state?.observation;
      markAll(event && obs ? marksOf(event, seat, obs) : [], "data-pointed");
      if (reveal) document.querySelector("[data-pointed]")?.scrollIntoView({ block: "start", behavior: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
    },
    [game.events, state, seat],
  );
  const dismiss = useCallback((id: number) => setToasts((old) => old.filter((toast) => toast.id !== id)), []);

  return { toasts, dismiss, point, logOpen, setLogOpen, unread };
}
