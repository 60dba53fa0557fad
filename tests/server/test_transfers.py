"""Moving "my games" to another device with a one-time code (``server/transfers.py``), on both
kinds of database: the list comes back once, as sent; a second try, an expired code and a wrong
one are refused alike; two takers racing for one code do not both get it; the database keeps no
code in the clear; trying codes is rate-limited; bad input is refused and changes nothing."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, func, select
from sqlalchemy.engine import Engine

from apokalypse.server.tables import TransferRow
from apokalypse.server.transfers import LIFETIME, MOST_GAMES, UNKNOWN

from .inprocess import AheadClock, Running, serving
from .served import Server

GAMES: list[dict[str, Any]] = [
    {"id": "g1", "game": "apokalypse", "seat": 0, "token": "t" * 43},
    {"id": "g2", "game": "apokerlypse", "seat": None, "token": None},
]
SHOWN = re.compile(r"[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}")


def make(running: Running | Server, games: list[dict[str, Any]]) -> httpx.Response:
    return httpx.post(f"{running.http}/api/transfers", json={"games": games}, timeout=10)


def take(running: Running | Server, code: str) -> httpx.Response:
    return httpx.post(f"{running.http}/api/transfers/take", json={"code": code}, timeout=10)


def codes_kept(running: Running) -> list[str]:
    with running.hub.store.engine.connect() as connection:
        return list(connection.scalars(select(TransferRow.code_hash)))


def test_a_code_moves_the_games_once_and_then_never_again(url: str) -> None:
    with serving(url) as running:
        clock = AheadClock()
        running.call(lambda: setattr(running.hub, "now", clock))
        made = make(running, GAMES)
        assert made.status_code == 200, made.text
        code = made.json()["code"]
        assert SHOWN.fullmatch(code) and made.json()["expires_s"] == LIFETIME.total_seconds()
        assert code.replace("-", "") not in " ".join(codes_kept(running))  # only its hash

        typed = f" {code.lower().replace('-', ' ')} "  # as a person may type it
        taken = take(running, typed)
        assert taken.status_code == 200, taken.text
        assert taken.json()["games"] == GAMES
        assert codes_kept(running) == []  # gone as it was read
        again = take(running, code)
        assert (again.status_code, again.json()["detail"]) == (404, UNKNOWN)

        late = make(running, GAMES).json()["code"]
        clock.ahead = LIFETIME + timedelta(seconds=1)
        expired = take(running, late)
        assert (expired.status_code, expired.json()["detail"]) == (404, UNKNOWN)  # told alike

        raced = make(running, GAMES).json()["code"]
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda _: take(running, raced).status_code, range(2)))
        assert sorted(answers) == [200, 404]


def test_trying_codes_is_rate_limited(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'games.sqlite3'}") as running:
        code = make(running, GAMES).json()["code"]
        statuses = [take(running, "AAAA-AAAA").status_code for _ in range(20)]
        assert 429 in statuses and set(statuses) <= {404, 429}
        limited = take(running, code)  # the right code waits until the address may try again
        assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
        assert len(codes_kept(running)) == 1  # … and still waits


def test_bad_input_is_refused_by_name_and_keeps_nothing(server: Server) -> None:
    database = create_engine(server.database_url)
    before = waiting(database)
    too_many = make(server, [GAMES[0]] * (MOST_GAMES + 1))
    assert too_many.status_code == 422 and too_many.json()["detail"].startswith("games:")
    extra = make(server, [{**GAMES[0], "name": "Ann"}])
    assert extra.status_code == 422 and "games.0.name" in extra.json()["detail"]
    assert make(server, []).status_code == 422
    long_code = take(server, "A" * 33)
    assert long_code.status_code == 422 and long_code.json()["detail"].startswith("code:")
    assert "A" * 33 not in long_code.text  # the code is never echoed
    assert waiting(database) == before
    database.dispose()


def waiting(database: Engine) -> int:
    with database.connect() as connection:
        return connection.scalar(select(func.count()).select_from(TransferRow)) or 0
