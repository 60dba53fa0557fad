"""What a client can make the server do is bounded, and nothing a client sends breaks it: each
test here is a finding of an adversarial try-out, run against a real server (uvicorn, real
WebSockets) with its hub at hand to see what it keeps in memory."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from apokalypse.server.computers import IDLE, URGENT
from apokalypse.server.connection import BURST, CLOSE_TRY_LATER, Connection, Made
from apokalypse.server.room import MAX_TABS, Room, Viewer
from apokalypse.server.settings import Settings

from .inprocess import Running, serving, wait_until

TIMEOUT = 30.0  # every receive and request: a hang guard, on a busy machine too
T = TypeVar("T")


def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    with serving(database(tmp_path), Settings(idle_seconds=3600)) as running:
        yield running


def create(server: Running, seats: list[str] | None = None, **body: Any) -> dict[str, Any]:
    seats = seats if seats is not None else ["human", "human"]
    request = {"game": "apokalypse", "players": len(seats), "seats": seats, **body}
    response = httpx.post(f"{server.http}/api/games", json=request, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    return created


def receive(ws: ClientConnection) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
    return data


def until(ws: ClientConnection, wanted: Any) -> dict[str, Any]:
    deadline = time.monotonic() + TIMEOUT
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if wanted(message):
            return message  # type: ignore[no-any-return]


def in_memory(server: Running, game_id: str) -> bool:
    return server.call(lambda: game_id in server.hub.rooms)


# -- computer players: never inside a request, on their own pool ------------------------------


def test_an_all_computer_game_is_made_at_once_and_played_on_afterwards(server: Running) -> None:
    """Creating a game of computers returns before they play it out (they used to play the
    whole game inside the request, on the threads that answer everybody)."""
    created = create(server, ["random", "random", "random"])
    summary = httpx.get(f"{server.http}/api/games/{created['id']}", timeout=TIMEOUT).json()
    assert not summary["over"], "played out inside the request"
    with connect(server.ws(created["id"]), open_timeout=TIMEOUT) as spectator:
        first = receive(spectator)["observation"]["move"]
        later = until(
            spectator, lambda m: m["type"] == "state" and m["observation"]["move"] > first
        )
        assert later["observation"]["seat"] is None  # a spectator's view, move by move


def test_people_are_answered_while_hard_computer_games_are_made(server: Running) -> None:
    """Six games of the strong computer players made at once leave a person's game answered
    (before, people waited a minute: the hard games were played inside the requests that made
    them). Told by order, not by time: every answer came while the six were being played (none
    over, their computers at work), and each decision of the person's computer waited behind
    no more of their decisions than the one under way (a game somebody waits for goes first)."""
    created = create(server, ["human", "random"])
    hub = server.hub
    pool: list[tuple[str, int]] = []  # ("queued" | "started", priority) of each decision, in order
    run = hub.computers.run

    async def watched(priority: int, work: Callable[[], T]) -> T:
        pool.append(("queued", priority))

        def started() -> T:  # on the pool's thread, when the decision's turn came
            pool.append(("started", priority))
            return work()

        return await run(priority, started)

    server.call(lambda: setattr(hub.computers, "run", watched))
    made: list[str] = []

    def make() -> None:
        game = create(server, ["hard"] * 4)
        assert len(game["seats"]) == 4
        made.append(game["id"])

    makers = [threading.Thread(target=make) for _ in range(6)]
    for maker in makers:
        maker.start()
    answered = 0
    with connect(server.ws(created["id"], created["seats"][0]["token"])) as ws:
        state = until(ws, lambda m: m["type"] == "state")
        for _ in range(8):
            if not state["legal"]:
                state = until(ws, lambda m: m["type"] == "state" and m["legal"])
            move = state["observation"]["move"]
            ws.send(json.dumps({"action": state["legal"][-1]["text"], "move": move}))
            state = until(
                ws, lambda m, move=move: m["type"] == "state" and m["observation"]["move"] > move
            )
            answered += 1
        for maker in makers:
            maker.join(timeout=TIMEOUT)
        assert len(made) == 6
        # The hard games, now that the person was answered eight times: still played.
        playing = server.call(
            lambda: [
                game in hub.rooms
                and not hub.rooms[game].live.state.is_over
                and hub.rooms[game].computing is not None
                for game in made
            ]
        )
    assert answered == 8 and playing == [True] * 6, playing
    events = list(pool)
    # The person's computer's decisions (their game's, URGENT): each waited behind at most the
    # hard decision under way when it was queued (one pool thread), never behind their queue.
    waits, waiting = [], None
    for event, priority in events:
        if (event, priority) == ("queued", URGENT):
            waiting = 0
        elif (event, priority) == ("started", URGENT):
            assert waiting is not None
            waits.append(waiting)
            waiting = None
        elif event == "started" and waiting is not None:
            waiting += 1
    assert waits and max(waits) <= hub.computers.threads, waits
    # … while every hard game had its decisions queued (IDLE: nobody watches): at least one
    # each, however slowly a loaded machine thinks them (a second each was not always there).
    assert events.count(("queued", IDLE)) >= len(made), events


# -- memory: games nobody needs are released ---------------------------------------------------


def test_looking_at_a_game_does_not_load_it(tmp_path: Path) -> None:
    url = database(tmp_path)
    # Idle games stay an hour: a game a look had loaded would still be held afterwards.
    with serving(url, Settings(idle_seconds=3600)) as server:
        game_id = create(server)["id"]
        assert not in_memory(server, game_id), "a game of people waits in the store until opened"
        summary = httpx.get(f"{server.http}/api/games/{game_id}", timeout=TIMEOUT)
        assert summary.status_code == 200 and summary.json()["move"] == 0
        assert not in_memory(server, game_id), "a look loaded the game"
        missing = httpx.get(f"{server.http}/api/games/nosuchgame", timeout=TIMEOUT)
        assert missing.status_code == 404 and "nosuchgame" in missing.json()["detail"]


def test_games_nobody_opens_or_whose_people_all_left_are_released(tmp_path: Path) -> None:
    idle = 60.0
    with serving(database(tmp_path), Settings(idle_seconds=idle)) as server:
        clock = server.still_clock()  # idle time passes when this test says so
        unopened = create(server)["id"]
        left = create(server)
        with connect(server.ws(left["id"], left["seats"][0]["token"]), open_timeout=TIMEOUT) as ws:
            receive(ws)
            clock.advance(2 * idle)
            assert server.release_idle() == 0
            assert in_memory(server, left["id"]), "held while somebody is connected"
        wait_until(lambda: server.call(server.hub.connection_count) == 0, "the tab closed")
        clock.advance(idle - 1)
        assert server.release_idle() == 0, "a reload within idle_seconds finds it here"
        assert in_memory(server, left["id"])
        clock.advance(1)
        server.release_idle()  # (the hub's own look, every few seconds, may come first)
        assert not in_memory(server, unopened), "the unopened game was never held"
        assert not in_memory(server, left["id"]), "the game everybody left released"
        # … and opened again from the store, where it stood
        with connect(server.ws(left["id"], left["seats"][0]["token"]), open_timeout=TIMEOUT) as ws:
            assert receive(ws)["observation"]["move"] == 0
            assert in_memory(server, left["id"])


def test_memory_holds_a_bounded_number_of_games(tmp_path: Path) -> None:
    settings = Settings(max_games=2, idle_seconds=3600)
    with serving(database(tmp_path), settings) as server, ExitStack() as stack:
        first, second = create(server), create(server)
        opened = [
            stack.enter_context(connect(server.ws(game["id"], game["seats"][0]["token"])))
            for game in (first, second)
        ]
        for ws in opened:
            receive(ws)
        # both held and watched: no room for a third
        refused = httpx.post(
            f"{server.http}/api/games",
            json={"game": "apokalypse", "players": 2, "seats": ["human", "human"]},
            timeout=TIMEOUT,
        )
        assert refused.status_code == 503 and "games" in refused.json()["detail"]
        assert refused.headers["retry-after"]
        opened.pop().close()  # the second game left: idle, so the oldest idle one goes
        wait_until(lambda: server.call(server.hub.connection_count) == 1, "the tab closed")
        third = create(server)  # held once opened: the oldest idle game goes then
        with connect(server.ws(third["id"], third["seats"][0]["token"])) as ws:
            receive(ws)
            held = server.call(lambda: set(server.hub.rooms))
        assert held == {first["id"], third["id"]}


def test_one_address_creates_a_bounded_number_of_games(tmp_path: Path) -> None:
    settings = Settings(create_burst=3, create_per_minute=1)
    with serving(database(tmp_path), settings) as server:
        for _ in range(3):
            create(server)
        refused = httpx.post(
            f"{server.http}/api/games",
            json={"game": "apokalypse", "players": 2, "seats": ["human", "human"], "lang": "de"},
            timeout=TIMEOUT,
        )
        assert refused.status_code == 429
        assert "Spiele" in refused.json()["detail"] and int(refused.headers["retry-after"]) >= 1


# -- what a connection may send ----------------------------------------------------------------


def test_a_binary_frame_is_refused_and_the_connection_goes_on(server: Running) -> None:
    created = create(server)
    with connect(server.ws(created["id"], created["seats"][0]["token"])) as ws:
        receive(ws)
        ws.send(b"\x00\x01binary")
        refused = receive(ws)
        assert refused["type"] == "refused" and "binary" in refused["reason"]
        ws.send(json.dumps({"type": "leave"}))
        assert until(ws, lambda m: m["type"] == "state")["seats"][0]["away"]


def test_deeply_nested_json_is_refused_and_the_connection_goes_on(server: Running) -> None:
    created = create(server)
    with connect(server.ws(created["id"], created["seats"][0]["token"])) as ws:
        receive(ws)
        ws.send("[" * 1500 + "]" * 1500)  # 3,000 bytes: under the size limit
        refused = receive(ws)
        assert refused["type"] == "refused" and "message" in refused["reason"].lower()
        ws.send(json.dumps({"type": "leave"}))
        assert until(ws, lambda m: m["type"] == "state")["seats"][0]["away"]


def test_accepted_seat_messages_are_rate_limited(server: Running) -> None:
    """Leaving and taking back a seat is accepted, and pushed to every connection: a client
    toggling it as fast as it can is told to stop, and the others are not flooded. The pace
    counts by the hub's clock, which stands still here: the burst and not one message more
    passes, however long a busy machine takes to read them. The seat toggled is not the one
    deciding: its stand-in never acts, so every push the other is sent is a toggle's."""
    server.still_clock()
    created = create(server)
    tokens = [seat["token"] for seat in created["seats"]]
    with connect(server.ws(created["id"], tokens[0])) as zero:
        deciding = bool(receive(zero)["legal"])
        with connect(server.ws(created["id"], tokens[1])) as one:
            receive(one)
            assert receive(zero)["seats"][1]["connected"], "told that the other seat came"
            ws, other = (one, zero) if deciding else (zero, one)
            for n in range(200):
                ws.send(json.dumps({"type": "leave" if n % 2 == 0 else "reclaim"}))
            flood = until(ws, lambda m: m["type"] == "refused")
            assert "Too many" in flood["reason"]
            pushed = 0
            with pytest.raises(TimeoutError):
                while True:
                    other.recv(timeout=1.0)
                    pushed += 1
            assert pushed <= BURST, f"{pushed} pushes to the other seat"


