"""The server core's shape, as its design keeps it: small modules, and no lock around a game's
state (each game in play is an actor reading its inbox, :mod:`apokalypse.server.actor`). The one
way out is checked by ``test_outbox.py``."""

from __future__ import annotations

import ast
from pathlib import Path

import apokalypse.server

SERVER = Path(apokalypse.server.__file__).parent
MAX_LINES = 450
# The one lock the server holds: SQLite's writers take turns in the store (never a game's state).
LOCKS_ALLOWED = {("store.py", "threading.Lock")}


def locks_in(source: str) -> list[str]:
    """The locks a module makes or names: ``asyncio.Lock``, ``threading.RLock``, … (a
    semaphore bounds how much work runs at once, as the pushes' and the replays' do; it guards
    no state)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.attr in {"Lock", "RLock", "Condition"}
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_no_server_module_is_over_450_lines() -> None:
    long = {
        path.relative_to(SERVER).as_posix(): lines
        for path in sorted(SERVER.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_no_lock_guards_a_game() -> None:
    locks = {
        (path.relative_to(SERVER).as_posix(), lock)
        for path in sorted(SERVER.rglob("*.py"))
        for lock in locks_in(path.read_text(encoding="utf-8"))
    }
    assert locks == LOCKS_ALLOWED


def test_the_check_sees_a_lock() -> None:
    before = "import asyncio\nclass Room:\n    lock = asyncio.Lock()\n"
    assert locks_in(before) == ["asyncio.Lock"]
