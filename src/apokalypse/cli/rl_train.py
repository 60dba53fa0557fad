"""``apokalypse rl-train``: train the NumPy policy-gradient agent of ``docs/rl.md`` at 2-player
Apokerlypse against random play, save it, and measure it on games it has not seen."""

from __future__ import annotations

import time
from pathlib import Path

from rich.console import Console

from apokalypse.engine.errors import ConfigError
from apokalypse.rl.train import Progress, evaluate, evaluate_random, train

MAX_EPISODES = 10_000_000
MAX_EVALUATION = 1_000_000


def run_rl_train(episodes: int, seed: int, out: Path | None, games: int) -> None:
    if not 1 <= episodes <= MAX_EPISODES:
        raise ConfigError(f"--episodes must be 1–{MAX_EPISODES:,}, not {episodes}")
    if not 0 <= games <= MAX_EVALUATION:
        raise ConfigError(f"--evaluate must be 0–{MAX_EVALUATION:,}, not {games}")
    if out is not None and not out.parent.is_dir():
        raise ConfigError(f"--out {out}: there is no folder {out.parent}")
    console = Console(stderr=True)
    start = time.perf_counter()

    def progress(p: Progress) -> None:
        console.print(f"{p.episodes:>9,} games: won {p.win_rate:.1%} of the last ones (training)")

    try:
        policy = train(
            episodes, seed, report_every=max(1, min(1000, episodes // 10)), progress=progress
        )
    except ValueError as exc:  # a seed out of range
        raise ConfigError(str(exc)) from None
    console.print(f"trained in {time.perf_counter() - start:.1f} s")
    if out is not None:
        policy.save(out)
        print(f"policy saved to {out}")
    if games:
        print(f"the agent against random play: {evaluate(policy, games, seed)}")
        print(f"random against random play:   {evaluate_random(games, seed)}")
