"""Moving "my games" to another device, without accounts: a one-time code.

"My games" lives in one browser (its seat links, :file:`web/src/storage.ts`). To take them to a
phone, the browser sends its list to ``POST /api/transfers`` and is given a code such as
``K7QM-3XHD``, shown with a QR code of the lobby's address with the code in its fragment. The
other browser sends the code to ``POST /api/transfers/take`` and is given the list once.

- A code is 8 characters of 31 that are hard to mix up (no 0/O, 1/I/L): about 40 bits, drawn by
  :mod:`secrets`. The database keeps only its SHA-256, with the list and when it expires
  (:data:`LIFETIME`).
- A code is taken once: its row is deleted in the same statement that reads it, so that two
  browsers (or two server processes) racing for it cannot both have it. An expired, taken or
  mistyped code is refused with one and the same answer, which tells none of them apart.
- Bounded: codes made and codes tried per client address (token buckets), :data:`MOST_GAMES` games
  a code, :data:`MOST_PENDING` codes waiting in all; expired rows are deleted as new ones come.
- Never logged: the code and the list travel in request and response bodies only (the server
  logs neither), and the QR code's link holds the code in its fragment, which a browser never
  sends to a server.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Annotated

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from .limits import Allowance, client_host
from .tables import TransferRow

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # 31 characters, none easily read as another
CODE_LENGTH = 8
LIFETIME = timedelta(minutes=10)
MOST_GAMES = 30  # as many as "my games" keeps
MOST_PENDING = 10_000  # codes waiting at once, of every address
MAKE_PER_MINUTE, MAKE_BURST = 6.0, 3
TAKE_PER_MINUTE, TAKE_BURST = 10.0, 5  # guessing a code: 10 a minute, in a space of 31^8
UNKNOWN = "no games wait under this code: it may be mistyped, used already or expired"


class MovedGame(BaseModel):
    """One entry of "my games": a game, the seat and its key (none: watched as a spectator)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=32)
    game: str = Field(min_length=1, max_length=40)
    seat: int | None = Field(default=None, ge=0, le=15)
    token: str | None = Field(default=None, min_length=1, max_length=64)


class Moving(BaseModel):
    model_config = ConfigDict(extra="forbid")
    games: Annotated[list[MovedGame], Field(min_length=1, max_length=MOST_GAMES)]


class Taking(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(min_length=1, max_length=32)


class Made(BaseModel):
    code: str  # as shown: two groups of four
    expires_s: int  # seconds from now


class Moved(BaseModel):
    games: list[MovedGame]


class Crowded(Exception):
    """:data:`MOST_PENDING` codes wait already."""


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def shown(code: str) -> str:
    half = CODE_LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


def typed(text: str) -> str:
    """A code as a person may type it: any case, with spaces or dashes."""
    return "".join(text.split()).replace("-", "").upper()


def digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def put(engine: Engine, games: list[dict[str, object]], now: datetime) -> str:
    """Keep ``games`` under a new code, until ``now`` + :data:`LIFETIME`; the code (blocking)."""
    code = new_code()
    with Session(engine) as session, session.begin():
        session.execute(delete(TransferRow).where(TransferRow.expires <= now))
        pending = session.scalar(select(func.count()).select_from(TransferRow)) or 0
        if pending >= MOST_PENDING:
            raise Crowded
        session.add(TransferRow(code_hash=digest(code), games=games, expires=now + LIFETIME))
    return code


def take(engine: Engine, code: str, now: datetime) -> list[dict[str, object]] | None:
    """The games kept under ``code``, once: gone from the store as they are read; None when
    none wait under it (never there, taken, or expired by ``now``) (blocking)."""
    with Session(engine) as session, session.begin():
        taken = session.execute(
            delete(TransferRow)
            .where(TransferRow.code_hash == digest(code), TransferRow.expires > now)
            .returning(TransferRow.games)
        ).first()
    return None if taken is None else list(taken[0])


def _allowed(allowance: Allowance, request: Request) -> None:
    wait = allowance.take(client_host(request))
    if wait > 0:
        seconds = max(1, round(wait))
        detail = f"too many requests: try again in {seconds} s"
        raise HTTPException(429, detail, headers={"Retry-After": str(seconds)})


def add_transfers(app: FastAPI, engine: Engine, now: Callable[[], datetime]) -> None:
    """``POST /api/transfers`` (a list of "my games" → a one-time code) and ``POST
    /api/transfers/take`` (the code → the list, once); ``now``: the hub's clock."""
    makers = Allowance(MAKE_PER_MINUTE, MAKE_BURST)
    takers = Allowance(TAKE_PER_MINUTE, TAKE_BURST)

    @app.post("/api/transfers")
    async def make_transfer(body: Moving, request: Request) -> Made:
        _allowed(makers, request)
        games = [game.model_dump() for game in body.games]
        try:
            code = await asyncio.to_thread(put, engine, games, now())
        except Crowded:
            raise HTTPException(503, "too many codes wait already: try again later") from None
        return Made(code=shown(code), expires_s=int(LIFETIME.total_seconds()))

    @app.post("/api/transfers/take")
    async def take_transfer(body: Taking, request: Request) -> Moved:
        _allowed(takers, request)
        games = await asyncio.to_thread(take, engine, typed(body.code), now())
        if games is None:
            raise HTTPException(404, UNKNOWN)
        return Moved.model_validate({"games": games})
