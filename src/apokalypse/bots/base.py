"""Shared plumbing of the computer players.

What a computer player *is* is the engine's :class:`~apokalypse.engine.match.Player`: it gets its
seat's observation and the legal actions (never a State), answers with one of the actions, and is
told the event views its seat may see. The terminal, the simulator and the server seat players
through :class:`~apokalypse.engine.match.Match`, the one loop that asks them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from apokalypse.engine.events import EventView
from apokalypse.engine.match import Player

# Builds a fresh player from its seed (players may remember things within one game: one per seat
# per game). Of some game: a plain ``Player``, whose game is chosen at run time.
PlayerFactory = Callable[[int], Player]


class BaseBot:
    """A name, and an ``observe`` that forgets: for players that need no memory."""

    name = "base"
    blind = False  # see Player.blind

    def observe(self, events: Sequence[EventView]) -> None:
        return None
