// One WebSocket to the server for this page: every state message kept as it comes, the log and
// the events gathered across messages, reconnecting when the connection drops (a new connection
// is sent the whole log again, so the gathered lists start afresh).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { AdviceMessage, CardFacts, ClientMessage, EventMessage, RefusedMessage, ServerMessage, StateMessage, TalkLine, WhyAnswer } from "../protocol";
import { mergeTalk } from "../talk/lines";

export type Connection = "connecting" | "connected" | "reconnecting" | "disconnected";
export type Fatal = "noGame" | "badToken";

export interface GameConnection {
  gameId: string;
  token: string | null; // this page's seat key (from its address)
  connection: Connection;
  state: StateMessage | null;
  arrived: number; // performance.now() when `state` came: the clock counts down from here
  log: string[];
  logEvents: number[]; // for each line of `log`, the index in `events` of the event it tells
  events: EventMessage[];
  firstBatch: number; // how many of `events` the connection's first message brought
  latest: number; // where in `events` the latest message's events begin
  cards: Record<string, CardFacts>;
  refusal: RefusedMessage | null;
  fatal: Fatal | null;
  act: (action: string) => boolean;
  control: (type: "leave" | "reclaim" | "rematch") => boolean;
  setAuto: (on: boolean) => boolean; // whether the server answers my forced questions
  dismissRefusal: () => void;
  why: WhyAnswers | null; // the server's answers to the last "why not?" asked
  ask: (actions: readonly string[]) => boolean; // would these actions be refused now, and why?
  dismissWhy: () => void;
  talk: TalkLine[]; // the table talk this connection may read, in the order said
  say: (text: string) => boolean;
  rename: (name: string) => boolean;
  advice: AdviceMessage | null; // the coach's latest answer (for the decision at its move)
  asking: boolean; // a question to the coach is on its way
  advise: () => boolean;
  agreeCoach: (agree: boolean) => boolean;
  readOn: () => boolean; // a guided game's "Got it": the server opens the next lesson due
}

/** A "why not?" asked about some actions at one move, and the answers come so far. */
export interface WhyAnswers {
  move: number;
  asked: readonly string[];
  answers: WhyAnswer[];
}

const LOG_LIMIT = 500;
const RETRIES = 8;

declare global {
  interface Window {
    // For tests and the curious: send any action text with a move number (the server judges it).
    apokalypse?: { send: (action: string, move: number) => boolean; state: () => StateMessage | null };
  }
}

