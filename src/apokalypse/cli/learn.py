"""``apokalypse learn``: train the learned evaluation of the ``master`` level from self-play
(:mod:`apokalypse.sim.learn`) and write its weights file, with the provenance beside it."""

from __future__ import annotations

import os
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.progress import (
    Progress,
)

from apokalypse.bots.learned import sidecar
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.record import atomic_write
from apokalypse.engine.registry import get_game
from apokalypse.sim.learn import Hooks, Plan, learn
from apokalypse.sim.runner import Stop

from .bars import progress_bars
from .simulate import _on_ray, check_jobs, parse_bots, parse_players

MAX_GAMES = 1_000_000
MAX_EPOCHS = 1_000
MAX_GENERATIONS = 20
MAX_WIDTH = 1_024


def parse_hidden(text: str) -> tuple[int, ...]:
    """``"64,32"`` → (64, 32): the widths of the hidden layers; ``"0"`` → (): none, a linear
    correction."""
    if text.strip() == "0":
        return ()
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError:
        widths = ()
    if not widths or len(widths) > 4 or not all(1 <= w <= MAX_WIDTH for w in widths):
        raise ConfigError(
            f"--hidden {text!r}: 0 (none) or one to four layer widths of 1 … {MAX_WIDTH},"
            " like 64,32"
        )
    return widths


class Bars(Hooks):
    """Rich progress bars on stderr: the games of each generation, then its training epochs."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress

    def games(self, title: str, total: int) -> Callable[[], None]:
        task = self.progress.add_task(title, total=total)
        return lambda: self.progress.advance(task)

    def epochs(self, title: str, total: int) -> Callable[[int, float], None]:
        task = self.progress.add_task(title, total=total)

        def advance(epoch: int, loss: float) -> None:
            self.progress.update(
                task, completed=epoch, description=f"{title} (held-out loss {loss:.4f})"
            )

        return advance


@contextmanager
def _bars() -> Iterator[Bars]:
    progress = progress_bars("{task.description}", left=True, transient=False)
    with progress:
        yield Bars(progress)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def run_learn(plan: Plan, players: str, out: Path, force: bool, jobs: int,
              ray: str | None) -> int:  # fmt: skip
    game = get_game(plan.game)
    check_jobs(jobs)
    counts = tuple(parse_players(players, game))
    for name in plan.bots:
        parse_bots(name, game.name)
    if plan.generations > 1:
        parse_bots(plan.self_play, game.name)
        if plan.self_play.split(":")[0] != "master":
            raise ConfigError(f"--self-play {plan.self_play!r}: give the master level, master:N")
    if not 1 <= plan.games <= MAX_GAMES or not 0 <= plan.self_play_games <= MAX_GAMES:
        raise ConfigError(f"--games and --self-play-games must be 1 … {MAX_GAMES:,}")
    if not 1 <= plan.epochs <= MAX_EPOCHS:
        raise ConfigError(f"--epochs {plan.epochs}: 1 … {MAX_EPOCHS}")
    if not 1 <= plan.generations <= MAX_GENERATIONS:
        raise ConfigError(f"--generations {plan.generations}: 1 … {MAX_GENERATIONS}")
    if not 0 <= plan.seed < 1_000_000:
        raise ConfigError(f"--seed {plan.seed}: 0 … 999,999")
    if out.suffix != ".npz":
        raise ConfigError(f"--out {out}: a weights file ends in .npz")
    if out.exists() and not force:
        raise ConfigError(f"--out {out} exists: give --force to overwrite it")
    if not out.parent.is_dir():
        raise ConfigError(f"--out {out}: there is no folder {out.parent}")
    plan = Plan(**{**plan.__dict__, "players": counts})
    command = "apokalypse " + shlex.join(sys.argv[1:]) if sys.argv[1:2] == ["learn"] else ""
    start = time.perf_counter()
    with (
        _on_ray(ray, jobs) as cluster,
        tempfile.TemporaryDirectory(prefix="apokalypse-learn-") as scratch,
        Stop().catching() as stop,
        _bars() as bars,
    ):
        try:
            weights = learn(plan, command, jobs, stop, bars, cluster, Path(scratch))
        except KeyboardInterrupt:
            print("interrupted: nothing written", file=sys.stderr)
            return stop.status or 130
    seconds = round(time.perf_counter() - start, 1)
    for path, data in ((out, weights.to_bytes()),
                       (sidecar(out), weights.provenance(seconds=seconds).encode())):  # fmt: skip
        atomic_write(path, data)
        path.chmod(0o666 & ~_umask())  # readable like any file made here (the temporary was not)
    for generation in weights.meta["generations"]:
        for count, fit in generation["players"].items():
            print(
                f"generation {generation['generation']}, {count} players:"
                f" {fit['games']:,} games, {fit['rows']:,} positions;"
                f" held-out cross-entropy {fit['loss']:.4f}"
                f" (hand-made evaluation {fit['handmade_loss']:.4f}),"
                f" mean error {fit['error']:.3f} ({fit['handmade_error']:.3f})"
            )
    print(f"weights written to {out}, provenance to {sidecar(out)}")
    return 0
