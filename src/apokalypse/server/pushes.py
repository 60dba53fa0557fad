"""Web Push: a person who asked for it is told, with their tab closed, that their seat is awaited,
that a turn-based deadline is near, or that the game ended (RFC 8030; payloads encrypted for the
subscription, RFC 8291; signed with the server's VAPID key, RFC 8292; by ``pywebpush``).

- **When.** After a change it made (never one it caught up on: one process notes each change),
  a game's room hands it here (:meth:`Pushes.changed`). For each seat with a subscription, a
  notice is kept in the store: "awaited at move m" due after :attr:`Settings.push_grace` (a live
  game, played in its tab, never buzzes), "deadline near" due :data:`DEADLINE_NEAR` before a
  turn-based deadline, "over" due after the grace. A sweep claims the due ones
  (:func:`.push_store.claim_due`, each once, by whichever process comes first).
- **Only if still true, and only what the seat's view says.** A claimed notice is checked again
  against the seat's own view now (:mod:`.awaited`): still awaited at that move, the game over;
  and no tab of that seat open on this game here. A question the server answers for the person
  (a window's forced decline) is never pushed: its seat is not noted, and by the time the
  notice is due it was answered. The payload names the game and the seat and says which of the
  three it is, in the game's language: nothing any other seat is shown, and nothing is sent to
  anybody else. Nothing is logged per push (who is awaited stays the seat's own business).
- **Bounded.** Subscriptions per seat (:data:`.push_store.MOST_DEVICES`) and per address (the
  API), endpoints only at the push services allowed (:attr:`Settings.push_services`), payloads
  of at most :data:`MOST_PAYLOAD` bytes, :data:`SENDING` pushes in flight with a timeout each,
  :data:`RETRIES` retries of a push service's 429/5xx or a timeout, all on tasks of their own:
  no game waits for a push.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

import aiohttp
from py_vapid import Vapid01
from pywebpush import WebPushException, webpush_async

from .awaited import SeatNews, live_news, stored_all_seats
from .catalog import title as game_title
from .games import HUMAN, LiveGame
from .push_store import (
    DEADLINE,
    OVER,
    TURN,
    Notice,
    Subscription,
    claim_due,
    drop,
    drop_seat,
    note,
    subscribed_seats,
    subscriptions,
)
from .refusals import message
from .room import Closed, Room
from .store import Store

DEADLINE_NEAR = timedelta(hours=2)  # a turn-based decision's push this long before its deadline
SWEEP_SECONDS = 2.0  # how often the due notices are looked for
SWEEP_MOST = 200  # notices claimed at once
KNOWN_SECONDS = 30.0  # how long which seats of a game are subscribed is believed
SENDING = 8  # pushes in flight at once
TIMEOUT_SECONDS = 10.0  # for one push service request
RETRIES = 2  # a 429, a 5xx or a timeout: tried again, after 2 s, then 8 s
MOST_PAYLOAD = 1024  # bytes of JSON, well under the 4 KB every push service takes
MOST_WAITING = 10_000  # changes waiting to be noted (beyond: dropped, counted)
TTL = {TURN: 24 * 3600, DEADLINE: 2 * 3600, OVER: 24 * 3600}  # seconds a push service keeps one

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Changed:
    """What a change left a game at, for the seats that may be told (made on the game's task)."""

    game_id: str
    move: int
    over: bool
    awaited: tuple[int, ...]  # the people awaited now, by their own views
    deadline: datetime | None  # a turn-based decision's deadline (the one awaited)


def changed_of(live: LiveGame, seats: frozenset[int]) -> Changed:
    """Of those of ``seats`` that are people's: who is awaited now, by their own views; a
    window's question the server answers for its person is nobody's to be told."""
    state = live.state
    forced = live.forced_answer() is not None
    awaited: list[int] = []
    for seat in sorted(seats):
        if live.kinds[seat] != HUMAN or state.is_over:
            continue
        if forced and seat == state.to_act:
            continue
        if live_news(live, seat).get("awaited"):
            awaited.append(seat)
    deadline = live.table_state.due if awaited else None
    return Changed(live.id, state.move, state.is_over, tuple(awaited), deadline)


class Pushes:
    """One process's pushes: noting changes, sweeping the due notices, sending."""

    def __init__(
        self,
        store: Store,
        key: Vapid01,
        subject: str,
        grace: float,
        rooms: Mapping[str, Room],
        now: Callable[[], datetime],
    ) -> None:
        self.store, self.engine = store, store.engine
        self.key, self.subject, self.grace = key, subject, grace
        self.rooms, self.now = rooms, now
        self.known: dict[str, tuple[float, frozenset[int]]] = {}  # game → (when, seats)
        self.asking: set[str] = set()  # games whose subscribed seats are being read
        self.waiting: asyncio.Queue[Changed] = asyncio.Queue(MOST_WAITING)
        self.sending = asyncio.Semaphore(SENDING)
        self.session: aiohttp.ClientSession | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.sent = 0  # pushes the push services took (tests and metrics read it)
        self.dropped = 0  # changes not noted because too many waited

    # -- noting ----------------------------------------------------------------------------

    def seats(self, game_id: str) -> frozenset[int] | None:
        """The subscribed seats of a game as last read (None: not known; read soon)."""
        held = self.known.get(game_id)
        stale = held is None or time.monotonic() - held[0] > KNOWN_SECONDS
        if stale and game_id not in self.asking:
            self.asking.add(game_id)
            self.tasks.append(asyncio.create_task(self._read_seats(game_id)))
        return None if held is None else held[1]

    def learned(self, game_id: str, seats: frozenset[int]) -> None:
        self.known[game_id] = (time.monotonic(), seats)

    async def _read_seats(self, game_id: str) -> None:
        try:
            self.learned(game_id, await asyncio.to_thread(subscribed_seats, self.engine, game_id))
        finally:
            self.asking.discard(game_id)

    def devices(self, game_id: str, seat: int) -> int:
        """How many subscriptions the seat has (blocking)."""
        return len(subscriptions(self.engine, game_id, seat))

    def changed(self, live: LiveGame) -> None:
        """A change this process made (on the game's task): noted for the subscribed seats."""
        seats = self.seats(live.id)
        if not seats:
            return
        try:
            self.waiting.put_nowait(changed_of(live, seats))
        except asyncio.QueueFull:
            self.dropped += 1

    async def _note(self) -> None:
        while True:
            changed = await self.waiting.get()
            seats = self.seats(changed.game_id) or frozenset()
            now = self.now()
            due: list[tuple[Notice, datetime]] = []
            later = now + timedelta(seconds=self.grace)
            for seat in seats:
                if changed.over:
                    due.append((Notice(changed.game_id, seat, OVER, changed.move), later))
                elif seat in changed.awaited:
                    due.append((Notice(changed.game_id, seat, TURN, changed.move), later))
                    if changed.deadline is not None and changed.deadline - DEADLINE_NEAR > later:
                        when = changed.deadline - DEADLINE_NEAR
                        due.append((Notice(changed.game_id, seat, DEADLINE, changed.move), when))
            if due:
                with contextlib.suppress(Exception):  # the game is gone: nothing to note
                    await asyncio.to_thread(note, self.engine, changed.game_id, due)

    # -- sweeping and sending ----------------------------------------------------------------

    def start(self) -> None:
        self.session = aiohttp.ClientSession()
        self.tasks += [asyncio.create_task(self._note()), asyncio.create_task(self._sweep())]

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.session is not None:
            await self.session.close()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception:
                log.exception("the pushes' sweep failed")

    async def sweep(self) -> int:
        """Claim the due notices and push those still true; how many were claimed."""
        claimed = await asyncio.to_thread(claim_due, self.engine, self.now(), SWEEP_MOST)
        for notice in claimed:
            self.tasks.append(asyncio.create_task(self._deliver(notice)))
        self.tasks = [task for task in self.tasks if not task.done()]
        return len(claimed)

    async def _now_of(self, notice: Notice) -> tuple[SeatNews, bool, str, str] | None:
        """The seat's news now, whether a tab of it is open here, the game's language and
        name; None for a game that is gone."""
        room = self.rooms.get(notice.game_id)
        if room is not None:

            def look(live: LiveGame) -> tuple[SeatNews, bool, str, str]:
                seat, name = notice.seat, str(live.state.observation(notice.seat)["game"])
                return live_news(live, seat), seat in room.connected(), live.lang, name

            with contextlib.suppress(Closed):
                return await room.look(look)
        found = await asyncio.to_thread(
            stored_all_seats, self.store, [(notice.game_id, notice.seat)], self.now()
        )
        held = found.get((notice.game_id, notice.seat))
        return None if held is None else (held[0], False, held[1], held[2])

    async def _deliver(self, notice: Notice) -> None:
        now = await self._now_of(notice)
        if now is None:
            return
        news, open_here, lang, name = now
        still = (
            news.get("over") is True
            if notice.kind == OVER
            else news.get("awaited") is True and news.get("move") == notice.move
        )
        if still and not open_here:
            payload = self.payload(notice, lang, name)
            for subscription in await asyncio.to_thread(
                subscriptions, self.engine, notice.game_id, notice.seat
            ):
                await self._send(subscription, payload, TTL[notice.kind])
        if notice.kind == OVER and still:  # nothing more to push: its subscriptions go
            await asyncio.to_thread(drop_seat, self.engine, notice.game_id, notice.seat)
            self.known.pop(notice.game_id, None)

    def payload(self, notice: Notice, lang: str, name: str) -> str:
        """What the seat is told: which game and seat, and one of the three, in words."""
        title = game_title(name, lang)
        body = message(f"push-{notice.kind}", lang, game=title)
        told = {"kind": notice.kind, "game": notice.game_id, "seat": notice.seat}
        data = json.dumps({**told, "title": title, "body": body}, ensure_ascii=False)
        assert len(data.encode()) <= MOST_PAYLOAD, len(data)
        return data

    async def _send(self, subscription: Subscription, payload: str, ttl: int) -> None:
        info = {
            "endpoint": subscription.endpoint,
            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
        }
        for attempt in range(RETRIES + 1):
            async with self.sending:
                try:
                    answer = await webpush_async(
                        info,
                        payload,
                        vapid_private_key=self.key,
                        vapid_claims={"sub": self.subject},
                        timeout=TIMEOUT_SECONDS,
                        ttl=ttl,
                        aiohttp_session=self.session,
                    )
                    status = answer.status if isinstance(answer, aiohttp.ClientResponse) else 0
                except WebPushException as refused:  # any answer but 2xx
                    status = refused.status_code or 0
                except (aiohttp.ClientError, TimeoutError):
                    status = 0
            if status in (404, 410):  # the push service no longer knows it
                await asyncio.to_thread(drop, self.engine, subscription.id)
                return
            if 200 <= status < 300:
                self.sent += 1
                return
            if status not in (0, 429) and status < 500:
                log.warning("a push service refused a push (HTTP %s)", status)
                return
            if attempt < RETRIES:
                await asyncio.sleep(2.0 * 4**attempt)
        log.warning("a push service did not take a push after %d tries", RETRIES + 1)
