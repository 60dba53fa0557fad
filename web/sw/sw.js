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
