"""Fan-out between server processes that share one database, through Redis pub/sub.

Several ``apokalypse serve`` processes may serve the same games (behind one load balancer, over
one PostgreSQL database). A player connected to one process must see what a player connected to
another one did, so after a process has applied and stored entries of a game's log it publishes,
on the game's channel (``<prefix><game id>``), that the game advanced and the entries it wrote::

    {"game": "<id>", "move": <the game's move now>, "origin": "<the publishing process>",
     "entries": [{"n": 41, "kind": "action", "body": {...}, "move": 23, ...}, ...]}

(``"move": null`` when the game changed without a move: a seat handed over or taken back, a
line of talk, a rematch.)

The entries are the log's own, as the store holds them (:func:`.entries.to_notice`), never an
observation, an event or a token: every process makes its own views. A process whose copy of the
game ends just before the first entry folds them at once; one that missed some (a lost or late
notice, a game still loading) reads what follows its copy from the store instead
(``LiveGame.catch_up_from``), so a notice never has to arrive. Each process keeps one pub/sub
connection, subscribed to the pattern ``<prefix>*``, read by one background task
(:meth:`Fanout.run`); a lost connection is opened again and every game in memory then caught up,
as messages may have been missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from .entries import BadEntry, Logged, from_notice, to_notice

DEFAULT_PREFIX = "apokalypse:game:"
PREFIX_ENV = "APOKALYPSE_CHANNEL_PREFIX"  # tests isolate themselves with a prefix of their own
RETRY_SECONDS = 1.0  # between attempts to open a lost pub/sub connection again

log = logging.getLogger(__name__)

# a game advanced to a move (None: unknown, look in the store), with the entries written
Advanced = Callable[[str, int | None, tuple[Logged, ...]], Awaitable[None]]


@dataclass(frozen=True)
class Notice:
    """What another process said of a game: its move now and the entries it wrote (none where
    they did not read: the store has them)."""

    game: str
    move: int | None
    origin: str
    entries: tuple[Logged, ...] = ()


def default_prefix() -> str:
    return os.environ.get(PREFIX_ENV) or DEFAULT_PREFIX


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[\]\\])", r"\\\1", text)


def parse(data: object) -> Notice | None:
    """A message's notice; None for anything else."""
    if isinstance(data, bytes):
        data = data.decode(errors="replace")
    if not isinstance(data, str):
        return None
    try:
        message = json.loads(data)
    except ValueError:
        return None
    if not isinstance(message, dict):
        return None
    game, move, origin = message.get("game"), message.get("move"), message.get("origin")
    if not isinstance(game, str) or not isinstance(origin, str):
        return None
    if move is not None and type(move) is not int:
        return None
    written = message.get("entries")
    try:
        entries = tuple(from_notice(item) for item in written) if isinstance(written, list) else ()
    except BadEntry as exc:
        log.warning("fan-out: game %s: entries that do not read, the store has them: %s", game, exc)
        entries = ()
    return Notice(game, move, origin, entries)


class Fanout:
    """One process's side of the fan-out: publish its games' progress, hear the others'."""

    def __init__(self, url: str, prefix: str | None = None) -> None:
        self.url = url
        self.prefix = default_prefix() if prefix is None else prefix
        self.origin = secrets.token_hex(8)  # this process: its own messages are skipped
        self.redis: Redis = Redis.from_url(url, client_name=f"apokalypse-{self.origin}")
        self._tasks: set[asyncio.Task[None]] = set()

    def channel(self, game_id: str) -> str:
        return f"{self.prefix}{game_id}"

    async def publish(self, game_id: str, move: int | None, entries: Sequence[Logged] = ()) -> None:
        """Tell the other processes that ``game_id`` is at ``move`` now (None: it changed
        otherwise, a seat handed over or taken back, a rematch), with the ``entries`` this
        process wrote since it last published. A Redis failure is logged, not raised: the game
        goes on here, and the others catch up on the next one."""
        notice = {"game": game_id, "move": move, "origin": self.origin}
        data = json.dumps(notice | {"entries": [to_notice(item) for item in entries]})
        try:
            await self.redis.publish(self.channel(game_id), data)
        except (RedisError, OSError) as exc:
            log.warning("fan-out: could not publish game %s move %s: %s", game_id, move, exc)

    async def subscribe(self) -> PubSub:
        """The pub/sub connection, subscribed to every game's channel."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.psubscribe(_glob_escape(self.prefix) + "*")
        except BaseException:
            await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
            raise
        return pubsub

    async def run(
        self, advanced: Advanced, resync: Callable[[], Awaitable[None]], pubsub: PubSub
    ) -> None:
        """Hear the other processes until cancelled: ``advanced(game, move)`` for each message
        (in a task of its own, so one busy game holds up no other); after a lost connection is
        open again, ``resync()``."""
        try:
            while True:
                try:
                    async for message in pubsub.listen():
                        self._hear(advanced, message)
                    raise RedisError("the pub/sub connection ended")
                except (RedisError, OSError) as exc:
                    log.warning("fan-out: lost the pub/sub connection: %s", exc)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
                pubsub = await self._reconnect()
                self._spawn(resync())
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated

    async def _reconnect(self) -> PubSub:
        while True:
            await asyncio.sleep(RETRY_SECONDS)
            try:
                return await self.subscribe()
            except (RedisError, OSError) as exc:
                log.warning("fan-out: cannot subscribe yet: %s", exc)

    def _hear(self, advanced: Advanced, message: Mapping[str, object]) -> None:
        if message.get("type") != "pmessage":
            return
        parsed = parse(message.get("data"))
        if parsed is None:
            log.warning("fan-out: ignored a malformed message on %r", message.get("channel"))
            return
        if parsed.origin != self.origin:
            self._spawn(advanced(parsed.game, parsed.move, parsed.entries))

    def _spawn(self, work: Awaitable[None]) -> None:
        async def guarded() -> None:
            try:
                await work
            except Exception:
                log.exception("fan-out: catching up failed")

        task = asyncio.create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Cancel the catch-ups under way and close the Redis connections."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        await self.redis.aclose()


def check(url: str) -> None:
    """Raise when Redis at ``url`` does not answer (blocking; for a clear error at start)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    try:
        client.ping()
    finally:
        client.close()
