// The pages as an installable app: each page registers the service worker (web/sw/sw.js), which
// keeps the built scripts and styles for quick starts and shows the offline page when the server
// is out of reach. Browsers offer service workers only to a secure origin (HTTPS, or this machine
// itself): on plain HTTP at a network address the pages work as before, as pages.
import { useEffect, useState } from "preact/hooks";

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((problem: unknown) => {
    console.warn("the service worker was not registered", problem);
  });
}

// What the browser hands a page when it would install the app (Chromium's `beforeinstallprompt`;
// not in TypeScript's DOM types, as it is not a standard yet).
interface InstallPrompt extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

/** The browser's offer to install the app, as a function that asks the person (the browser's own
 * dialog), or null while there is none: the browser makes none where the app is installed
 * already or cannot be installed, and a browser without the event never does. */
export function useInstallOffer(): (() => void) | null {
  const [offer, setOffer] = useState<InstallPrompt | null>(null);
  useEffect(() => {
    const offered = (event: Event) => {
      event.preventDefault(); // the page offers it where it chooses, not the browser's own bar
      setOffer(event as InstallPrompt);
    };
    const installed = () => setOffer(null);
    window.addEventListener("beforeinstallprompt", offered);
    window.addEventListener("appinstalled", installed);
    return () => {
      window.removeEventListener("beforeinstallprompt", offered);
      window.removeEventListener("appinstalled", installed);
    };
  }, []);
  if (offer === null) return null;
  return () => {
    void offer.prompt();
    void offer.userChoice.then(() => setOffer(null)); // an offer is good for one prompt
  };
}
