// "Notify me": Web Push for this seat (server/pushes.py). The browser's permission is asked only
// when the person clicks; the subscription (this browser's push endpoint and keys) is sent with
// the seat's key, so the server pushes this seat alone: when it is awaited and no tab of it is
// open, when a turn-based deadline is near, and when the game ends. "Stop" drops it. Which seats
// this browser asked for is kept in localStorage, beside "my games".
import { useEffect, useState } from "preact/hooks";
import type { Translate } from "../i18n";

type Standing = "unsupported" | "off" | "on" | "blocked" | "busy";

const remembered = (gameId: string, token: string) => `apokalypse.push.${gameId}.${token.slice(0, 8)}`;

function supported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && window.isSecureContext;
}

function decode(key: string): Uint8Array<ArrayBuffer> {
  const text = atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

async function post(path: string, body: unknown): Promise<{ devices: number }> {
  const response = await fetch(`/api/push/${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = (await response.json()) as { devices?: number; detail?: unknown };
  if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : response.statusText);
  return { devices: data.devices ?? 0 };
}

export function NotifyMe({ gameId, token, t }: { gameId: string; token: string; t: Translate }) {
  const key = remembered(gameId, token);
  const [standing, setStanding] = useState<Standing>(() => (!supported() ? "unsupported" : window.localStorage.getItem(key) ? "on" : "off"));
  const [problem, setProblem] = useState<string | null>(null);
  const [devices, setDevices] = useState<number | null>(null);
  useEffect(() => {
    if (supported() && Notification.permission === "denied") setStanding("blocked");
  }, []);
  useEffect(() => {
    if (standing !== "on") return;
    // how many devices the seat is pushed to (this one and the person's others)
    post("devices", { id: gameId, token })
      .then(({ devices: count }) => {
        setDevices(count);
        if (count === 0) {
          window.localStorage.removeItem(key); // dropped meanwhile (the browser unsubscribed)
          setStanding("off");
        }
      })
      .catch(() => undefined);
  }, [standing]);
  if (standing === "unsupported") return null;

  const start = async () => {
    setStanding("busy");
    setProblem(null);
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        setStanding("blocked");
        return;
      }
      const { key: server } = (await (await fetch("/api/push/key")).json()) as { key: string };
      const registration = await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: decode(server) }));
      await post("subscribe", { id: gameId, token, subscription: subscription.toJSON() });
      window.localStorage.setItem(key, subscription.endpoint);
      setStanding("on");
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      setStanding("off");
    }
  };
  const stop = async () => {
    setStanding("busy");
    try {
      await post("unsubscribe", { id: gameId, token, endpoint: window.localStorage.getItem(key) });
    } catch {
      // the server forgets the subscription with the game anyway
    }
    window.localStorage.removeItem(key);
    setStanding("off");
  };

  return (
    <div class="notify-me" id="notify-me" data-standing={standing}>
      {standing === "on" ? (
        <>
          <span class="dim" id="notify-devices" data-devices={devices ?? ""}>
            {devices !== null && devices > 1 ? t("pushOnDevices", { devices }) : t("pushOn")}
          </span>{" "}
          <button type="button" class="link-button" id="notify-stop" onClick={() => void stop()}>
            {t("pushStop")}
          </button>
        </>
      ) : standing === "blocked" ? (
        <span class="dim">{t("pushBlocked")}</span>
      ) : (
        <button type="button" class="ghost" id="notify-start" title={t("pushHelp")} disabled={standing === "busy"} onClick={() => void start()}>
          {t("pushMe")}
        </button>
      )}
      {problem ? (
        <p class="refusal" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
