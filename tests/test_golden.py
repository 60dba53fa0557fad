"""Golden playthroughs: seeded games printed as each player's observation, step by step.

The files under ``tests/golden/`` are committed; a diff in them shows a change in what a player
sees. Each step prints the action, then the public view (the spectator's events and the
observation fields that changed), then for every seat what it sees differently from the public:
events with their private part, and changed observation fields that are not public.
Regenerate deliberately with ``UPDATE_GOLDEN=1 make test``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng

GOLDEN = Path(__file__).parent / "golden"


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def playthrough(name: str, players: int, seed: int, variants: tuple[str, ...] = ()) -> str:
    game = get_game(name)
    s = game.new_game(game.config_from_options(players, variants, None), seed)
    rng = Rng(seed)
    viewers: list[int | None] = [*range(players), None]
    last = {v: s.observation(v) for v in viewers}
    extra = f", variants {', '.join(variants)}" if variants else ""
    lines = [f"# {name}, {players} players, seed {seed}{extra}, uniform random decisions"]
    for v in viewers:
        lines.append(f"{_name(v)} starts: {_compact(last[v])}")
    step = 0
    while not s.is_over:
        legal = s.legal_actions()
        action = legal[rng.below(len(legal))]
        actor = s.to_act
        events = s.apply(action)
        step += 1
        lines.append(f"## {step} p{actor + 1}: {action}")
        public = s.observation(None)
        public_events = [list(e.view(None)[:2]) for e in events]
        for v in [None, *range(players)]:
            now = public if v is None else s.observation(v)
            seen = [list(e.view(v)[:2]) for e in events]
            # The move counter changes every step: the step header says it once for all, and
            # only a counter that differs from it (frozen in a defence window) is printed.
            changed = {
                k: now[k]
                for k in now
                if last[v].get(k) != now[k] and not (k == "move" and now[k] == step)
            }
            last[v] = now
            if v is not None:  # only what differs from the public view
                seen = [e for e in seen if e not in public_events]
                changed = {k: x for k, x in changed.items() if public.get(k, ...) != x}
            if seen or changed:
                lines.append(f"{_name(v)}: events={_compact(seen)} changed={_compact(changed)}")
    return "\n".join(lines) + "\n"


def _name(viewer: int | None) -> str:
    return "spectator" if viewer is None else f"p{viewer + 1}"


@pytest.mark.parametrize(
    ("name", "players", "seed", "variants"),
    [
        ("apokalypse", 3, 2009, ()),
        ("apokalypse", 6, 2008, ()),
        ("apokerlypse", 3, 15, ("example-content",)),
    ],
)
def test_golden_playthrough(name: str, players: int, seed: int, variants: tuple[str, ...]) -> None:
    """R-INFO / K-SHORT-1 and effects: what each player sees, step by step, is exactly the
    committed text."""
    path = GOLDEN / f"{name}-{players}p-seed{seed}.txt"
    text = playthrough(name, players, seed, variants)
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, "utf-8")
    assert path.exists(), f"missing {path.name}: run with UPDATE_GOLDEN=1 once"
    assert text == path.read_text("utf-8"), f"{path.name} differs: what a player sees changed"
