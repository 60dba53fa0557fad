"""A game's numbers for learning agents: its action table and its observation fields.

A game offers :class:`Features` for a config (``Game.features(config)``), the way OpenSpiel's games
define their own tensors: ``actions`` lists every action a game of that config can ever offer, in
a fixed order, so an action keeps its integer in every state and in every sampled world (actions
name card codes and places, never physical cards); ``fields`` cut the observation vector into
named parts. :meth:`Features.encode` reads nothing but a seat's observation, the one secrecy
boundary, so what the vector holds is what the seat may know, by construction.

The games compute the vector's entries as plain lists (they stay free of NumPy and compile with
the rules); :mod:`apokalypse.rl` turns them into arrays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import prod
from typing import NamedTuple, Protocol

from typing_extensions import TypeVar  # with a default (PEP 696; in typing from 3.13)

from .erased import Erased


@dataclass(frozen=True)
class Field:
    """One named part of the observation vector: ``shape`` values between ``low`` and ``high``."""

    name: str
    shape: tuple[int, ...]
    meaning: str
    low: float = 0.0
    high: float = 1.0

    @property
    def size(self) -> int:
        return prod(self.shape)


def offsets(fields: Sequence[Field]) -> dict[str, int]:
    """Where each field starts in the flat vector: the fields one after the other."""
    out: dict[str, int] = {}
    at = 0
    for f in fields:
        if f.name in out:
            raise ValueError(f"two fields named {f.name}")
        out[f.name] = at
        at += f.size
    return out


class Entries(NamedTuple):
    """One observation's vector, sparse: 1 is added at each index of ``ones`` (one-hots and card
    counts alike, an index may repeat), then ``values[i]`` is set at ``at[i]``; the rest is 0."""

    ones: list[int]
    at: list[int]
    values: list[float]


# The game's observation type; plain ``Features`` (code for any game) leaves it erased.
O_contra = TypeVar("O_contra", bound=Mapping[str, object], contravariant=True, default=Erased)


class Features(Protocol[O_contra]):
    @property
    def actions(self) -> Sequence[object]:
        """Every action of the game's config, in the order of their integers."""
        ...

    @property
    def fields(self) -> Sequence[Field]: ...

    def encode(self, observation: O_contra) -> Entries:
        """The entries of one seat's observation (``state.observation(seat)``)."""
        ...
