"""Apokalypse (Henning Poehl, Sphinx Spieleverlag 2008/2009): the rules, as pure functions of a
seeded state. See ``docs/rules/apokalypse.md`` for the rule ids cited throughout.

>>> from apokalypse.games.apokalypse import GAME, Config
>>> state = GAME.new_game(Config(players=4), seed=7)
>>> str(state.legal_actions()[0])
'pass'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .actions import Action, parse_action
from .cards import DEFAULT_DECK
from .config import MAX_PLAYERS, MIN_PLAYERS, VARIANTS, Config, Variant, variant_id
from .ending import Result
from .features import Features
from .forecast import Forecast
from .observation import Observation
from .setup import new_game
from .state import State

if TYPE_CHECKING:
    from apokalypse.engine.protocol import Game

__all__ = [
    "GAME",
    "Action",
    "Apokalypse",
    "Config",
    "Forecast",
    "Observation",
    "Result",
    "State",
    "Variant",
    "new_game",
    "parse_action",
]


class Apokalypse:
    name = "apokalypse"
    # 2: seals played like music of their row (2009 VI.A.4); ride shelter events. Kept when
    # V-EDITION-2008 came to restore the 2008 set-up: only that variant's 2–3 player games
    # changed (docs/rules/apokalypse.md, R-SETUP-1), and a new version would change the digest
    # of every game.
    version = "2"
    players = (MIN_PLAYERS, MAX_PLAYERS)

    def __init__(self) -> None:
        self.variants = {vid.removeprefix("V-").lower(): text for vid, text in VARIANTS.items()}

    def config_from_json(self, data: object) -> Config:
        return Config.from_json(data)

    def config_from_options(
        self, players: int, variants: Sequence[str], cards: str | None
    ) -> Config:
        """``cards`` is a deck file's text (D-COMP-1); variants by id or short name."""
        chosen = frozenset(variant_id(v) for v in variants)
        return Config(players, chosen, cards if cards is not None else DEFAULT_DECK)

    def new_game(self, config: Config, seed: int) -> State:
        return new_game(config, seed)

    def features(self, config: Config) -> Features:
        return Features(config)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)


GAME = Apokalypse()

if TYPE_CHECKING:  # the type checker verifies that the game keeps the protocol
    _: Game[Action, Observation, Config] = GAME
