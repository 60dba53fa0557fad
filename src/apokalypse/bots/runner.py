"""Play one game between bots: the loop shared by ``simulate``, the bot tests and benchmarks.
Any game: it talks to the state only through the engine protocol.

Each bot sees only its seat's observation and event views (ARCHITECTURE: a bot never receives a
State). The loop keeps the action texts and the running event digest, so whatever happens the
caller can write a record that replays up to the last applied action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from apokalypse.engine.events import Event
from apokalypse.engine.record import EventDigest

from .base import Bot

# A real game ends in well under 10,000 decisions (random 6-player Apokalypse games take about
# 1,500, Apokerlypse games a few hundred); a bot that never passes must not hang a simulation.
MAX_DECISIONS = 100_000


class Playable(Protocol):
    """The part of the engine's game state a playout needs (any game's State has it)."""

    @property
    def to_act(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    def legal_actions(self) -> Any: ...
    def apply(self, action: Any) -> list[Event]: ...
    def observation(self, player: int | None) -> dict[str, Any]: ...


@dataclass
class Playout:
    actions: list[str] = field(default_factory=list)
    digest: EventDigest = field(default_factory=EventDigest)


class GameTooLong(RuntimeError):
    pass


def play_out(state: Playable, bots: Sequence[Bot[Any]], out: Playout | None = None) -> Playout:
    """Play ``state`` to the end; ``out`` (if given) is filled as the game goes, so that it
    still holds the actions applied before an exception."""
    out = out if out is not None else Playout()
    # A bot that declares itself blind (the random player) gets an empty observation and no
    # events: building them is most of the cost of a random playout.
    blind = [bool(getattr(bot, "blind", False)) for bot in bots]
    watching = [q for q in range(len(bots)) if not blind[q]]
    while not state.is_over:
        if len(out.actions) >= MAX_DECISIONS:
            raise GameTooLong(f"no end after {MAX_DECISIONS} decisions")
        seat = state.to_act
        obs = {} if blind[seat] else state.observation(seat)
        action = bots[seat].choose(obs, state.legal_actions())
        events = state.apply(action)
        out.actions.append(str(action))
        out.digest.add(events)
        if events:
            for q in watching:
                bots[q].observe([e.view(q) for e in events])
    return out
