"""What Web Push keeps in the store (blocking functions; :mod:`.pushes` calls them in threads).

- The server's VAPID key pair (RFC 8292), made on first start and kept in ``server_keys``: the
  database is the server's data, so a backup holds the key and every process of a scaled setup
  signs with the same one. Its public half is what a browser subscribes with.
- Subscriptions: a browser's endpoint and keys (RFC 8291) for one seat, at most
  :data:`MOST_DEVICES` a seat. They go with the game (deleted with it, and once its end was
  pushed), when the push service answers 404 or 410, or when their person says stop.
- Notices: a push due to a seat at a time (``push_notices``), one of each kind a seat, written by
  the process that made the change and claimed once when due, by whichever process sweeps first:
  a claimed row is deleted in the statement that reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid, Vapid01, b64urlencode
from sqlalchemy import delete, func, select, tuple_
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .tables import NoticeRow, ServerKeyRow, SubscriptionRow

MOST_DEVICES = 5  # subscriptions one seat may have (a phone, a laptop, …)
VAPID = "vapid"  # the key pair's name in server_keys

TURN, DEADLINE, OVER = "turn", "deadline", "over"  # the kinds of notice


@dataclass(frozen=True)
class Subscription:
    id: int
    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True)
class Notice:
    game_id: str
    seat: int
    kind: str
    move: int


class TooMany(Exception):
    """The seat has :data:`MOST_DEVICES` subscriptions already."""


def vapid_key(engine: Engine) -> Vapid01:
    """The server's VAPID key pair: the stored one, or one made now and stored (two processes
    starting at once: the first stored wins, the other reads it)."""
    with Session(engine) as session:
        row = session.get(ServerKeyRow, VAPID)
        if row is not None:
            return Vapid.from_pem(row.value.encode())
    made = Vapid()
    made.generate_keys()
    try:
        with Session(engine) as session, session.begin():
            session.add(ServerKeyRow(name=VAPID, value=made.private_pem().decode()))
        return made
    except IntegrityError:
        return vapid_key(engine)


def application_key(key: Vapid01) -> str:
    """The public key as a browser subscribes with it: the uncompressed point, base64url."""
    point = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return str(b64urlencode(point))


def subscribe(
    engine: Engine, game_id: str, seat: int, endpoint: str, p256dh: str, auth: str, now: datetime
) -> int:
    """Keep a subscription for the seat (the same endpoint again: its keys renewed); how many
    the seat has now. Raises :class:`TooMany`."""
    with Session(engine) as session, session.begin():
        session.execute(
            delete(SubscriptionRow).where(
                SubscriptionRow.game_id == game_id,
                SubscriptionRow.seat == seat,
                SubscriptionRow.endpoint == endpoint,
            )
        )
        held = _count(session, game_id, seat)
        if held >= MOST_DEVICES:
            raise TooMany
        session.add(
            SubscriptionRow(
                game_id=game_id,
                seat=seat,
                endpoint=endpoint,
                p256dh=p256dh,
                auth=auth,
                created=now,
            )
        )
    return held + 1


def _count(session: Session, game_id: str, seat: int) -> int:
    counted = session.scalar(
        select(func.count())
        .select_from(SubscriptionRow)
        .where(SubscriptionRow.game_id == game_id, SubscriptionRow.seat == seat)
    )
    return counted or 0


def unsubscribe(engine: Engine, game_id: str, seat: int, endpoint: str | None) -> int:
    """Drop the seat's subscription of ``endpoint`` (None: all of them); how many are left."""
    with Session(engine) as session, session.begin():
        dropping = delete(SubscriptionRow).where(
            SubscriptionRow.game_id == game_id, SubscriptionRow.seat == seat
        )
        if endpoint is not None:
            dropping = dropping.where(SubscriptionRow.endpoint == endpoint)
        session.execute(dropping)
        return _count(session, game_id, seat)


def subscriptions(engine: Engine, game_id: str, seat: int) -> list[Subscription]:
    with Session(engine) as session:
        rows = session.scalars(
            select(SubscriptionRow)
            .where(SubscriptionRow.game_id == game_id, SubscriptionRow.seat == seat)
            .order_by(SubscriptionRow.id)
        )
        return [Subscription(row.id, row.endpoint, row.p256dh, row.auth) for row in rows]


def subscribed_seats(engine: Engine, game_id: str) -> frozenset[int]:
    with Session(engine) as session:
        seats = session.scalars(
            select(SubscriptionRow.seat).where(SubscriptionRow.game_id == game_id).distinct()
        )
        return frozenset(seats)


def drop(engine: Engine, subscription_id: int) -> None:
    """A subscription the push service no longer knows (404, 410)."""
    with Session(engine) as session, session.begin():
        session.execute(delete(SubscriptionRow).where(SubscriptionRow.id == subscription_id))


def drop_seat(engine: Engine, game_id: str, seat: int) -> None:
    """Every subscription of a seat whose game ended (its end was pushed)."""
    unsubscribe(engine, game_id, seat, None)


def note(engine: Engine, game_id: str, due: Sequence[tuple[Notice, datetime]]) -> None:
    """Keep each notice (replacing the seat's notice of its kind) until its time."""
    with Session(engine) as session, session.begin():
        keys = [(notice.seat, notice.kind) for notice, _ in due]
        session.execute(
            delete(NoticeRow).where(
                NoticeRow.game_id == game_id,
                tuple_(NoticeRow.seat, NoticeRow.kind).in_(keys),
            )
        )
        for notice, when in due:
            session.add(
                NoticeRow(
                    game_id=game_id, seat=notice.seat, kind=notice.kind, move=notice.move, due=when
                )
            )


def claim_due(engine: Engine, now: datetime, most: int) -> list[Notice]:
    """Up to ``most`` notices due by ``now``, each taken by this caller alone (deleted as read)."""
    with Session(engine) as session, session.begin():
        keys = session.execute(
            select(NoticeRow.game_id, NoticeRow.seat, NoticeRow.kind)
            .where(NoticeRow.due <= now)
            .order_by(NoticeRow.due)
            .limit(most)
        ).all()
        if not keys:
            return []
        taken = session.execute(
            delete(NoticeRow)
            .where(
                tuple_(NoticeRow.game_id, NoticeRow.seat, NoticeRow.kind).in_(
                    [tuple(key) for key in keys]
                )
            )
            .returning(NoticeRow.game_id, NoticeRow.seat, NoticeRow.kind, NoticeRow.move)
        ).all()
    return [Notice(game_id, seat, kind, move) for game_id, seat, kind, move in taken]
