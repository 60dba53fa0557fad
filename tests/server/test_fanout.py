"""Scale-out as deployed: two real ``apokalypse serve`` processes over one PostgreSQL database
(127.0.0.1:5432, database ``test``, a schema of the tests' own, dropped afterwards) and one
Redis (127.0.0.1:6379, channels under a prefix of the tests' own). A player on one process sees
at once what a player on the other one did."""

from __future__ import annotations

import json
import secrets
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.helpers import create

from .databases import fresh_schema, reachable
from .served import APOKALYPSE, START, Server, free_port

REDIS = "redis://127.0.0.1:6379/0"
# Every receive and request: a message crosses Redis in milliseconds, and in seconds on a machine
# that the whole suite and more keep busy; the deadline is for a message that never comes.
WAIT = 30.0


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A fresh schema of the ``test`` database for the module, dropped afterwards; its URL."""
    reachable("127.0.0.1", 6379, "Redis")
    with fresh_schema() as url:
        yield url


class Process(Server):
    """One ``apokalypse serve`` of several over one database and one Redis, started at once
    (:meth:`ready` says when it answers)."""

    def __init__(self, database_url: str, prefix: str) -> None:
        self.database_url = database_url
        self.port = free_port()
        command = [
            str(APOKALYPSE),
            "serve",
            *("--port", str(self.port)),
            *("--database-url", database_url),
            *("--redis-url", REDIS),
            *("--channel-prefix", prefix),
            *("--computer-delay", "0"),
        ]
        self.process: subprocess.Popen[bytes] | None = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    def ready(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            error = self.process.stderr.read() if self.process.stderr else b""
            raise AssertionError(f"the server ended: {error.decode(errors='replace')}")
        try:
            return httpx.get(f"{self.http}/api/games/none", timeout=1).status_code == 404
        except httpx.TransportError:
            return False


@pytest.fixture(scope="module")
def processes(database: str) -> Iterator[tuple[Process, Process]]:
    """Two server processes, A and B, started side by side with a channel prefix of their own;
    killed afterwards. One pair for the module: each start costs seconds, and every test plays
    games of its own."""
    prefix = f"apokalypse-test:{secrets.token_hex(6)}:"
    started = [Process(database, prefix), Process(database, prefix)]
    try:
        deadline = time.monotonic() + START
        waiting = list(started)
        while waiting:
            assert time.monotonic() < deadline, f"a server did not answer within {START} s"
            waiting = [process for process in waiting if not process.ready()]
            if waiting:
                time.sleep(0.1)
        yield started[0], started[1]
    finally:
        for process in started:
            process.stop()


def receive(ws: ClientConnection) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
    return data


def receive_move(ws: ClientConnection, move: int) -> list[dict[str, Any]]:
    """The states a connection is sent until its game reaches ``move`` (within ``WAIT``)."""
    deadline = time.monotonic() + WAIT
    states: list[dict[str, Any]] = []
    while not states or states[-1]["observation"]["move"] < move:
        left = deadline - time.monotonic()
        assert left > 0, f"move {move} did not arrive within {WAIT} s: {states[-1:]}"
        data: dict[str, Any] = json.loads(ws.recv(timeout=left))
        assert data["type"] == "state", data
        states.append(data)
    assert states[-1]["observation"]["move"] == move, states[-1]
    return states


def send(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    """Play a legal action (plays before passes); the state it is answered with."""
    legal = [a["text"] for a in state["legal"]]
    action = next((a for a in legal if a != "pass"), "pass")
    ws.send(json.dumps({"action": action, "move": state["observation"]["move"]}))
    answer = receive(ws)
    assert answer["type"] == "state", answer
    return answer


def test_a_move_on_one_process_reaches_a_spectator_on_the_other(
    processes: tuple[Process, Process],
) -> None:
    a, b = processes
    created = create(a, seats=["human", "heuristic"])
    game_id, token = created["id"], created["seats"][0]["token"]
    with (
        connect(a.ws(game_id, token), open_timeout=WAIT) as player,
        connect(b.ws(game_id), open_timeout=WAIT) as spectator,
    ):
        state = receive(player)
        view = receive(spectator)
        assert view["observation"]["seat"] is None
        events: list[dict[str, Any]] = []
        # The computer may begin: its moves come first (the player is sent the game at once,
        # while it thinks; the spectator's process rebuilt it from the store, perhaps later).
        while not state["legal"]:
            state = receive(player)
        if view["observation"]["move"] < state["observation"]["move"]:
            receive_move(spectator, state["observation"]["move"])  # the spectator saw them too
        else:
            assert view["observation"]["move"] == state["observation"]["move"]
        for _ in range(6):
            if not state["legal"]:
                break
            answers = [send(player, state)]  # then the computer's moves, each a message
            while not answers[-1]["legal"] and "result" not in answers[-1]["observation"]:
                answers.append(receive(player))
            state = answers[-1]
            mine = [e for answer in answers for e in answer["events"]]
            updates = receive_move(spectator, state["observation"]["move"])
            seen = [e for update in updates for e in update["events"]]
            # the same events as the player's (some actions make none), as a spectator sees them
            assert len(seen) == len(mine), (seen, mine)
            assert [e["kind"] for e in seen] == [e["kind"] for e in mine]
            assert not any(e["seen"] for e in seen) and "hand" not in updates[-1]["observation"]
            assert updates[-1]["legal"] == []
            events += seen
        assert state["observation"]["move"] > 6 and events
        assert any(e["args"].get("actor") == 1 for e in events), "the computer's answers too"
    summary = httpx.get(f"{b.http}/api/games/{game_id}", timeout=WAIT).json()
    assert summary["move"] == state["observation"]["move"]


def test_two_people_on_two_processes_play_each_other(processes: tuple[Process, Process]) -> None:
    a, b = processes
    created = create(a, seats=["human", "human"])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    with (
        connect(a.ws(game_id, tokens[0]), open_timeout=WAIT) as first,
        connect(b.ws(game_id, tokens[1]), open_timeout=WAIT) as second,
    ):
        sockets = {0: first, 1: second}
        states = {0: receive(first), 1: receive(second)}
        crossed = set()  # the processes whose moves reached the other one
        for _ in range(12):
            if states[0]["observation"]["move"] != states[1]["observation"]["move"]:
                raise AssertionError(f"the seats disagree: {states}")
            mover = next((seat for seat in (0, 1) if states[seat]["legal"]), None)
            if mover is None:  # over
                break
            other = 1 - mover
            states[mover] = send(sockets[mover], states[mover])
            move = states[mover]["observation"]["move"]
            updates = receive_move(sockets[other], move)
            seen = [e for update in updates for e in update["events"]]
            assert len(seen) == len(states[mover]["events"]), "the events arrive with the move"
            states[other] = updates[-1]
            crossed.add("A" if mover == 0 else "B")
        assert crossed == {"A", "B"}, f"only moves through {crossed} were played"
    for process in (a, b):
        summary = httpx.get(f"{process.http}/api/games/{game_id}", timeout=WAIT).json()
        assert summary["move"] == states[0]["observation"]["move"]


def away_seen(ws: ClientConnection, seat: int) -> dict[str, Any]:
    """The first state in which ``seat`` is played by a computer (within ``WAIT``)."""
    deadline = time.monotonic() + WAIT
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"seat {seat} was not handed over within {WAIT} s"
        data: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if data["type"] == "state" and data["seats"][seat]["away"]:
            return data


def test_a_clock_run_by_two_processes_hands_the_seat_over_once(
    processes: tuple[Process, Process],
) -> None:
    """Both processes serving a game run its clock; the one that hears of the decision last
    finds the seat handed over already, and nobody is thrown out (no 1012) by the race."""
    a, b = processes
    body = {"game": "apokalypse", "players": 2, "seats": ["human", "human"]}
    body["timer"] = {"turn": 0.5, "bank": 0}
    response = httpx.post(f"{a.http}/api/games", json=body, timeout=WAIT)
    assert response.status_code == 200, response.text
    created = response.json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    with (
        connect(a.ws(game_id, tokens[0]), open_timeout=WAIT) as first,
        connect(b.ws(game_id, tokens[1]), open_timeout=WAIT) as second,
    ):
        sockets = (first, second)
        states = [receive(first), receive(second)]
        mover = states[0]["observation"]["to_act"]
        # One prompt answer, so that both processes hear of the next decision within
        # milliseconds of each other (one applies the move, the other hears of it)
        start = send(sockets[mover], states[mover])
        if start["seats"][mover]["away"]:
            # The mover's own time ran out first (a busy machine: the clock started when the
            # game was opened): the same race, on the mover's seat, which one process hands
            # over and the other hears of.
            decider = mover
        else:
            decider = start["observation"]["to_act"]
            assert start["clock"]["deciding"]["seat"] == decider
        # Nobody answers: half a second later a computer player has the decider's seat. Both
        # connections see it (a 1012 from an evicted game would raise ConnectionClosed).
        for ws in sockets:
            assert away_seen(ws, decider)["seats"][1 - decider]["kind"] == "human"
    summary = httpx.get(f"{b.http}/api/games/{game_id}", timeout=WAIT).json()
    assert summary["move"] > start["observation"]["move"], "the computer player played"


def test_a_seat_left_on_one_process_is_seen_on_the_other(
    processes: tuple[Process, Process],
) -> None:
    """Changes without a move (a seat handed over, taken back) cross the fan-out too."""
    a, b = processes
    created = create(a, seats=["human", "human"])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    with (
        connect(a.ws(game_id, tokens[0]), open_timeout=WAIT) as first,
        connect(b.ws(game_id, tokens[1]), open_timeout=WAIT) as second,
    ):
        receive(first)
        receive(second)
        second.send(json.dumps({"type": "leave"}))  # through B: A's connection learns it
        assert away_seen(first, 1)["seats"][1]["away"]
        second.send(json.dumps({"type": "reclaim"}))
        deadline = time.monotonic() + WAIT
        while (state := receive(first))["seats"][1]["away"]:
            assert time.monotonic() < deadline, "the reclaim did not cross"
        assert state["type"] == "state"


def test_names_and_talk_reach_the_other_process(processes: tuple[Process, Process]) -> None:
    """The store is the truth: a name chosen or a line said through one process reaches the
    connections of the other, each by the talk's rule (a spectator's line reaches no player)."""
    a, b = processes
    created = create(a, seats=["human", "human"])
    game_id = created["id"]
    first, second = (seat["token"] for seat in created["seats"])

    def until(ws: ClientConnection, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + WAIT
        while not seen or not wanted(seen[-1]):
            left = deadline - time.monotonic()
            assert left > 0, f"nothing wanted within {WAIT} s: {seen[-3:]}"
            seen.append(json.loads(ws.recv(timeout=left)))
        return seen[-1]

    def says(text: str) -> Callable[[dict[str, Any]], bool]:
        return lambda m: m["type"] == "talk" and any(x["text"] == text for x in m["lines"])

    with (
        connect(a.ws(game_id, first), open_timeout=WAIT) as ann,
        connect(b.ws(game_id, second), open_timeout=WAIT) as bob,
        connect(b.ws(game_id), open_timeout=WAIT) as watcher,
        connect(a.ws(game_id), open_timeout=WAIT) as other,
    ):
        for ws in (ann, bob, watcher, other):
            receive(ws)
        ann.send(json.dumps({"type": "name", "name": "Ann"}))
        named = until(bob, lambda m: m["type"] == "state" and m["seats"][0]["name"] == "Ann")
        assert named["names"][0] == "Ann"
        until(watcher, lambda m: m["type"] == "state" and m["names"][0] == "Ann")

        watcher.send(json.dumps({"type": "say", "text": "look at her hand"}))
        until(other, says("look at her hand"))  # a spectator on the other process reads it
        bob.send(json.dumps({"type": "say", "text": "Good game"}))
        line = until(ann, lambda m: m["type"] == "talk")["lines"]  # the player's next line …
        assert [x["text"] for x in line] == ["Good game"]  # … and nothing said before it
        assert line[0]["seat"] == 1 and line[0]["name"] == "p2"
        until(other, says("Good game"))
