"""The real ``apokalypse serve`` process, as the server's, the browser's and the deployment's
tests start it (:class:`Server`, :func:`started`), and a WebSocket client's steps through a game
(:func:`receive`, :func:`decision`, :func:`play`, :func:`answer`)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
from websockets.sync.client import ClientConnection

from apokalypse.bench.load import answered_for_me

# Every receive and request: a healthy server answers in milliseconds, and a machine that the
# whole suite and more keep busy in seconds; the deadline is for a server that never answers.
TIMEOUT = 30.0
# A server's start: imports and migrations take a second or two, and far longer on a machine
# that the whole suite and more keep busy; the deadline is for a server that never answers.
START = 120.0
APOKALYPSE = Path(sys.executable).with_name("apokalypse")

S = TypeVar("S", bound="Server")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Addressed:
    """A server listening on 127.0.0.1:``port``: its HTTP base and a game's WebSocket URL."""

    port: int

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, game_id: str, token: str | None = None) -> str:
        query = f"?token={token}" if token is not None else ""
        return f"ws://127.0.0.1:{self.port}/ws/games/{game_id}{query}"


class Server(Addressed):
    """``apokalypse serve`` as a subprocess over one database file; restartable."""

    def __init__(self, database: Path, *options: str) -> None:
        self.database_url = f"sqlite:///{database}"
        # More of serve's options; no pause before the computers' decisions (tests wait on
        # the server, not on people following the play), and automatic answers within a moment.
        self.options = ("--computer-delay", "0", "--answer-delay", "0.05", "0.3", *options)
        # What the server writes to stderr (a file, never a pipe nobody reads: a full pipe
        # would stall the server): shown when a test fails, see :meth:`errors`; and stdout.
        self.log = database.with_suffix(".log")
        self.out = database.with_suffix(".out")
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.port = free_port()
        url = self.database_url
        self.process = subprocess.Popen(
            [
                str(APOKALYPSE),
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                url,
                *self.options,
            ],
            stdout=self.out.open("ab"),
            stderr=self.log.open("ab"),
        )
        deadline = time.monotonic() + START
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server ended: {self.errors()}")
            try:
                if httpx.get(f"{self.http}/api/games/none", timeout=1).status_code == 404:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the server did not answer within {START} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # no clean shutdown: a crash must lose nothing either
            self.process.wait(timeout=TIMEOUT)
        self.process = None

    def errors(self) -> str:
        """What the server wrote to stderr so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@contextmanager
def started(server: S) -> Iterator[S]:
    """``server`` started, and stopped on leaving (killed: a crash must lose nothing either)."""
    server.start()
    try:
        yield server
    finally:
        server.stop()


def receive(ws: ClientConnection, messages: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
    messages.append(data)
    return data


def keys(value: object) -> set[str]:
    """Every key of every object in a JSON value."""
    if isinstance(value, dict):
        return set(value).union(*(keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys(v) for v in value))
    return set()


def play(ws: ClientConnection, state: dict[str, Any], n: int, seen: list[dict[str, Any]]) -> Any:
    """Play ``n`` legal actions, plays before passes (or until the game ends); the last state.
    A question the server answers for the seat (a defence it cannot make) is left to it: an
    answer sent too would race the server's, and be refused when it came second."""
    for _ in range(n):
        if not state["legal"]:
            break
        move = state["observation"]["move"]
        if answered_for_me(state):  # left to the server, as the page leaves it: no race
            state = decision(ws, seen, answer(ws, seen, move))
            continue
        legal = [a["text"] for a in state["legal"]]
        action = next((a for a in legal if a != "pass"), "pass")
        ws.send(json.dumps({"action": action, "move": move}))
        state = decision(ws, seen, answer(ws, seen, move))
    return state


def decision(ws: ClientConnection, seen: list[dict[str, Any]], state: dict[str, Any]) -> Any:
    """From ``state`` on, the first state that asks this seat to decide or ends the game: the
    computer players answer a person's action later, each decision in a message of its own."""
    while not state["legal"] and not over(state):
        state = receive(ws, seen)
        assert state["type"] == "state", state
    return state


def over(state: dict[str, Any]) -> bool:
    """Whether a state shows its game over (Apokalypse: its result; Apokerlypse: its step)."""
    observation = state["observation"]
    return "result" in observation or observation.get("step") == "over"


def answer(ws: ClientConnection, seen: list[dict[str, Any]], move: int) -> dict[str, Any]:
    """The state after ``move``: the first state message past it (a message about the seats,
    a person coming or going, may come first and says nothing new of the game)."""
    while True:
        state = receive(ws, seen)
        assert state["type"] == "state", state
        if state["observation"]["move"] > move:
            return state
