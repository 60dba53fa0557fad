"""Two server processes' race, reproduced step by step: process B rebuilds a game from the store
while process A applies a move to it and tells B through Redis. B's rebuild read the store
before the move, and the notice came while the game was not yet in B's memory: B must still end
up with the move (it used to keep the older copy, and a player on B never saw their turn)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from websockets.sync.client import connect

from apokalypse.server import hub as hub_module
from apokalypse.server.clock import Ticks
from apokalypse.server.days import Now
from apokalypse.server.entries import Logged
from apokalypse.server.games import LiveGame
from apokalypse.server.making import rebuild
from apokalypse.server.store import Store

from .databases import fresh_schema, reachable
from .inprocess import Running, shown_beyond, two_processes, wait_until

REDIS = "redis://127.0.0.1:6379/0"
TIMEOUT = 30.0  # every receive and request: a hang guard, on a busy machine too


@pytest.fixture
def database() -> Iterator[str]:
    reachable("127.0.0.1", 6379, "Redis")
    with fresh_schema() as url:
        yield url


def two_people(server: Running) -> tuple[str, list[str]]:
    """A new game of two people on ``server``: its id and its seats' tokens."""
    request = {"game": "apokalypse", "players": 2, "seats": ["human", "human"]}
    created = httpx.post(f"{server.http}/api/games", json=request, timeout=TIMEOUT).json()
    return created["id"], [seat["token"] for seat in created["seats"]]


def test_a_move_made_while_another_process_rebuilds_the_game_reaches_it(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = threading.Event()  # B's rebuild has read the store
    go = threading.Event()  # … and may finish now
    heard = threading.Event()  # B was told that the game advanced
    real = rebuild

    def gated(store: Store, game_id: str, now: Now, ticks: Ticks) -> LiveGame:
        live = real(store, game_id, now, ticks)
        read.set()
        assert go.wait(TIMEOUT), "the test never let the rebuild finish"
        return live

    def listening(app: FastAPI) -> None:
        hub = app.state.hub
        catch_up = hub.catch_up

        async def told(game_id: str, move: int | None, entries: tuple[Logged, ...]) -> None:
            await catch_up(game_id, move, entries)
            heard.set()

        hub.catch_up = told  # handed to the fan-out's listener when the app starts

    with two_processes(database, REDIS, listening) as (a, b):
        game_id, tokens = two_people(a)
        with connect(a.ws(game_id, tokens[0])) as zero, connect(a.ws(game_id, tokens[1])) as one:
            states = [json.loads(ws.recv(timeout=TIMEOUT)) for ws in (zero, one)]
            actor = next(seat for seat, state in enumerate(states) if state["legal"])
            other = 1 - actor
            monkeypatch.setattr(hub_module, "rebuild", gated)
            with connect(b.ws(game_id, tokens[other])) as on_b:
                assert read.wait(TIMEOUT), "B did not start rebuilding the game"
                mover = (zero, one)[actor]
                state = states[actor]
                move = state["observation"]["move"]
                mover.send(json.dumps({"action": state["legal"][0]["text"], "move": move}))
                assert heard.wait(TIMEOUT), "B was not told of the move"
                go.set()
                wait_until(shown_beyond(on_b, move), "the player on B shown A's move")


def test_a_move_the_store_refuses_rebuilds_the_game_in_place(database: str) -> None:
    """Two processes take the same decision: B never hears of A's move (its notices are held
    back here), so its copy is behind and lets the seat's second tab act too. The store keeps
    A's move and refuses B's. B rebuilds the game from the store in place: the tab on B is told
    that its move was not taken (it used to be closed with 1012, its action dropped without a
    word), stays open, and is sent the game as it stands."""

    def deaf(app: FastAPI) -> None:
        async def told(game_id: str, move: int | None, entries: tuple[Logged, ...]) -> None:
            return None  # B hears nothing of A's moves

        app.state.hub.catch_up = told

    with two_processes(database, REDIS, deaf) as (a, b):
        game_id, tokens = two_people(a)
        with connect(a.ws(game_id, tokens[0])) as zero, connect(a.ws(game_id, tokens[1])) as one:
            states = [json.loads(ws.recv(timeout=TIMEOUT)) for ws in (zero, one)]
            actor = next(seat for seat, state in enumerate(states) if state["legal"])
            with connect(b.ws(game_id, tokens[actor])) as on_b:
                seen_on_b = json.loads(on_b.recv(timeout=TIMEOUT))
                move = seen_on_b["observation"]["move"]
                assert seen_on_b["legal"] and move == states[actor]["observation"]["move"]
                on_a = (zero, one)[actor]
                on_a.send(json.dumps({"action": states[actor]["legal"][0]["text"], "move": move}))

                def answered(ws: Any) -> dict[str, Any]:
                    while True:
                        data: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
                        if data["type"] != "state" or data["observation"]["move"] > move:
                            return data

                assert answered(on_a)["type"] == "state", "A took the move"
                # B is behind: it shows the decision still open, and lets the tab on B act
                on_b.send(json.dumps({"action": seen_on_b["legal"][-1]["text"], "move": move}))
                # the rebuilt game, on the same connection, and why the move was not taken
                replies = {data["type"]: data for data in (answered(on_b), answered(on_b))}
                assert set(replies) == {"state", "refused"}, replies
                assert "came first" in replies["refused"]["reason"], replies
                caught_up = replies["state"]
                assert caught_up["observation"]["move"] > move
                record = Store.open(database).load(game_id)
                assert len(record.actions) == 1, "one move stored: A's"
                assert record.actions[0] == states[actor]["legal"][0]["text"]
                # the connection on B goes on: it can still be answered
                now = caught_up["observation"]["move"]
                on_b.send(json.dumps({"type": "why", "action": "x", "move": now}))
                assert json.loads(on_b.recv(timeout=TIMEOUT))["type"] == "why"
