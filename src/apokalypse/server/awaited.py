"""Where a person is awaited: for the seats a browser keeps in "my games", what each seat's own
view shows now: whether it decides (being asked in a window included: that is the seat's own
knowledge, R-INFO-3), its time left when timed, the move it is shown, whether the game is over.

Each seat is named by its game and its key (the token of its invite link), checked as the
WebSocket checks it; a key that opens no seat gets an error of its own entry and nothing else.
A game in memory is read between its changes (a look in its room's inbox); one in the store
only is replayed (never loaded into memory: looking is not playing), and a finished one needs
no replay. Bounded: ``MAX_SEATS`` a request, and requests per client address as the hub's
``may_ask`` allows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import NotRequired

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from apokalypse.engine.record import GameRecord, replay
from apokalypse.wire.seat import clock_view

from .games import LiveGame
from .room import Closed, Room
from .setup import Setup
from .store import Store

MAX_SEATS = 30  # seats one request may ask about (the browser keeps at most 30 games)


class SeatKey(BaseModel):
    """One seat asked about: its game and its key."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=64)


class SeatNews(TypedDict):
    """A seat's own view of its game now, or why there is none (``error``)."""

    id: str
    seat: NotRequired[int]
    awaited: NotRequired[bool]  # its person decides now (not while a computer plays for them)
    left_ms: NotRequired[int | None]  # that decision's time left, when it is timed
    move: NotRequired[int]  # the move its observation shows
    over: NotRequired[bool]
    error: NotRequired[str]


def live_news(live: LiveGame, seat: int) -> SeatNews:
    """A seat of a game in memory (read between its changes): its observation, and its clock as
    the seat views show it (:func:`clock_view`: the deciding seat's time only where it is shown)."""
    state = live.state
    observation = state.observation(seat)
    shown = observation.get("to_act")
    awaited = not state.is_over and shown == seat and seat not in live.away
    left: int | None = None
    if awaited:
        clock = clock_view(live.table(frozenset()), seat, seat)
        deciding = clock["deciding"] if clock is not None else None
        left = deciding["remaining_ms"] if deciding is not None else None
    move = observation["move"]
    assert isinstance(move, int)
    news: SeatNews = {"id": live.id, "seat": seat, "awaited": awaited, "move": move}
    return {**news, "left_ms": left, "over": state.is_over}


def stored_news(
    game_id: str,
    record: GameRecord,
    seat: int,
    deadline: datetime | None,
    away: frozenset[int],
    now: datetime,
) -> SeatNews:
    """A seat of a game in the store only (blocking: a running game is replayed). Its time left
    only in a turn-based game (a live timer runs only while the game is in memory)."""
    if record.result is not None:  # over: nobody is awaited, and the last move is shown
        moves = len(record.actions)
        return {"id": game_id, "seat": seat, "awaited": False, "move": moves, "over": True}
    state = replay(record).state
    observation = state.observation(seat)
    awaited = not state.is_over and observation.get("to_act") == seat and seat not in away
    left: int | None = None
    if awaited and deadline is not None and Setup.of(record.meta).turn_based is not None:
        left = max(0, round((deadline - now).total_seconds() * 1000))
    move = observation["move"]
    assert isinstance(move, int)
    news: SeatNews = {"id": game_id, "seat": seat, "awaited": awaited, "move": move}
    return {**news, "left_ms": left, "over": state.is_over}


def stored_all(
    store: Store, asks: Sequence[tuple[str, str]], now: datetime
) -> dict[tuple[str, str], SeatNews]:
    """The news of the seats of stored games (blocking), by (game, key)."""
    found = store.seat_records(list(dict.fromkeys(game_id for game_id, _ in asks)))
    news: dict[tuple[str, str], SeatNews] = {}
    for game_id, token in asks:
        if game_id not in found:
            news[game_id, token] = {"id": game_id, "error": f"there is no game {game_id!r}"}
            continue
        record, deadline, away = found[game_id]
        seat = Setup.of(record.meta).seat_of(token)
        if seat is None:
            news[game_id, token] = {"id": game_id, "error": "this token opens no seat of this game"}
            continue
        news[game_id, token] = stored_news(game_id, record, seat, deadline, away, now)
    return news


def stored_all_seats(
    store: Store, asks: Sequence[tuple[str, int]], now: datetime
) -> dict[tuple[str, int], tuple[SeatNews, str, str]]:
    """The news of seats of stored games named by their number (blocking), with each game's
    language and name, by (game, seat); a game that is gone has none."""
    found = store.seat_records(list(dict.fromkeys(game_id for game_id, _ in asks)))
    news: dict[tuple[str, int], tuple[SeatNews, str, str]] = {}
    for game_id, seat in asks:
        if game_id in found:
            record, deadline, away = found[game_id]
            seat_news = stored_news(game_id, record, seat, deadline, away, now)
            news[game_id, seat] = (seat_news, Setup.of(record.meta).lang, record.game)
    return news


async def seats_news(
    rooms: Mapping[str, Room], store: Store, asks: Sequence[tuple[str, str]], now: datetime
) -> list[SeatNews]:
    """Each asked seat's news, in the order asked: from memory where its game is there (a look
    between its changes), else from the store."""
    answers: dict[tuple[str, str], SeatNews] = {}
    stored: list[tuple[str, str]] = []
    for game_id, token in asks:
        room = rooms.get(game_id)
        if room is None:
            stored.append((game_id, token))
            continue

        def news(live: LiveGame, token: str = token) -> SeatNews | None:
            seat = live.seat_of(token)
            return None if seat is None else live_news(live, seat)

        try:
            found = await room.look(news)
        except Closed:  # it left memory meanwhile: the store's
            stored.append((game_id, token))
            continue
        if found is None:
            error = "this token opens no seat of this game"
            answers[game_id, token] = {"id": game_id, "error": error}
        else:
            answers[game_id, token] = found
    if stored:
        answers.update(await asyncio.to_thread(stored_all, store, stored, now))
    return [answers[ask] for ask in asks]