export function useGame(gameId: string, token: string | null): GameConnection {
  const [connection, setConnection] = useState<Connection>("connecting");
  const [state, setState] = useState<StateMessage | null>(null);
  const [arrived, setArrived] = useState(0);
  const [log, setLog] = useState<string[]>([]);
  const [logEvents, setLogEvents] = useState<number[]>([]);
  const [latest, setLatest] = useState(0);
  const gathered = useRef(0); // how many events this connection has brought
  const [events, setEvents] = useState<EventMessage[]>([]);
  const [firstBatch, setFirstBatch] = useState(0);
  const [cards, setCards] = useState<Record<string, CardFacts>>({});
  const [refusal, setRefusal] = useState<RefusedMessage | null>(null);
  const [fatal, setFatal] = useState<Fatal | null>(null);
  const [talk, setTalk] = useState<TalkLine[]>([]);
  const [why, setWhy] = useState<WhyAnswers | null>(null);
  const [advice, setAdvice] = useState<AdviceMessage | null>(null);
  const [asking, setAsking] = useState(false);
  const socket = useRef<WebSocket | null>(null);
  const current = useRef<StateMessage | null>(null);

  const send = useCallback((message: ClientMessage | { action: string; move: number }): boolean => {
    const ws = socket.current;
    if (ws === null || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(message));
    return true;
  }, []);

  useEffect(() => {
    let retries = 0;
    let stopped = false;
    let timer: number | undefined;
    let fresh = true; // the next state message is a new connection's first

    const connect = (): void => {
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      const query = token === null ? "" : `?token=${encodeURIComponent(token)}`;
      const ws = new WebSocket(`${scheme}://${window.location.host}/ws/games/${encodeURIComponent(gameId)}${query}`);
      socket.current = ws;
      fresh = true;
      ws.addEventListener("open", () => {
        retries = 0;
        setConnection("connected");
      });
      ws.addEventListener("message", (message: MessageEvent<string>) => {
        let data: ServerMessage;
        try {
          data = JSON.parse(message.data) as ServerMessage;
        } catch {
          return;
        }
        if (data.type === "refused") {
          setRefusal(data);
          setAsking(false); // a refused question too: its reason is shown
          return;
        }
        if (data.type === "advice") {
          setAdvice(data);
          setAsking(false);
          return;
        }
        if (data.type === "why") {
          // only the answers to the question asked last, at the move it was asked
          setWhy((old) => (old && old.move === data.move && old.asked.includes(data.action) ? { ...old, answers: [...old.answers, data] } : old));
          return;
        }
        if (data.type === "talk") {
          setTalk((old) => mergeTalk(old, data.lines));
          return;
        }
        if (data.type !== "state") return;
        const lines = data.text?.log ?? [];
        const batch = data.events ?? [];
        const offset = fresh ? 0 : gathered.current;
        const indexes = (data.text?.log_events ?? []).map((i) => i + offset);
        gathered.current = offset + batch.length;
        setLatest(offset);
        if (fresh) {
          setLog(lines.slice(-LOG_LIMIT));
          setLogEvents(indexes.slice(-LOG_LIMIT));
          setEvents(batch);
          setFirstBatch(batch.length);
          fresh = false;
        } else {
          setLog((old) => [...old, ...lines].slice(-LOG_LIMIT));
          setLogEvents((old) => [...old, ...indexes].slice(-LOG_LIMIT));
          setEvents((old) => [...old, ...batch]);
        }
        if (data.cards) setCards(data.cards as Record<string, CardFacts>);
        if (current.current?.observation.move !== data.observation.move) {
          setAdvice(null); // the decision moved on: the advice was for the one before
          setAsking(false); // (the server drops an answer that comes too late)
        }
        current.current = data;
        setState(data);
        setArrived(performance.now());
        setRefusal(null);
        setWhy((old) => (old && old.move !== data.observation.move ? null : old));
      });
      ws.addEventListener("close", (event: CloseEvent) => {
        if (socket.current === ws) socket.current = null;
        if (stopped) return;
        if (event.code === 4404) return setFatal("noGame");
        if (event.code === 4403) return setFatal("badToken");
        if (retries >= RETRIES) return setConnection("disconnected");
        retries += 1;
        setConnection("reconnecting");
        timer = window.setTimeout(connect, Math.min(4000, 300 * retries));
      });
    };
    connect();
    window.apokalypse = {
      send: (action, move) => send({ action, move }),
      state: () => current.current,
    };
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      socket.current?.close();
    };
  }, [gameId, token, send]);

  const act = useCallback(
    (action: string): boolean => {
      const move = current.current?.observation.move;
      if (move === undefined) return false;
      return send({ type: "action", action, move });
    },
    [send],
  );
  const control = useCallback((type: "leave" | "reclaim" | "rematch") => send({ type }), [send]);
  const setAuto = useCallback((on: boolean) => send({ type: "auto", on }), [send]);
  const dismissRefusal = useCallback(() => setRefusal(null), []);
  const ask = useCallback(
    (actions: readonly string[]): boolean => {
      const move = current.current?.observation.move;
      if (move === undefined || actions.length === 0) return false;
      setWhy({ move, asked: actions, answers: [] });
      return actions.every((action) => send({ type: "why", action, move }));
    },
    [send],
  );
  const dismissWhy = useCallback(() => setWhy(null), []);
  const say = useCallback((text: string) => send({ type: "say", text }), [send]);
  const rename = useCallback((name: string) => send({ type: "name", name }), [send]);
  const advise = useCallback(() => {
    const sent = send({ type: "advise" });
    if (sent) setAsking(true);
    return sent;
  }, [send]);
  const agreeCoach = useCallback((agree: boolean) => send({ type: "coach", agree }), [send]);
  const readOn = useCallback(() => send({ type: "lesson" }), [send]);

  return { gameId, token, connection, state, arrived, log, logEvents, events, firstBatch, latest, cards, refusal, fatal, act, control, setAuto, dismissRefusal, why, ask, dismissWhy, talk, say, rename, advice, asking, advise, agreeCoach, readOn };
}
