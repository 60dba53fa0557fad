// The app's service worker, served at /sw.js (scope: every page of this server). The build
// (vite.config.ts, `serviceWorker`) writes it into the pages' build with BUILD (a hash of the
// build) and ASSETS (the hashed files the pages load, and the offline page) filled in.
//
// - The hashed assets are cached when the worker installs and answered from that cache: their
//   names change with their content, so a cached one is never stale. The offline page and its
//   icon are cached then too.
// - A page itself (an HTML navigation) always comes from the network, never from a cache: the
//   game page's address holds a seat's token, which must not be written into any cache. When the
//   network fails, the offline page answers instead.
// - Nothing else (the API, the WebSocket, the replays) is touched.
// - A new build's worker takes over at once and drops the caches of the builds before it.
const BUILD = "__BUILD__";
const ASSETS = __ASSETS__;
const CACHE = `apokalypse-${BUILD}`;
const OFFLINE = "/offline";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([OFFLINE, ...ASSETS]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (url.pathname.startsWith("/static/assets/")) {
    event.respondWith(caches.match(request).then((cached) => cached ?? fetch(request)));
  } else if (url.pathname.startsWith("/static/icons/")) {
    // not hashed: the network's when it answers, the cached one (the offline page's) when not
    event.respondWith(fetch(request).catch(() => caches.match(request)));
  }
});

// A push from this server (server/pushes.py): which game and seat, and the words to show. One
// notification per seat (its tag): a newer one replaces the older.
self.addEventListener("push", (event) => {
  let told = null;
  try {
    told = event.data ? event.data.json() : null;
  } catch {
    told = null;
  }
  if (!told || typeof told.game !== "string" || typeof told.seat !== "number") return;
  event.waitUntil(
    self.registration.showNotification(String(told.title ?? "Apokalypse"), {
      body: String(told.body ?? ""),
      tag: `${told.game}:${told.seat}`,
      icon: "/static/icons/icon-192.png",
      data: { game: told.game, seat: told.seat, kind: told.kind },
    }),
  );
});

// A click opens the game at that seat: a tab of it if one is open, else a new one. The page
// finds the seat's key in "my games" (the address names the seat, never its key).
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const { game, seat } = event.notification.data ?? {};
  if (typeof game !== "string" || typeof seat !== "number") return;
  const path = `/games/${encodeURIComponent(game)}`;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      const tab = open.find((client) => new URL(client.url).pathname === path);
      return tab ? tab.focus() : self.clients.openWindow(`${path}?seat=${seat}`);
    }),
  );
});
