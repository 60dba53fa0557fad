"""The browser pages: a lobby to create games and a game page that plays one over the WebSocket.

The pages are a TypeScript/Preact front end (``web/`` at the repository root) that Vite builds into
``apokalypse/web/dist`` (``make web``): four HTML files (the fourth the offline page), hashed
assets under ``/static/``, the app's manifest and icons beside them, and the service worker that
makes the pages an installable app, answered at ``/sw.js``. They
show the observations the server sends and send back action texts from its ``legal`` list; no game
logic runs in the browser. A seat's token stays in the page's own address and is never written into
the HTML. Without a build every page answers 503 saying how to make one. Every file is sent
precompressed where the browser takes it, the hashed assets cached for good
(:mod:`.precompressed`).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response

from .precompressed import Assets

DIST = Path(__file__).resolve().parent.parent / "web" / "dist"

# The HTML is small and names the hashed assets of its build: never cached, never a referrer
# (the game page's address holds the seat's token).
HTML_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}

MISSING = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Apokalypse: pages not built</title></head>
<body style="font-family: sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>The browser pages are not built</h1>
<p>This server has no <code>apokalypse/web/dist</code>. Build the pages with
<code>make web</code> (it runs <code>npm ci</code> and <code>npm run build</code> in
<code>web/</code>), then reload this page.</p>
<p>The game server's HTTP and WebSocket API work without them.</p>
</body></html>
"""


# check_dir=False: the server starts without a build (its pages then answer 503).
ASSETS = Assets(directory=DIST, check_dir=False)


def _page(name: str, request: Request) -> Response:
    path = DIST / name
    if not path.is_file():
        return HTMLResponse(MISSING, status_code=503, headers={"Cache-Control": "no-store"})
    return ASSETS.answer(path, request.headers, HTML_HEADERS)


# A page answers HEAD as GET without the body (a link checker or a proxy's health check asks so).
PAGE_METHODS = ["GET", "HEAD"]


def add_pages(app: FastAPI) -> None:
    """Serve the lobby at ``/``, the game page at ``/games/{id}``, the replay page at
    ``/games/{id}/replay`` and ``/replay`` (a record file opened in it), the offline page at
    ``/offline``, the service worker at ``/sw.js`` and the assets at ``/static``."""

    @app.api_route("/", methods=PAGE_METHODS, include_in_schema=False)
    async def lobby(request: Request) -> Response:
        return _page("lobby.html", request)

    @app.api_route("/games/{game_id}", methods=PAGE_METHODS, include_in_schema=False)
    async def game_page(request: Request, game_id: str) -> Response:
        # The same page for every game and seat: the script reads the id and token from the URL.
        return _page("game.html", request)

    @app.api_route("/games/{game_id}/replay", methods=PAGE_METHODS, include_in_schema=False)
    async def replay_page(request: Request, game_id: str) -> Response:
        # A finished game step by step; the same page opens a record file at /replay.
        return _page("replay.html", request)

    @app.api_route("/replay", methods=PAGE_METHODS, include_in_schema=False)
    async def opened_replay_page(request: Request) -> Response:
        return _page("replay.html", request)

    @app.api_route("/offline", methods=PAGE_METHODS, include_in_schema=False)
    async def offline_page(request: Request) -> Response:
        # What the service worker shows when a page cannot be fetched (it keeps a copy).
        return _page("offline.html", request)

    @app.api_route("/sw.js", methods=PAGE_METHODS, include_in_schema=False)
    async def service_worker(request: Request) -> Response:
        # At the root, so that its scope is every page; checked by the browser on every load
        # (no-cache), so that a new build's worker is found at once.
        path = DIST / "sw.js"
        if not path.is_file():
            return Response("no build of the pages", 404, media_type="text/plain")
        return ASSETS.answer(path, request.headers, {"Cache-Control": "no-cache"})

    app.mount("/static", ASSETS, name="static")
