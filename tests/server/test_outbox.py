"""One way out: the server sends a connection nothing but through ``server/outbox.py``'s
``deliver``, and whatever it sends is one of the wire's server messages (``wire.server_adapter``:
state, refused, why, talk, advice, told apart by ``type``), checked on a real server for every
kind a person can be sent."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from apokalypse.wire import server_adapter

from .inprocess import Running, serving
from .people import Person

SERVER = Path(__file__).parents[2] / "src" / "apokalypse" / "server"
SENDS = {"send", "send_text", "send_json", "send_bytes"}  # what a WebSocket is written by
TIMEOUT = 30.0


def sends_in(source: str) -> list[int]:
    """The lines of ``source`` that write to a WebSocket (a call of one of :data:`SENDS` on an
    object whose name says it is one: ``websocket``, ``ws``, ``connection.websocket``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = ast.unparse(node.func.value)
            if node.func.attr in SENDS and target.split(".")[-1] in {"websocket", "ws"}:
                found.append(node.lineno)
    return found


def test_the_server_sends_through_the_outbox_alone() -> None:
    elsewhere = {
        path.name: lines
        for path in sorted(SERVER.rglob("*.py"))
        if path.name != "outbox.py" and (lines := sends_in(path.read_text("utf-8")))
    }
    assert elsewhere == {}, f"a send outside server/outbox.py: {elsewhere}"
    assert sends_in((SERVER / "outbox.py").read_text("utf-8")), "the outbox sends"


def test_the_check_sees_a_send() -> None:
    """It would catch the sends the server had before the outbox."""
    before = (
        "async def f(connection, websocket):\n"
        "    await connection.websocket.send_json({})\n"
        "    await websocket.send_text('')\n"
        "    await other.send('')\n"
    )
    assert sends_in(before) == [2, 3]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    path = tmp_path_factory.mktemp("outbox") / "games.sqlite3"
    with serving(f"sqlite:///{path}") as running:
        yield running


@pytest.mark.parametrize("game", ["apokalypse", "apokerlypse"])
def test_every_message_sent_is_a_server_message(server: Running, game: str) -> None:
    """A state, a refusal, a why, talk and the coach's advice, as a person gets them: each
    validates as the game's server message, the kind its ``type`` says."""
    body = {"game": game, "players": 2, "seats": ["human", "heuristic"]}
    created = httpx.post(f"{server.http}/api/games", json=body, timeout=TIMEOUT).json()
    ann = Person(server, created["id"], created["seats"][0]["token"])
    state = ann.until(lambda m: m["type"] == "state" and bool(m["legal"]), "a decision")
    move = state["observation"]["move"]
    ann.send(type="action", action=state["legal"][0]["text"], move=move + 5)  # a stale move
    ann.refused()
    ann.send(type="why", action=state["legal"][0]["text"], move=move)
    ann.until(lambda m: m["type"] == "why", "why")
    ann.send(type="say", text="hello")
    ann.until(lambda m: m["type"] == "talk", "talk")
    ann.send(type="advise")
    ann.until(lambda m: m["type"] == "advice", "advice")
    adapter = server_adapter(game)
    kinds: set[str] = set()
    for message in ann.seen:
        validated = adapter.validate_python(message)
        assert validated["type"] == message["type"]
        kinds.add(message["type"])
    assert kinds == {"state", "refused", "why", "talk", "advice"}, kinds
    ann.close()
