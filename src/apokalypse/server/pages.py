"""The browser pages: a lobby to create games and a game page that plays one over the WebSocket.

Static files only (``apokalypse/web``): the pages show the observations the server sends and send
back action texts from its ``legal`` list; no game logic runs in the browser. A seat's token
stays in the page's own address and is never written into the HTML.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parent.parent / "web"


def add_pages(app: FastAPI) -> None:
    """Serve the lobby at ``/``, the game page at ``/games/{id}`` and the assets at ``/static``."""

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "lobby.html", media_type="text/html")

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        # The same page for every game and seat: the script reads the id and token from the URL.
        return FileResponse(
            WEB / "game.html",
            media_type="text/html",
            headers={"Referrer-Policy": "no-referrer", "Cache-Control": "no-store"},
        )

    app.mount("/static", StaticFiles(directory=WEB), name="static")
