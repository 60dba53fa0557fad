"""A person on a game's WebSocket, as the server tests use one: a connection that keeps every
message it was sent and waits, with a deadline, for the one a test wants."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, Protocol

from websockets.sync.client import ClientConnection, connect

Message = dict[str, Any]
TIMEOUT = 30.0  # every receive: a hang guard (a healthy server answers in milliseconds)


class Serving(Protocol):
    """A running server (a process, or in this process) that names a game's WebSocket."""

    def ws(self, game_id: str, token: str | None = None) -> str: ...


class Person:
    """One connection and every message it was sent."""

    def __init__(self, server: Serving, game_id: str, token: str | None = None) -> None:
        self.ws: ClientConnection = connect(server.ws(game_id, token), open_timeout=TIMEOUT)
        self.ws.__enter__()  # a connection opened here is closed by close()
        self.seen: list[Message] = []

    def until(self, wanted: Callable[[Message], bool], what: str) -> Message:
        """The first message from now on that is ``wanted`` (within TIMEOUT)."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no {what} within {TIMEOUT} s; last: {self.seen[-3:]}"[-3000:]
            message: Message = json.loads(self.ws.recv(timeout=left))
            self.seen.append(message)
            if wanted(message):
                return message

    def state(self) -> Message:
        return self.until(lambda m: m["type"] == "state", "state")

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def refused(self) -> str:
        reason: str = self.until(lambda m: m["type"] == "refused", "a refusal")["reason"]
        return reason

    def close(self) -> None:
        self.ws.close()
