"""The game protocol: what every game offers to the layers above (server, bots, lab, RL).

Everything above ``games/`` talks to a game only through these two protocols, so a new game plugs
into the terminal, the simulator and the bots without changes there.

Both are generic in the game's action type ``A`` and observation type ``O`` (and ``Game`` in its
config ``C``): an Apokalypse state is a ``GameState[apokalypse.Action, apokalypse.Observation]``.
Code that runs any game writes plain ``GameState`` / ``Game``: its type arguments are then
:data:`~.erased.Erased`, the game's own types that such code cannot name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, Self

from typing_extensions import TypeVar  # with a default (PEP 696; in typing from 3.13)

from .erased import Erased
from .errors import IllegalAction, ProtocolError
from .events import Event
from .features import Features
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


A = TypeVar("A", bound=ActionValue, default=Erased)  # the game's action type
# the game's observation type
O_co = TypeVar("O_co", bound=Mapping[str, object], default=Erased, covariant=True)


class GameResult(Protocol):
    @property
    def winners(self) -> tuple[int, ...]: ...

    # JSON-ready; its fields are the game's own (``winners`` in every game).
    def to_json(self) -> dict[str, Erased]: ...


class GameState(Protocol[A, O_co]):
    @property
    def move(self) -> int:
        """How many actions have been applied since ``new_game`` (public)."""
        ...

    @property
    def opening(self) -> Sequence[Event]:
        """What happened inside ``new_game`` before the first decision (a deal …), as events;
        every player is shown them before the first decision."""
        ...

    @property
    def to_act(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> GameResult | None: ...
    def legal_actions(self) -> Sequence[A]: ...
    def apply(self, action: A) -> list[Event]: ...
    def clone(self) -> Self: ...
    def observation(self, player: int | None) -> O_co:
        """What ``player`` may know now (None: a spectator); the one secrecy boundary."""
        ...

    def determinize(self, player: int, rng: Rng) -> Self: ...


class GameConfig(Protocol):
    @property
    def players(self) -> int: ...
    def to_json(self) -> dict[str, object]: ...


C = TypeVar("C", bound=GameConfig, default=Erased)  # the game's config type


class Game(Protocol[A, O_co, C]):
    name: str
    version: str
    players: tuple[int, int]  # fewest and most players
    variants: dict[str, str]  # variant name → what it does, for --variant and the docs

    def config_from_json(self, data: object) -> C: ...
    def config_from_options(self, players: int, variants: Sequence[str], cards: str | None) -> C:
        """A config from command-line options; ``cards`` is a deck/content file's text."""
        ...

    def new_game(self, config: C, seed: int) -> GameState[A, O_co]: ...
    def parse_action(self, text: str) -> A: ...
    def features(self, config: C) -> Features:
        """The game's numbers for learning agents: its action table and observation fields."""
        ...


def refusal(state: GameState[A, Mapping[str, object]], action: A) -> IllegalAction | None:
    """Why the rules would refuse ``action`` for ``state.to_act`` now, or None when they would
    carry it out; ``state`` itself is left untouched. The action is applied to a clone, by the
    same ``apply`` a real action goes through, so the answer is by construction the refusal a
    real action would get (its events, secrets and all, are thrown away with the clone)."""
    try:
        state.clone().apply(action)
    except IllegalAction as exc:
        return exc
    return None
