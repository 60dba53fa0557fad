"""Difficulty levels, and players with an explicit search budget, for every game with players.

A level is a named player and budget, the same four names for both games:

========  ======================================================================================
easy      the heuristic, which plays a uniformly random legal action 40 % of the time (drawn
          from its own seeded stream, so a game replayed from its seed makes the same choices)
medium    the heuristic
hard      ISMCTS, 300 iterations per decision, with ethos beliefs where the game has them, as
          each game's searching player is made: Apokalypse's is anchored to its heuristic
          (without beliefs it lost to ``medium`` by 15.8 points at 4 players, with beliefs and
          the anchor it won by 21.0: docs/players.md, the ladder)
expert    ISMCTS, 1,500 iterations per decision, with ethos beliefs (Apokalypse; Apokerlypse
          has no hidden ethos and searches with its game's own default)
master    the expert's search, scored by the learned evaluation (``learned.py``, trained by
          ``apokalypse learn``), with :data:`MASTER_ITERATIONS` per decision: about the
          expert's think time, the learned evaluation costing more per position. It refuses to
          play without its weights file (a one-line error naming it); at a table whose feature
          layout the file holds no network for (another player count or deck) it scores with
          the hand-made evaluation, as the expert does. Not yet a step above the expert
          (docs/players.md, the ladder): it is not among the lobby's levels (:data:`LEVELS`).
========  ======================================================================================

Budgets are iteration counts, not seconds: a game played again from its seed (a simulation
rerun, a server rebuilding a game after a restart) makes the same choices.

A budget can also be given with the player's name, ``ismcts:500`` (iterations per decision) or
``ismcts:0.1s`` (seconds per decision; a game then depends on the machine's speed), and the
searching levels take one too (``expert:3000``). :func:`parse_spec` checks such a spec and
refuses a bad one in one line naming what is wrong.

The searching players come from each game's factory, the ``searcher`` its registry entry names
(``ismcts(seed, *, iterations=None, seconds=None, beliefs=…)``), imported on first use: listing
the names (``--help``) must not load the rules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, cast

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.events import EventView
from apokalypse.engine.match import Player
from apokalypse.engine.registry import ENTRIES, part
from apokalypse.engine.rng import Rng

from .base import BaseBot, PlayerFactory

A = TypeVar("A")  # the game's action type
O = TypeVar("O")  # noqa: E741 (the game's observation type)
P = TypeVar("P", bound=Player)

EASY_RANDOM_SHARE = 0.4  # how often ``easy`` ignores its heuristic and plays any legal action
HARD_ITERATIONS = 300
EXPERT_ITERATIONS = 1_500
MASTER_ITERATIONS = 750
SEARCHING = ("ismcts", "hard", "expert", "master")  # the names that take a budget after ':'
LEVELS = ("easy", "medium", "hard", "expert")  # easiest first: the lobby's difficulty levels
# The steps ``tournament --ladder`` measures: the levels and the learned player above them. The
# master joins the lobby's levels once it measures as a step above the expert (docs/players.md,
# "The ladder"); until then the lobby lists it among the other computer players.
LADDER = (*LEVELS, "master")
# The games with hidden roles to hold beliefs about (their registry entries say so: Apokalypse's
# ethos); other games search with their default.
BELIEF_GAMES = frozenset(name for name, game in ENTRIES.items() if game.beliefs is not None)


@dataclass(frozen=True)
class Budget:
    """A search budget per decision: exactly one of iterations or seconds."""

    iterations: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)


@dataclass(frozen=True)
class Spec:
    """A player as named on a command line: ``name`` alone or ``name:budget``."""

    name: str
    budget: Budget | None = None

    def __str__(self) -> str:
        return self.name if self.budget is None else f"{self.name}:{self.budget}"


class Sloppy(BaseBot, Generic[A, O]):
    """The ``easy`` level: the heuristic, except that a share of its decisions is a uniformly
    random legal action. Both draws come from streams of its own seed."""

    name = "easy"

    def __init__(self, seed: int, heuristic: Player[A, O], share: float) -> None:
        self.rng = Rng(seed)
        self.heuristic = heuristic
        self.share = share

    def choose(self, observation: O, legal: Sequence[A]) -> A:
        # One draw per decision whatever is chosen: a resumed game's stream stays in step.
        roll = self.rng.next64() / 2**64
        pick = self.rng.next64()
        if roll < self.share and len(legal) > 1:
            return legal[pick % len(legal)]
        return self.heuristic.choose(observation, legal)

    def observe(self, events: Sequence[EventView]) -> None:
        self.heuristic.observe(events)


def parse_budget(text: str, name: str) -> Budget:
    """``"500"`` → 500 iterations, ``"0.1s"`` → 0.1 seconds; anything else, zero or negative
    is a one-line :class:`ConfigError`."""
    raw = text.strip().lower()
    where = f"{name}:{text.strip()}"
    if raw.endswith("s"):
        try:
            seconds = float(raw[:-1])
        except ValueError:
            seconds = math.nan
        if not (math.isfinite(seconds) and 0 < seconds <= 3600):
            raise ConfigError(
                f"bad budget in {where!r}: seconds per decision must be a number more than 0 and"
                " at most 3600, like 0.5s"
            )
        return Budget(seconds=seconds)
    if raw.isascii() and raw.isdigit() and 0 < int(raw) <= 10_000_000:
        return Budget(iterations=int(raw))
    raise ConfigError(
        f"bad budget in {where!r}: give iterations per decision, a whole number 1 … 10,000,000"
        " like 500, or seconds per decision like 0.5s"
    )


def parse_spec(text: str, known: Sequence[str], game: str) -> Spec:
    """A player spec of ``game``, checked against the ``known`` names: a one-line
    :class:`ConfigError` for an unknown name, a budget on a player that takes none, or a bad
    budget."""
    name, colon, budget = text.strip().lower().partition(":")
    name = name.strip()
    if not name:
        raise ConfigError(f"no computer player named in {text!r}")
    if name not in known:
        raise ConfigError(f"unknown bot {name!r} for {game} (known: {', '.join(sorted(known))})")
    if not colon:
        return Spec(name)
    if name not in SEARCHING:
        raise ConfigError(
            f"{name!r} takes no budget ({text.strip()!r}); only {', '.join(SEARCHING)} search"
        )
    return Spec(name, parse_budget(budget, name))


class Searcher(Protocol):
    """A game's searching-player factory, its registry entry's ``searcher``."""

    def __call__(
        self,
        seed: int,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        beliefs: bool = ...,
        learned: bool = ...,
    ) -> Player: ...


def _searcher(game: str) -> Searcher:
    found = part(game, "searcher")
    if found is None:
        raise ConfigError(f"{game} has no searching player")
    if not callable(found):
        raise TypeError(f"{game}'s searching player is not a factory: {found!r}")
    return cast(Searcher, found)


def searching(
    game: str, seed: int, budget: Budget, beliefs: bool | None = None, learned: bool = False
) -> Player:
    """The game's ISMCTS player with ``budget`` (``beliefs`` None: the game's default;
    ``learned``: scored by the learned evaluation)."""
    search = _searcher(game)
    extra: dict[str, bool] = {} if beliefs is None else {"beliefs": beliefs}
    if learned:
        extra["learned"] = True
    return search(seed, iterations=budget.iterations, seconds=budget.seconds, **extra)


def _named(player: P, name: str) -> P:
    """The player under its level's name (what logs, records and the lobby show)."""
    player.name = name
    return player


