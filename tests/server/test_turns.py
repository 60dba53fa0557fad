"""People's time at the table, served in-process (the hub at hand): the server answers for a
person a window's question they cannot but decline (R-ATTACK-4, R-INFO-3: everybody is asked in
turn), after a moment, whether or not they have the game open, unless they turned that off, and
nobody else can tell it from a chosen answer; the computers' decisions paced for people to
follow; games over days whose deadlines are kept in the store and swept by a test clock; and
"my games" asking where each of its seats is awaited. Where a test says how long something took,
the hub's clock is one the test moves (:meth:`Running.still_clock`), not the machine's."""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from apokalypse.engine.record import GameRecord
from apokalypse.engine.registry import get_game
from apokalypse.server.awaited import MAX_SEATS
from apokalypse.server.making import NewGame, computer_players, create
from apokalypse.server.settings import Settings
from apokalypse.server.setup import TURN_BASED
from apokalypse.server.store import Store
from apokalypse.server.tokens import hash_token

from .inprocess import Running, serving, wait_until

TIMEOUT = 30.0  # every receive: a hang guard, on a busy machine too (nothing here is timed by it)
GAME_SECONDS = 240.0  # a whole game of people played through: a hang guard too
ANSWERS = frozenset({"decline", "allow"})  # the verbs that answer a window's question
DELAY = (0.4, 0.6)  # the automatic answers' delay in these tests
# Called with a connection's index, a message it received and its socket (played_through).
Aside = Callable[[int, dict[str, Any], ClientConnection], None]


class Clock:
    """A test clock: the real time, moved forward at will (the hub's ``now``)."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead


@dataclass(frozen=True)
class Drawn(Settings):
    """The server's settings, keeping every automatic answer's delay drawn (in order)."""

    drawn: list[float] = field(default_factory=list, compare=False)

    def answer_after(self) -> float:
        delay = super().answer_after()
        self.drawn.append(delay)
        return delay


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    settings = Drawn(answer_delay=DELAY, seats_burst=4)
    with serving(f"sqlite:///{tmp_path / 'db.sqlite3'}", settings) as server:
        yield server


def post(running: Running, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{running.http}/api/games", json=body, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    return created


def receive(ws: ClientConnection, timeout: float = TIMEOUT) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    assert message["type"] == "state", message
    return message


def forced(message: dict[str, Any]) -> bool:
    """A window's question the seat cannot but decline."""
    legal = message["legal"]
    return len(legal) == 1 and legal[0]["verb"] in ANSWERS


def act(ws: ClientConnection, message: dict[str, Any], rng: random.Random) -> None:
    choice = rng.choice(message["legal"])["text"]
    ws.send(json.dumps({"action": choice, "move": message["observation"]["move"]}))


