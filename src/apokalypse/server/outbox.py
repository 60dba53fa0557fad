"""The one way out: everything the server sends a connection goes through :func:`deliver`.

What goes is one of the wire's server messages (``wire.server_adapter``): a seat's state, made
and written once per push by its game's state adapter for every viewer alike (``connection.Made``),
or a reply (refused, why, talk, advice) written by the one adapter of replies
(``wire.dump_reply``). ``tests/server/test_outbox.py`` fails on any other send in the server.
"""

from __future__ import annotations

from typing import Protocol

from starlette.websockets import WebSocket

from apokalypse.wire import Reply, dump_reply


class Written(Protocol):
    """A state message already written for the wire (``connection.Made``)."""

    @property
    def text(self) -> str: ...


async def deliver(websocket: WebSocket, message: Written | Reply) -> bool:
    """Send ``message``; False when the connection is gone (the caller drops it or lets the
    next push do so), never an exception."""
    text = message.text if not isinstance(message, dict) else dump_reply(message)
    try:
        await websocket.send_text(text)
    except Exception:  # a connection gone away: the game goes on
        return False
    return True
