"""Helpers shared by the tests of every game, command and the server, written once
(``from tests.helpers import refused``; the fixtures live in the ``conftest.py`` files).

- :func:`refused` / :func:`snapshot`: an action the rules refuse names its rule, is not offered
  and leaves the state untouched (docs/protocol.md: refusals name the rule);
- :func:`refusal`: the :class:`IllegalAction` a call raises, for tests of its words;
- :func:`cli` / :func:`one_line_error`: the real command line in a subprocess, and its one-line
  error;
- :func:`create`: a game created on a running server through its HTTP API.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import pytest

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.protocol import GameState
from apokalypse.engine.registry import get_game
from tests import commands

# What no observation shows in full but a refused action must not move either: the draw piles'
# order, and Apokerlypse's flow, effect stack and abilities used.
HIDDEN = {"apokalypse": ("decks",), "apokerlypse": ("pile", "stack", "flow", "used")}


def frozen(value: object) -> object:
    """``value`` with its containers copied, as tuples (sets as frozensets, dicts as item
    tuples), down to the values they hold, which the rules never change (cards, frozen
    dataclasses, named tuples; a compiled build's can be neither deep-copied nor need to be)."""
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return tuple(frozen(item) for item in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, dict):
        return tuple((key, frozen(item)) for key, item in value.items())
    return value


def snapshot(state: GameState) -> tuple[object, ...]:
    """Everything a refused action must leave untouched: what a spectator and every seat see
    (hands, displays, whose decision, the move), the draw piles, and the random stream."""
    public = state.observation(None)
    seats = [state.observation(seat) for seat in range(int(public["players"]))]
    hidden = [frozen(getattr(state, name)) for name in HIDDEN[public["game"]]]
    rng = getattr(state, "rng")  # noqa: B009 (every game's state has one; not in the protocol)
    return public, seats, hidden, state.move, rng.state


def refused(state: GameState, rule: str, *texts: str) -> None:
    """Each action (in its notation) is refused for ``rule``, is not offered, and leaves the
    state untouched."""
    game = get_game(state.observation(None)["game"])
    for text in texts:
        before = snapshot(state)
        action = game.parse_action(text)
        assert action not in state.legal_actions(), text
        with pytest.raises(IllegalAction) as info:
            state.apply(action)
        assert info.value.rule == rule, (text, info.value)
        assert snapshot(state) == before, text


def refusal(apply: Callable[[], object]) -> IllegalAction:
    """The refusal ``apply()`` raises (it must raise one)."""
    with pytest.raises(IllegalAction) as info:
        apply()
    return info.value


def cli(
    *args: str, cwd: Path | None = None, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``apokalypse ARGS…`` in a subprocess (``python -m``, as the installed script runs it)."""
    return commands.run([*commands.CLI, *args], cwd=cwd, stdin=stdin, timeout=timeout)


def one_line_error(run: subprocess.CompletedProcess[str], code: int = 2) -> str:
    """The command failed with exit status ``code`` and said why in one line ``error: …``."""
    assert run.returncode == code, (run.returncode, run.stdout[-500:], run.stderr[-2000:])
    assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1, run.stderr
    return run.stderr


class Served(Protocol):
    """A running server (the tests' own process wrappers): its base URL."""

    @property
    def http(self) -> str: ...


def create(server: Served, **body: Any) -> dict[str, Any]:
    """``POST /api/games``: a 2-player Apokalypse game, a person against the heuristic, unless
    ``body`` says otherwise; the server's answer (id, tokens …)."""
    import httpx  # only the server's tests need it

    request = {"game": "apokalypse", "players": 2, "seats": ["human", "heuristic"], **body}
    response = httpx.post(f"{server.http}/api/games", json=request, timeout=10.0)
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    return created
