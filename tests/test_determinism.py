"""The same seed and actions give the same game in every process: nothing in the rules may depend
on Python's per-process string hashing (set iteration order) or anything else outside the seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SCRIPT = """
import json, sys
from apokalypse.engine.record import EventDigest
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng

name, players, variants = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
game = get_game(name)
digests = []
for seed in range(6):
    state = game.new_game(game.config_from_options(players, variants, None), seed)
    rng, digest = Rng(seed), EventDigest()
    while not state.is_over:
        legal = state.legal_actions()
        digest.add(state.apply(legal[rng.below(len(legal))]))
    digests.append(digest.hexdigest())
print(json.dumps(digests))
"""


def _digests(hash_seed: str, *args: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    digests: list[str] = json.loads(out.stdout)
    return digests


@pytest.mark.parametrize(
    "args",
    [
        ("apokalypse", "4", "ethos-balanced", "ethos-orphans"),
        ("apokalypse", "6"),
        ("apokerlypse", "3", "example-content"),
    ],
)
def test_games_do_not_depend_on_the_process(args: tuple[str, ...]) -> None:
    first = _digests("1", *args)
    assert first == _digests("2", *args) == _digests("random", *args)
    assert len(set(first)) == len(first)  # and the seeds do make different games
