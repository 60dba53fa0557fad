"""Apokalypse as a PettingZoo AEC environment: ``env(players=4, variants=(), deck=None)``.

``deck`` is a deck file's text (D-COMP-1); ``variants`` as for ``apokalypse play --variant``. See
:mod:`apokalypse.rl.env` for the agents, rewards and seeds, and ``docs/rl.md`` for the action
table and the observation fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pettingzoo.utils import wrappers
from pettingzoo.utils.env import AECEnv

from .env import EngineEnv


def raw_env(
    players: int = 4,
    variants: Sequence[str] = (),
    deck: str | None = None,
    render_mode: str | None = None,
    max_steps: int | None = None,
) -> EngineEnv:
    return EngineEnv("apokalypse", players, variants, deck, render_mode, max_steps)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks (actions in range, calls in order)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))
