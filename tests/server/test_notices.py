"""The notice one process sends the others after it wrote to a game's log carries the entries it
wrote (:mod:`apokalypse.server.fanout`): a process whose copy ends just before them folds them
without reading the store, and one that missed some reads the store as before. Two real server
processes over PostgreSQL and Redis, and the notice's own form."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest
from fastapi import FastAPI
from websockets.sync.client import connect

from apokalypse.server.entries import (
    Acted,
    Away,
    Coached,
    Due,
    Entry,
    Logged,
    Manual,
    Named,
    Read,
    Rematch,
    Said,
    from_notice,
    to_notice,
)
from apokalypse.server.fanout import Notice, parse
from apokalypse.server.room import following
from apokalypse.server.store import Store

from .databases import fresh_schema, reachable
from .inprocess import Running, shown_beyond, two_processes, wait_until

REDIS = "redis://127.0.0.1:6379/0"
TIMEOUT = 30.0  # every receive and request: a hang guard, on a busy machine too
WHEN = datetime(2026, 12, 7, 12, 30, 5, 250_000, tzinfo=UTC)
ENTRIES: list[Entry] = [
    Acted(7, "play 3", 6),
    Acted(8, "pass", None),
    Away(1, True),
    Manual(0, False),
    Coached(2, True),
    Named(1, "Ada"),
    Rematch("g-next"),
    Due(WHEN),
    Due(None),
    Read(4),
    Said("players", 1, "Ada", "well played"),
    Said("spectators", None, "guest", "hello"),
]


def logged(n: int, entry: Entry) -> Logged:
    return Logged(n, entry, WHEN)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: type(entry).__name__)
def test_every_kind_of_entry_crosses_in_a_notice_as_it_was_written(entry: Entry) -> None:
    sent = logged(12, entry)
    data = json.dumps({"game": "g", "move": 8, "origin": "a", "entries": [to_notice(sent)]})
    assert parse(data) == Notice("g", 8, "a", (sent,))
    assert from_notice(json.loads(json.dumps(to_notice(sent)))) == sent


@pytest.mark.parametrize(
    "entries",
    [
        [{"n": 3, "kind": "action", "body": {"text": "pass"}, "move": 2}],  # no channel, time
        [{"n": 3, "kind": "treaty", "body": {}, "move": None, "channel": None, "created": ""}],
        ["an entry"],
        [{**to_notice(logged(3, Acted(2, "pass", None))), "body": "pass"}],
    ],
)
def test_entries_that_do_not_read_leave_the_notice_to_the_store(entries: list[object]) -> None:
    """A notice is still heard when its entries do not read: the process reads the store."""
    data = json.dumps({"game": "g", "move": 2, "origin": "a", "entries": entries})
    assert parse(data) == Notice("g", 2, "a", ())


def test_a_copy_folds_what_follows_its_last_entry_and_reads_the_store_for_a_gap() -> None:
    five, six, seven = (logged(n, Named(0, f"n{n}")) for n in (5, 6, 7))
    assert following((six, seven), 5) == [six, seven]
    assert following((five, six, seven), 5) == [six, seven], "what it folded is passed over"
    assert following((five,), 5) == [], "nothing new"
    assert following((seven,), 5) is None, "entry 6 was missed: the store has it"
    assert following((six, seven), 4) is None
    assert following((), 5) is None, "a notice without entries: the store has them"


@pytest.fixture
def database() -> Iterator[str]:
    reachable("127.0.0.1", 6379, "Redis")
    with fresh_schema() as url:
        yield url


def reads_counted(b: Running, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games B reads from the store's log from now on (``Store.read``: a catch-up)."""
    store: Store = b.hub.store
    real, reads = store.read, list[str]()

    def counted(game_id: str, after: int = 0) -> list[Logged]:
        reads.append(game_id)
        return real(game_id, after)

    monkeypatch.setattr(store, "read", counted)
    return reads


def play_first(a: Running, game_id: str, token: str) -> int:
    """Take the first legal action of the seat ``token`` on A; the move it answered."""
    with connect(a.ws(game_id, token)) as ws:
        state = json.loads(ws.recv(timeout=TIMEOUT))
        move = state["observation"]["move"]
        ws.send(json.dumps({"action": state["legal"][0]["text"], "move": move}))
        wait_until(shown_beyond(ws, move), "A took the move")
    return int(move)


def moved_on_a_shown_on_b(
    a: Running, b: Running, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, list[str]]:
    """A game of two people: the seat not deciding is shown it on B, the other takes its first
    action on A, until B shows it. The game's id, and the games B read from the store's log
    meanwhile."""
    game_id, tokens, mover = two_people(a)
    with connect(b.ws(game_id, tokens[1 - mover])) as on_b:
        move = json.loads(on_b.recv(timeout=TIMEOUT))["observation"]["move"]
        reads = reads_counted(b, monkeypatch)
        play_first(a, game_id, tokens[mover])
        wait_until(shown_beyond(on_b, move), "the player on B shown A's move")
    return game_id, reads


def test_a_move_reaches_the_other_process_from_the_notice_alone(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with two_processes(database, REDIS) as (a, b):
        _, reads = moved_on_a_shown_on_b(a, b, monkeypatch)
        assert reads == [], "B folded the notice's entries without reading the store"


def test_a_notice_whose_entries_do_not_follow_is_caught_up_from_the_store(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """B hears each notice without its first entry (as if an earlier notice was lost): the
    entries left do not follow B's copy, so B reads the store, and the player on B is still
    shown the move."""

    def lossy(app: FastAPI) -> None:
        hub = app.state.hub
        catch_up = hub.catch_up

        async def told(game_id: str, move: int | None, entries: tuple[Logged, ...]) -> None:
            await catch_up(game_id, move, entries[1:])

        hub.catch_up = told  # handed to the fan-out's listener when the app starts

    with two_processes(database, REDIS, lossy) as (a, b):
        game_id, reads = moved_on_a_shown_on_b(a, b, monkeypatch)
        assert game_id in reads, "B read the store for what the notice lacked"


def two_people(a: Running) -> tuple[str, list[str], int]:
    """A new game of two people on A: its id, its seats' tokens and the seat to decide."""
    request = {"game": "apokalypse", "players": 2, "seats": ["human", "human"]}
    created = httpx.post(f"{a.http}/api/games", json=request, timeout=TIMEOUT).json()
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    with connect(a.ws(game_id, tokens[0])) as zero:
        first = json.loads(zero.recv(timeout=TIMEOUT))
    return game_id, tokens, 0 if first["legal"] else 1
