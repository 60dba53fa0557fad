"""Apokerlypse as a PettingZoo AEC environment: ``env(players=2, variants=(), content=None)``.

``content`` is "plain", "example" or a content file's text; ``variants`` as for the command
line's ``--variant``. See :mod:`apokalypse.rl.env` for the agents, rewards and seeds, and
``docs/rl.md`` for the action table and the observation fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pettingzoo.utils import wrappers
from pettingzoo.utils.env import AECEnv

from .env import EngineEnv


def raw_env(
    players: int = 2,
    variants: Sequence[str] = (),
    content: str | None = None,
    render_mode: str | None = None,
    max_steps: int | None = None,
) -> EngineEnv:
    return EngineEnv("apokerlypse", players, variants, content, render_mode, max_steps)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks (actions in range, calls in order)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))
