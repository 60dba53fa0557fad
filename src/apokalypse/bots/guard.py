"""A computer player that cannot break a game: a fault is one move of the heuristic instead.

:func:`guard` wraps a player (the terminal game and the server seat every computer player
through it). Each decision runs in a worker thread with a deadline:

- the player raises, or answers with something that is not one of the legal actions: the
  stand-in (the game's heuristic) chooses this move;
- the player has not answered by the deadline: the stand-in chooses this move, and the late
  answer is thrown away when it comes.

Every fault is logged (logger ``apokalypse.bots.guard``, a warning) with the seat and the
player's name, and the kind of exception: never the player's hand, candidates or message,
which may name cards (the log of a server is read by its operators, not by the game's
players, but it is still no place for a hand).

The deadline is the budget × 2 + 1 s for a player searching for a number of seconds, and a
generous fixed limit (:data:`ITERATIONS_LIMIT`) for any other, whose budget is a number of
iterations (or no search at all).

The thread caveat: Python cannot stop a thread. A player that overran keeps running in its
(daemon) thread until it answers, reading the world sampler of the move it was asked for while
the game moves on; until it is done the player is not asked again (the stand-in answers for it,
and says so in the log), since a player is not written to be asked twice at once. Its own
random stream and memory have then moved differently from a game without the fault, so a game
with a fault is not replayed move for move by a fresh player (the record, which holds the
actions, still replays exactly).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from apokalypse.engine.events import EventView
from apokalypse.engine.match import Player, SearchingPlayer, Worlds

from .random_bot import RandomBot

log = logging.getLogger(__name__)

A = TypeVar("A")  # the game's action type
O = TypeVar("O")  # noqa: E741 (the game's observation type)

ITERATIONS_LIMIT = 30.0  # seconds: a player without a time budget that takes longer is stuck


def limit_for(player: object) -> float:
    """The deadline of one decision of ``player``, in seconds (see the module docstring)."""
    seconds = getattr(player, "seconds", None)
    if isinstance(seconds, int | float) and not isinstance(seconds, bool) and seconds > 0:
        return float(seconds) * 2 + 1
    return ITERATIONS_LIMIT


class Guarded(Generic[A, O]):
    """``player`` at ``seat``, with ``stand_in`` answering a move it fails (see the module
    docstring). ``limit_seconds`` None: :func:`limit_for` the player."""

    def __init__(
        self,
        player: Player[A, O],
        stand_in: Player[A, O],
        limit_seconds: float | None = None,
        seat: int | None = None,
    ) -> None:
        self.player = player
        self.stand_in = stand_in
        self.limit = limit_for(player) if limit_seconds is None else limit_seconds
        self.seat = seat
        self.name: str = player.name
        self.blind: bool = player.blind
        self.faults = 0  # moves the stand-in chose
        self.last_ok = False  # whether the player itself chose the last move
        self._busy: threading.Thread | None = None  # a decision still running past its deadline

    @property
    def last(self) -> object:
        """The player's explanation of the last move if it chose it (a searching player keeps
        one: ``last``), else None."""
        return getattr(self.player, "last", None) if self.last_ok else None

    def observe(self, events: Sequence[EventView]) -> None:
        for who in (self.player, self.stand_in):
            try:
                who.observe(events)
            except Exception as exc:  # its next decision fails or is answered anyway
                self._fault(f"raised {type(exc).__name__} while being told the events")

    def choose(self, observation: O, legal: Sequence[A]) -> A:
        return self._run(lambda: self.player.choose(observation, legal), observation, legal)

    def _run(self, decide: Callable[[], A], observation: O, legal: Sequence[A]) -> A:
        self.last_ok = False
        where = f"the computer player {self.name!r}" + (
            f" at p{self.seat + 1}" if self.seat is not None else ""
        )
        if self._busy is not None and self._busy.is_alive():
            return self._instead(f"{where} is still busy with an earlier move", observation, legal)
        answer: list[A] = []
        failure: list[BaseException] = []

        def work() -> None:
            try:
                answer.append(decide())
            except BaseException as exc:  # reported by the asking thread
                failure.append(exc)

        thread = threading.Thread(target=work, name=f"computer player {self.name}", daemon=True)
        thread.start()
        thread.join(self.limit)
        if thread.is_alive():
            self._busy = thread
            return self._instead(
                f"{where} did not answer within {self.limit:g} s", observation, legal
            )
        if failure:
            why = f"{where} raised {type(failure[0]).__name__}"
            return self._instead(why, observation, legal)
        chosen = answer[0]
        if str(chosen) not in {str(a) for a in legal}:
            return self._instead(f"{where} chose an action that is not legal", observation, legal)
        self.last_ok = True
        return chosen

    def _instead(self, why: str, observation: O, legal: Sequence[A]) -> A:
        self.faults += 1
        self._fault(why)
        return self.stand_in.choose(observation, legal)

    def _fault(self, why: str) -> None:
        log.warning("%s; the stand-in %r chose this move instead", why, self.stand_in.name)


class GuardedSearching(Guarded[A, O]):
    """A guarded player that searches (:class:`~apokalypse.engine.match.SearchingPlayer`): the
    match hands it a sampler of worlds too."""

    def choose_in(self, observation: O, legal: Sequence[A], worlds: Worlds) -> A:
        player = self.player
        assert isinstance(player, SearchingPlayer)

        def decide() -> A:
            chosen: A = player.choose_in(observation, legal, worlds)
            return chosen

        return self._run(decide, observation, legal)


def guard(
    player: Player[A, O],
    stand_in: Player[A, O],
    limit_seconds: float | None = None,
    seat: int | None = None,
) -> Guarded[A, O]:
    """``player`` guarded, with ``stand_in`` for the moves it fails. A blind player (the random
    one) is given empty observations, which no heuristic can decide on: its stand-in is a
    uniform choice instead, seeded like ``stand_in`` could not be (from the seat)."""
    if player.blind and not stand_in.blind:
        stand_in = RandomBot(seat or 0)
    if isinstance(player, SearchingPlayer):
        return GuardedSearching(player, stand_in, limit_seconds, seat)
    return Guarded(player, stand_in, limit_seconds, seat)


def guard_all(
    players: dict[int, Player[A, O]],
    stand_in: Callable[[int], Player[A, O]],
    limit_seconds: float | None = None,
) -> dict[int, Player[A, O]]:
    """Every seat's player guarded; ``stand_in(seat)`` builds that seat's stand-in. A player
    guarded already is left as it is."""
    return {
        seat: p if isinstance(p, Guarded) else guard(p, stand_in(seat), limit_seconds, seat)
        for seat, p in players.items()
    }


__all__ = ["ITERATIONS_LIMIT", "Guarded", "GuardedSearching", "guard", "guard_all", "limit_for"]