def up_to_a_forced_question(
    ws: ClientConnection, rng: random.Random, message: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """Play my decisions at random up to a question I cannot but decline (that message); None
    when the game ended first."""
    message = receive(ws) if message is None else message
    while "result" not in message["observation"]:
        if forced(message):
            return message
        if message["legal"]:
            act(ws, message, rng)
        message = receive(ws)
    return None


def a_forced_question(
    running: Running, rng: random.Random, manual: bool = False
) -> tuple[dict[str, Any], ClientConnection, dict[str, Any]]:
    """A game of two random players and me, played up to a question I cannot but decline (a
    few games at most): the game, my open connection, that question. ``manual``: I turned
    the automatic answers off first."""
    for _ in range(8):
        body = {"game": "apokalypse", "players": 3, "seats": ["random", "random", "human"]}
        created = post(running, body)
        url = running.ws(created["id"], created["seats"][2]["token"])
        ws = connect(url, open_timeout=TIMEOUT).__enter__()  # left by the caller's ``with ws``
        first = receive(ws)
        assert first["auto"] is True, "on unless the person turns it off"
        if manual:
            ws.send(json.dumps({"type": "auto", "on": False}))
            while (first := receive(ws))["auto"] is not False:
                pass
        question = up_to_a_forced_question(ws, rng, first)
        if question is not None:
            return created, ws, question
        ws.close()
    raise AssertionError("no forced question in 8 games")


def test_a_question_i_cannot_but_decline_is_answered_for_me_after_a_moment(
    running: Running,
) -> None:
    """R-ATTACK-4: a person asked in a defence window who cannot defend is answered for, not
    before the least delay and within the most, the seat kept, the answer stored as theirs.
    The delay passes on the hub's clock, which stands still until this test moves it."""
    clock = running.still_clock()
    settings = running.hub.settings
    assert isinstance(settings, Drawn)
    created, ws, question = a_forced_question(running, random.Random(1))
    move = question["observation"]["move"]
    store = running.hub.store
    with ws:
        # The delay is drawn once the question is sent: one, within the range.
        wait_until(lambda: settings.drawn, "the answer's delay drawn")
        (delay,) = settings.drawn
        assert DELAY[0] <= delay <= DELAY[1], delay
        clock.advance(delay - 0.05)  # not yet: nothing is answered
        with pytest.raises(TimeoutError):
            receive(ws, timeout=1.0)
        assert len(store.load(created["id"]).actions) == move, "answered before the delay"
        clock.advance(0.1)  # the delay passed: answered now
        answered = receive(ws)
    shown = answered["observation"]  # in the window still, perhaps: its opening move then
    assert shown["to_act"] != 2 or shown["move"] > move, "I am not asked it any more"
    assert not answered["seats"][2]["away"], "answered for, not taken over"
    record = running.hub.store.load(created["id"])
    assert record.actions[move] == question["legal"][0]["text"], "stored as the answer given"


def test_a_person_who_turned_it_off_is_left_the_question(running: Running) -> None:
    """With the setting off, the question waits for the person (no timer here: for ever), and
    their own decline is taken."""
    created, ws, question = a_forced_question(running, random.Random(2), manual=True)
    with ws:
        assert question["auto"] is False
        room = running.call(lambda: running.hub.rooms[created["id"]])
        assert running.call(lambda: room.answering) is None, "no answer on its way"
        with pytest.raises(TimeoutError):  # well past the most delay: nothing happened
            receive(ws, timeout=DELAY[1] + 1.0)
        move = question["observation"]["move"]
        ws.send(json.dumps({"action": question["legal"][0]["text"], "move": move}))
        shown = receive(ws)["observation"]
        assert shown["to_act"] != 2 or shown["move"] > move, "my decline was taken"
        ws.send(json.dumps({"type": "auto", "on": "yes"}))  # bad input: refused, one line
        refused = json.loads(ws.recv(timeout=TIMEOUT))
        while refused["type"] == "state":  # the computers play on meanwhile
            refused = json.loads(ws.recv(timeout=TIMEOUT))
        assert refused["type"] == "refused" and "\n" not in refused["reason"], refused


def test_a_person_who_closed_the_game_is_answered_for_too(running: Running) -> None:
    created, ws, question = a_forced_question(running, random.Random(3))
    ws.close()  # gone: nobody has the game open
    move = question["observation"]["move"]
    store = running.hub.store
    wait_until(lambda: len(store.load(created["id"]).actions) > move, "answered for", TIMEOUT)


def test_the_computers_pause_for_people_but_not_in_tests(tmp_path: Path) -> None:
    """A game somebody waits on: a pause before each computer decision; the tests' servers
    pass none."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with serving(url) as plain:
        assert plain.hub.settings.computer_delay == 0
    assert Settings().computer_delay == 0.6  # what ``apokalypse serve`` uses unless told
    pause = 0.25
    with serving(url, computer_delay=pause) as paced:
        body = {"game": "apokerlypse", "players": 3, "seats": ["human", "random", "random"]}
        created = post(paced, body)
        rng = random.Random(4)
        with connect(paced.ws(created["id"], created["seats"][0]["token"])) as ws:
            message = receive(ws)
            while not message["legal"]:
                message = receive(ws)
            computers, waited = 0, 0.0
            while computers < 6 and "result" not in message["observation"]:
                move = message["observation"]["move"]
                act(ws, message, rng)
                sent = time.monotonic()
                message = receive(ws)
                while not message["legal"] and "result" not in message["observation"]:
                    message = receive(ws)
                # Every decision between mine was a computer's, each after a pause.
                computers += message["observation"]["move"] - move - 1
                waited += time.monotonic() - sent
    assert computers >= 2, computers
    assert waited >= computers * pause, (computers, waited)


# -- games over days -------------------------------------------------------------------------


def deadline_of(running: Running, game_id: str) -> datetime | None:
    return running.hub.store.table(game_id).due


def away(running: Running, game_id: str) -> frozenset[int]:
    return running.hub.store.table(game_id).away


def test_a_turn_based_game_keeps_its_deadline_in_the_store_and_the_sweep_takes_over(
    running: Running,
) -> None:
    clock = Clock()
    running.call(lambda: setattr(running.hub, "now", clock))
    idle = running.still_clock()
    body = {
        "game": "apokalypse",
        "players": 2,
        "seats": ["human", "random"],
        "turn_based": {"hours": 24},
    }
    created = post(running, body)
    game_id, token = created["id"], created["seats"][0]["token"]
    day = timedelta(hours=24)
    with connect(running.ws(game_id, token)) as ws:
        message = receive(ws)
        while not message["legal"]:
            message = receive(ws)
        # My decision has a day: stored, and shown to me (hours, not seconds).
        due = deadline_of(running, game_id)
        assert due is not None and abs(due - (clock() + day)) < timedelta(seconds=30), due
        deciding = message["clock"]["deciding"]
        assert deciding["seat"] == 0 and message["clock"]["turn_s"] == day.total_seconds()
        assert 86_000_000 < deciding["remaining_ms"] <= 86_400_000, deciding
        act(ws, message, random.Random(5))
        move = message["observation"]["move"]
        message = receive(ws)
        while not message["legal"] or message["observation"]["move"] == move:
            message = receive(ws)
    # Nobody has it open: it leaves memory once idle (by the hub's clock, moved here), its
    # deadline stays in the store.
    wait_until(lambda: running.call(running.hub.connection_count) == 0, "the tab closed")
    assert game_id in running.call(lambda: set(running.hub.rooms)), "held while not idle"
    idle.advance(running.hub.settings.idle_seconds + DELAY[1])  # an answer owed is given too

    def released() -> bool:
        running.release_idle()
        return game_id not in running.call(lambda: set(running.hub.rooms))

    wait_until(released, "released", TIMEOUT)
    due = deadline_of(running, game_id)
    assert due is not None
    assert away(running, game_id) == set()

    clock.ahead = day + timedelta(hours=1)  # the next day, and an hour: my time is up
    # The sweep finds it, loads it, and a computer takes my seat over.
    wait_until(lambda: away(running, game_id) == {0}, "taken over", TIMEOUT)

    # I come back and reclaim my seat: my next decision has a day from the test clock's now.
    with connect(running.ws(game_id, token)) as ws:
        message = receive(ws)
        assert message["seats"][0]["away"]
        ws.send(json.dumps({"type": "reclaim"}))
        while message["seats"][0]["away"] or not message["legal"]:
            assert "result" not in message["observation"], "over before I was back"
            message = receive(ws)
        due = deadline_of(running, game_id)
        assert due is not None and abs(due - (clock() + day)) < timedelta(seconds=30), due


def test_a_turn_based_game_is_refused_a_limit_out_of_bounds(running: Running) -> None:
    body = {"game": "apokalypse", "players": 2, "seats": ["human", "random"]}
    for hours in (0.5, 337):
        response = httpx.post(
            f"{running.http}/api/games", json={**body, "turn_based": {"hours": hours}}
        )
        assert response.status_code == 422 and "turn_based.hours" in response.text
    both = {**body, "turn_based": {"hours": 24}, "timer": {"turn": 30, "bank": 60}}
    response = httpx.post(f"{running.http}/api/games", json=both)
    assert response.status_code == 400 and "one turn timer or the other" in response.text


# -- where I am awaited ----------------------------------------------------------------------


def seats(running: Running, body: object) -> httpx.Response:
    return httpx.post(f"{running.http}/api/seats", json=body, timeout=TIMEOUT)


def test_my_games_learn_where_each_seat_is_awaited(running: Running) -> None:
    body = {"game": "apokalypse", "players": 2, "seats": ["human", "human"]}
    created = post(running, {**body, "turn_based": {"hours": 48}})
    game_id = created["id"]
    mine, friend = (s["token"] for s in created["seats"])
    wrong = "x" * 32
    asked = [
        {"id": game_id, "token": mine},
        {"id": game_id, "token": friend},
        {"id": game_id, "token": wrong},
        {"id": "nothing-here", "token": mine},
    ]
    answer = seats(running, asked)  # a stored game nobody opened: replayed, not loaded
    assert answer.status_code == 200, answer.text
    news = answer.json()["seats"]
    assert game_id not in running.call(lambda: set(running.hub.rooms)), "looking is not playing"
    first = 0 if news[0]["awaited"] else 1
    assert [n["awaited"] for n in news[:2]] == [first == 0, first == 1]
    assert 47 * 3_600_000 < news[first]["left_ms"] <= 48 * 3_600_000
    assert news[1 - first]["left_ms"] is None, "only the seat deciding is timed"
    assert all(n["move"] == 0 and not n["over"] for n in news[:2])
    assert news[2] == {"id": game_id, "error": "this token opens no seat of this game"}
    assert news[3]["error"] == "there is no game 'nothing-here'"
    assert all("token" not in n for n in news), "the keys are not sent back"

    # The same from memory once the game is open.
    token = created["seats"][first]["token"]
    with connect(running.ws(game_id, token)) as ws:
        receive(ws)
        again = seats(running, asked[:2]).json()["seats"]
    assert [n["awaited"] for n in again] == [first == 0, first == 1]
    assert again[first]["left_ms"] <= news[first]["left_ms"]

    too_many = seats(running, [{"id": game_id, "token": mine}] * (MAX_SEATS + 1))
    assert too_many.status_code == 422, too_many.text
    bad = seats(running, [{"id": game_id}])
    assert bad.status_code == 422 and "token" in bad.text
    # Bounded per address: four at once here (seats_burst), then a wait.
    answers = [seats(running, asked[:1]) for _ in range(6)]
    assert [a.status_code for a in answers][-2:] == [429, 429], answers
    assert int(answers[-1].headers["Retry-After"]) >= 1


# -- an automatic answer and a chosen one, side by side ------------------------------------


def same_game(
    store: Store, seed: int, players: int = 3, lang: str = "en"
) -> tuple[str, dict[int, str]]:
    """An Apokalypse game of ``players`` people dealt from ``seed`` (the server deals from a
    secret one: two games dealt alike are made here), stored; its id and seat keys."""
    game = get_game("apokalypse")
    config = game.config_from_options(players, [], None)
    kinds = ["human"] * players
    tokens = {seat: f"seat-{seat}-{seed}-{time.monotonic_ns()}" for seat in range(players)}
    meta: dict[str, object] = {
        "seats": kinds,
        "token_sha256": [hash_token(tokens[q]) for q in range(players)],
        "lang": lang,
    }
    record = GameRecord(game.name, game.version, config.to_json(), seed, meta=meta)
    new = NewGame(
        record, game.new_game(config, seed), computer_players(kinds, seed, game.name), tokens
    )
    return create(store, new).id, tokens


def played_through(
    running: Running,
    game_id: str,
    tokens: dict[int, str],
    manual: bool,
    aside: Aside | None = None,
) -> tuple[list[list[dict[str, Any]]], int]:
    """Everybody's state messages of a game played to its end (the spectator's first), each
    seat's choices drawn from (its seat, the move): two games dealt alike go alike. ``manual``:
    the people answer their forced questions themselves (else the server does); how many.
    ``aside(k, message, ws)`` is called for every message connection ``k`` receives that is
    not a state message, and before it acts on each state message (to send more)."""
    urls = [running.ws(game_id), *(running.ws(game_id, tokens[q]) for q in range(3))]
    stack = contextlib.ExitStack()
    sockets: list[ClientConnection] = []
    firsts = []
    # One at a time: each seat's arrival is news to the seats connected before it. A socket is
    # opened only once those before it were told of the last arrival (opened all at once, two
    # arrivals close together may reach a seat as one message).
    for url in urls:
        ws = stack.enter_context(connect(url, open_timeout=TIMEOUT))
        firsts.append(receive(ws))
        for earlier in sockets:
            receive(earlier)  # a seat connected: everybody is told
        sockets.append(ws)
    if manual:
        for ws in sockets[1:]:
            ws.send(json.dumps({"type": "auto", "on": False}))
            assert receive(ws)["auto"] is False  # only my own view changes
    received: list[list[dict[str, Any]]] = [[] for _ in sockets]
    answered = [0]

    def next_state(k: int) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(sockets[k].recv(timeout=TIMEOUT))
            if message["type"] == "state" or aside is None:
                assert message["type"] == "state", message
                return message
            aside(k, message, sockets[k])

    def play(k: int) -> None:
        ws, message = sockets[k], firsts[k]
        acted = -1
        while "result" not in message["observation"]:
            move = message["observation"]["move"]
            if aside is not None:
                aside(k, message, ws)
            if message["legal"] and move > acted and (manual or not forced(message)):
                acted = move
                answered[0] += forced(message)
                rng = random.Random(f"{k}/{move}")
                ws.send(json.dumps({"action": rng.choice(message["legal"])["text"], "move": move}))
            message = next_state(k)
            received[k].append(message)

    threads = [threading.Thread(target=play, args=(k,)) for k in range(len(sockets))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(GAME_SECONDS)
    stack.close()
    assert not any(thread.is_alive() for thread in threads)
    return received, answered[0]


def test_nobody_else_can_tell_an_automatic_answer_from_a_chosen_decline(
    running: Running,
) -> None:
    """Two games dealt alike and played alike: in one the server answers every forced question
    (R-ATTACK-4), in the other each person declines themselves. Every viewer is sent the same
    messages in both (the asked seat's own setting aside), and the store holds the same."""
    store = running.hub.store
    auto_id, auto_tokens = same_game(store, 20261201)
    chosen_id, chosen_tokens = same_game(store, 20261201)
    automatic, none = played_through(running, auto_id, auto_tokens, manual=False)
    chosen, declines = played_through(running, chosen_id, chosen_tokens, manual=True)
    assert none == 0 and declines > 3, declines  # the server answered as many for the others

    def without_setting(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in m.items() if k != "auto"} for m in messages]

    assert automatic[0] == chosen[0], "the spectator was sent the same"
    for q in range(1, 4):
        assert without_setting(automatic[q]) == without_setting(chosen[q]), f"seat {q - 1}"
    a, c = store.load(auto_id), store.load(chosen_id)
    assert a.actions == c.actions and a.result == c.result


def test_a_turn_based_game_goes_on_after_a_start_with_nobody_there(tmp_path: Path) -> None:
    """A server that stops while the computers owe a turn-based game their moves: once it is
    started again, they play on, though nobody opens the game (its people may be away for
    days), up to the person's decision, whose deadline is stored."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store = Store.open(url)
    game = get_game("apokalypse")
    config = game.config_from_options(2, [], None)
    kinds, seed = ["human", "random"], 2024
    meta: dict[str, object] = {
        "seats": kinds,
        "token_sha256": [hash_token("the person's key"), None],
        "lang": "en",
        TURN_BASED: {"seconds": 24 * 3600.0},
    }
    record = GameRecord(game.name, game.version, config.to_json(), seed, meta=meta)
    state = game.new_game(config, seed)
    assert state.to_act == 1  # the computer's decision first: the server owes a move
    # Stored as a server that stopped right after making it would leave it.
    game_id = create(store, NewGame(record, state, computer_players(kinds, seed, game.name), {})).id
    assert store.load(game_id).actions == []
    with serving(url, Settings(idle_seconds=60)) as running:
        wait_until(lambda: running.hub.store.load(game_id).actions, "the computer played on")
        wait_until(lambda: deadline_of(running, game_id), "the person's deadline stored")