# -- connections per game ----------------------------------------------------------------------


def test_spectators_and_tabs_are_capped_per_game(tmp_path: Path) -> None:
    settings = Settings(max_connections=3, idle_seconds=3600)
    with serving(database(tmp_path), settings) as server, ExitStack() as stack:
        created = create(server)
        game_id, token = created["id"], created["seats"][0]["token"]
        watchers = [stack.enter_context(connect(server.ws(game_id))) for _ in range(3)]
        tabs = [stack.enter_context(connect(server.ws(game_id, token))) for _ in range(MAX_TABS)]
        for ws in watchers + tabs:
            assert receive(ws)["type"] == "state"
        for url in (server.ws(game_id), server.ws(game_id, token)):
            with connect(url, open_timeout=TIMEOUT) as turned_away:
                with pytest.raises(ConnectionClosed) as closed:
                    turned_away.recv(timeout=TIMEOUT)
                assert closed.value.rcvd is not None
                assert closed.value.rcvd.code == CLOSE_TRY_LATER
        # the other seat still gets in
        with connect(server.ws(game_id, created["seats"][1]["token"])) as friend:
            assert receive(friend)["seat"] == 1


def test_arrivals_of_spectators_cost_no_work_per_connection(
    server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator's arrival changes no other view: it is sent its own, and nobody else is even
    looked at (every arrival used to go over every connection: 300 spectators took 47 s)."""
    created = create(server)
    sends: list[object] = []
    send = Room.send

    def counted(room: Room, connection: Connection, made: dict[Viewer, Made]) -> None:
        sends.append(connection)
        send(room, connection, made)

    monkeypatch.setattr(Room, "send", counted)  # counts the views looked at
    seat = server.ws(created["id"], created["seats"][0]["token"])
    with connect(seat) as player, ExitStack() as stack:
        receive(player)
        watchers = 20
        for _ in range(watchers):
            receive(stack.enter_context(connect(server.ws(created["id"]))))
        with pytest.raises(TimeoutError):
            player.recv(timeout=0.5)
        assert len(sends) == 1 + watchers, f"{len(sends)} views looked at for {watchers} arrivals"
