"""What a computer player is: something that picks one of the legal actions from what its seat sees.

A bot never receives a State (ARCHITECTURE: the observation is the one secrecy boundary). It gets
the seat's observation dict and the legal actions, and optionally the event views its seat may
see (``Event.view(seat)``), for a bot that wants to remember what happened.

The protocol is generic in the action type, so one interface serves every game: an Apokalypse bot
is a ``Bot[apokalypse.Action]``, an Apokerlypse bot a ``Bot[apokerlypse.Action]``, and a bot that
works for any game (the random player) is generic in its ``choose``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from apokalypse.engine.events import EventView

Observation = dict[str, Any]
ActionT = TypeVar("ActionT")


class Bot(Protocol[ActionT]):
    name: str

    def choose(self, observation: Observation, legal: Sequence[ActionT]) -> ActionT:
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
