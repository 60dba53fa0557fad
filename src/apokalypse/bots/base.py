"""What a computer player is: something that picks one of the legal actions from what its seat sees.

A bot never receives a :class:`State` (ARCHITECTURE: the observation is the one secrecy boundary).
It gets the seat's observation dict and the legal actions, and optionally the event views its seat
may see (``Event.view(seat)``), for a bot that wants to remember what happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from apokalypse.engine.events import EventView
from apokalypse.games.apokalypse import Action

Observation = dict[str, Any]


class Bot(Protocol):
    name: str

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty when asked)."""
        ...

    def observe(self, events: Sequence[EventView]) -> None:
        """Events of the last action as this bot's seat sees them. Runners call it after every
        ``apply``; bots that need no memory ignore it."""
        ...


class BaseBot:
    """Shared plumbing: a name and a no-op ``observe``."""

    name = "base"
    # True for a bot that never looks at observations or events; a runner may then pass an
    # empty observation and skip ``observe`` (they are costly to build).
    blind = False

    def observe(self, events: Sequence[EventView]) -> None:
        return None
