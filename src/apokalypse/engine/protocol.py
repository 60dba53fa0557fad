"""The game protocol: what every game offers to the layers above (server, bots, lab, RL).

Everything above ``games/`` talks to a game only through these two protocols, so a new game plugs
into the terminal, the simulator and the bots without changes there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .errors import ProtocolError
from .events import Event
from .rng import Rng


def check_seat(player: object, players: int) -> int:
    """A seat index of a ``players``-player game. Anything else (-1, the ``to_act`` of a
    finished game; a bool; a seat past the last) is refused: read as an index it would show
    some seat's hand."""
    if type(player) is not int or not 0 <= player < players:
        raise ProtocolError(f"there is no seat {player!r} in this {players}-player game")
    return player


class ActionValue(Protocol):
    """An immutable, hashable action whose ``str`` parses back with ``Game.parse_action``."""

    def __str__(self) -> str: ...
    def __hash__(self) -> int: ...


class GameResult(Protocol):
    @property
    def winners(self) -> tuple[int, ...]: ...

    def to_json(self) -> dict[str, Any]: ...


class GameState(Protocol):
    @property
    def move(self) -> int:
        """How many actions have been applied since ``new_game`` (public)."""
        ...

    @property
    def to_act(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> GameResult | None: ...
    def legal_actions(self) -> Sequence[Any]: ...
    def apply(self, action: Any) -> list[Event]: ...
    def clone(self) -> GameState: ...
    def observation(self, player: int | None) -> dict[str, Any]: ...
    def determinize(self, player: int, rng: Rng) -> GameState: ...


class GameConfig(Protocol):
    @property
    def players(self) -> int: ...
    def to_json(self) -> dict[str, Any]: ...


class Game(Protocol):
    name: str
    version: str
    players: tuple[int, int]  # fewest and most players
    variants: dict[str, str]  # variant name → what it does, for --variant and the docs

    def config_from_json(self, data: Any) -> GameConfig: ...
    def config_from_options(
        self, players: int, variants: Sequence[str], cards: str | None
    ) -> GameConfig:
        """A config from command-line options; ``cards`` is a deck/content file's text."""
        ...

    def new_game(self, config: Any, seed: int) -> GameState: ...
    def parse_action(self, text: str) -> Any: ...
