"""A game's numbers as NumPy arrays: the observation vector, the action integers, the legal mask.

The game says what the numbers are (``Game.features(config)``, :mod:`apokalypse.engine.features`):
the action table and the observation fields, computed from the seat's observation alone. A
:class:`Codec` turns them into the arrays learning libraries take, the same for every game.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from apokalypse.engine.errors import EngineError
from apokalypse.engine.features import Field, offsets
from apokalypse.engine.protocol import Game, GameConfig

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Codec:
    """The arrays of one game config."""

    def __init__(self, game: Game, config: GameConfig) -> None:
        self.features = game.features(config)
        self.fields: tuple[Field, ...] = tuple(self.features.fields)
        self.offset = offsets(self.fields)
        self.size = sum(f.size for f in self.fields)
        self.low = np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])
        self.high = np.concatenate([np.full(f.size, f.high, np.float32) for f in self.fields])
        self.actions: tuple[Hashable, ...] = tuple(self.features.actions)
        self.index: dict[Hashable, int] = {a: i for i, a in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise EngineError(f"{game.name}: an action is listed twice in its table")
        self.encode_entries = self.features.encode

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def encode(self, observation: Mapping[str, object]) -> Vector:
        """The observation vector of one seat's observation (``state.observation(seat)``)."""
        ones, at, values = self.encode_entries(observation)
        out = np.bincount(ones, minlength=self.size).astype(np.float32)
        if at:
            out[at] = values
        return out

    def number(self, action: Hashable) -> int:
        return self.numbers((action,))[0]

    def numbers(self, legal: Sequence[Hashable]) -> list[int]:
        index = self.index
        try:
            return [index[a] for a in legal]
        except KeyError as missing:
            # A legal action outside the table is a bug of the table, never the agent's.
            action = missing.args[0]
            raise EngineError(f"the action {action} has no number in this game's table") from None

    def mask(self, legal: Sequence[Hashable]) -> Mask:
        """1 at the integers of the ``legal`` actions, 0 elsewhere."""
        mask = np.zeros(len(self.actions), np.int8)
        if len(legal):
            mask[self.numbers(legal)] = 1
        return mask

    def view(self, vector: Vector, name: str) -> Vector:
        """The part of ``vector`` that holds field ``name``, in its shape (for reading)."""
        f = next(f for f in self.fields if f.name == name)
        at = self.offset[name]
        return vector[at : at + f.size].reshape(f.shape)

    def markdown(self) -> str:
        """The fields as a Markdown table, offsets for this config (``docs/rl.md`` shows it)."""
        lines = ["| field | offset | shape | range | meaning |", "|---|---|---|---|---|"]
        for f in self.fields:
            shape = " × ".join(str(d) for d in f.shape)
            lines.append(
                f"| `{f.name}` | {self.offset[f.name]} | {shape} | {_num(f.low)} … {_num(f.high)}"
                f" | {f.meaning} |"
            )
        return "\n".join(lines)


def _num(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)