def level_factories(game: str, own: dict[str, PlayerFactory]) -> dict[str, PlayerFactory]:
    """The levels and the master for a game whose own players are ``own`` (a game without a
    heuristic gets none: its players are the random one only)."""
    heuristic = own.get("heuristic")
    if heuristic is None:
        return {}

    def easy(seed: int) -> Player:
        return Sloppy(Rng(seed).next64(), heuristic(seed), EASY_RANDOM_SHARE)

    def medium(seed: int) -> Player:
        return _named(heuristic(seed), "medium")

    def hard(seed: int) -> Player:
        beliefs = True if game in BELIEF_GAMES else None
        return _named(searching(game, seed, Budget(HARD_ITERATIONS), beliefs), "hard")

    def expert(seed: int) -> Player:
        beliefs = True if game in BELIEF_GAMES else None
        return _named(searching(game, seed, Budget(EXPERT_ITERATIONS), beliefs), "expert")

    def master(seed: int) -> Player:
        beliefs = True if game in BELIEF_GAMES else None
        player = searching(game, seed, Budget(MASTER_ITERATIONS), beliefs, learned=True)
        return _named(player, "master")

    return {"easy": easy, "medium": medium, "hard": hard, "expert": expert, "master": master}


def budgeted(game: str, spec: Spec, seed: int) -> Player:
    """A searching player (``ismcts``, ``hard``, ``expert`` or ``master``) with the spec's own
    budget."""
    assert spec.budget is not None and spec.name in SEARCHING
    beliefs = True if game in BELIEF_GAMES and spec.name != "ismcts" else None
    learned = spec.name == "master"
    return _named(searching(game, seed, spec.budget, beliefs, learned), str(spec))


__all__ = [
    "EASY_RANDOM_SHARE",
    "EXPERT_ITERATIONS",
    "HARD_ITERATIONS",
    "LADDER",
    "LEVELS",
    "MASTER_ITERATIONS",
    "SEARCHING",
    "Budget",
    "Sloppy",
    "Spec",
    "budgeted",
    "level_factories",
    "parse_budget",
    "parse_spec",
    "searching",
]
