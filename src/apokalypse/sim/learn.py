"""Training the searching players' learned evaluation (``bots/learned.py``) from self-play:
``apokalypse learn``.

**Positions.** Each game of a generation is played by computer players (:func:`positions`); a
share of its decisions (:data:`SAMPLE_RATE`, drawn from the game's seed) is kept as a position:
every seat's input row, read as the evaluation reads it (the seat's observation features, then
the game's added inputs), and, once the game is over, every seat's target: the game's own value
of the finished game for that seat (a win, and a little of the final standing; Apokerlypse's
share of the chips). Rows are kept sparse (most inputs are 0).

**Generations** (expert iteration): generation 0 is played by the lineup given (``--bots``, the
heuristic and the searching player by default); each later one by the ``master`` level using the
network of the generation before, and the next network is trained on the positions of every
generation so far.

**Training** (:func:`fit`): a multilayer perceptron (ReLU, a sigmoid at the end) with a
cross-entropy loss on the soft targets, Adam, minibatches; one game in ten is held out (whole
games, so that no position of a held-out game is trained on), and the weights of the epoch best
on it are kept. Everything is seeded: the same command gives the same file, bit for bit, on one
machine.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from apokalypse.bots import make_bot, seat_seed
from apokalypse.bots.learned import (
    ENVIRONMENT,
    Layout,
    Net,
    Weights,
    inputs,
    layout_of,
    logit,
    value_module,
)
from apokalypse.engine.codec import Codec
from apokalypse.engine.match import Match
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng

from .provenance import commit
from .runner import Stop, in_workers, worker_pool

Array = npt.NDArray[np.float32]

SAMPLE_RATE = 1 / 24  # the share of a game's decisions kept as positions
HELD_OUT = 10  # one game in this many is held out of training
BATCH = 256
LEARNING_RATE = 3e-4
WEIGHT_DECAY = 1e-3
IN_FLIGHT_PER_JOB = 3


@dataclass(frozen=True)
class Game:
    """One self-play game: its seed, seats and config."""

    game: str
    players: int
    seed: int
    bots: tuple[str, ...]
    variants: tuple[str, ...] = ()
    cards: str | None = None


@dataclass
class Positions:
    """Rows of sparse inputs with their targets; ``games`` the game index of each row."""

    width: int
    indptr: list[int] = field(default_factory=lambda: [0])
    indices: list[npt.NDArray[np.int32]] = field(default_factory=list)
    data: list[Array] = field(default_factory=list)
    targets: list[float] = field(default_factory=list)
    games: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.targets)

    def add(self, rows: Sparse, game: int) -> None:
        for r in range(len(rows.targets)):
            start, end = rows.indptr[r], rows.indptr[r + 1]
            self.indices.append(rows.indices[start:end])
            self.data.append(rows.data[start:end])
            self.indptr.append(self.indptr[-1] + int(end - start))
            self.targets.append(float(rows.targets[r]))
            self.games.append(game)

    def extend(self, other: Positions) -> None:
        base = len(self.games) and max(self.games) + 1
        for i in range(len(other)):
            self.indices.append(other.indices[i])
            self.data.append(other.data[i])
            self.indptr.append(self.indptr[-1] + len(other.indices[i]))
        self.targets += other.targets
        self.games += [g + base for g in other.games]

    def dense(self, rows: npt.NDArray[np.int64]) -> Array:
        x = np.zeros((len(rows), self.width), np.float32)
        for i, r in enumerate(rows):
            x[i, self.indices[r]] = self.data[r]
        return x


@dataclass(frozen=True)
class Sparse:
    """Input rows in compressed sparse row form (what a worker sends back: a few kilobytes a
    game, where the dense rows would be megabytes), and each row's target."""

    indptr: npt.NDArray[np.int64]
    indices: npt.NDArray[np.int32]
    data: Array
    targets: Array

    @classmethod
    def of(cls, rows: Array, targets: Sequence[float]) -> Sparse:
        nonzero = rows != 0
        counts = nonzero.sum(axis=1)
        indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        _, columns = np.nonzero(nonzero)
        return cls(indptr, columns.astype(np.int32), rows[nonzero], np.asarray(targets, np.float32))


def positions(task: Game) -> Sparse:
    """The positions of one game: every seat's input rows at the sampled decisions, and every
    row's target."""
    game = get_game(task.game)
    config = game.config_from_options(task.players, task.variants, task.cards)
    codec = Codec(game, config)
    value = value_module(task.game)
    bots = {q: make_bot(name, seat_seed(task.seed, q), task.game) for q, name in
            enumerate(task.bots)}  # fmt: skip
    match = Match(game.new_game(config, task.seed), bots)
    sampler = Rng(Rng(task.seed).next64() ^ 0x1EA2)  # not the game's or any player's stream
    threshold = int(SAMPLE_RATE * 2**64)
    rows: list[Array] = []
    match.start()
    while not match.state.is_over:
        if sampler.next64() < threshold:
            rows.append(inputs(codec, value, match.state, task.players))
        match.play_turn()
    final = list(value.base(match.state))
    if not rows:
        return Sparse.of(np.zeros((0, 1), np.float32), [])
    return Sparse.of(np.concatenate(rows), final * len(rows))


def play_games(
    tasks: Sequence[Game],
    width: int,
    jobs: int,
    stop: Stop,
    ray: Any = None,
    advance: Callable[[], None] = lambda: None,
) -> Positions:
    """Every task's positions, in task order whatever order the workers finish in."""
    found: dict[int, Sparse] = {}
    for index, rows in _results(tasks, jobs, stop, ray):
        found[index] = rows
        advance()
    out = Positions(width)
    for index in sorted(found):
        out.add(found[index], index)
    return out


def _indexed(item: tuple[int, Game]) -> tuple[int, Sparse]:
    return item[0], positions(item[1])


def _results(
    tasks: Sequence[Game], jobs: int, stop: Stop, ray: Any
) -> Iterator[tuple[int, Sparse]]:
    items = iter(list(enumerate(tasks)))
    if ray is not None:
        from .ray_pool import ray_map

        yield from ray_map(ray, _indexed, items, jobs, stop)
        return
    if jobs == 1:
        for item in items:
            if stop.requested:
                return
            yield _indexed(item)
        return
    pool = worker_pool(jobs)
    try:
        for _, future in in_workers(pool, _indexed, items, jobs * IN_FLIGHT_PER_JOB, stop):
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# --- training -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fit:
    """A trained network and how well it predicts the held-out games, beside the hand-made
    evaluation's own prediction of them (the input it corrects)."""

    net: Net
    epochs: int
    best_epoch: int
    rows: int
    held_out_rows: int
    loss: float  # cross-entropy on the held-out rows
    error: float  # mean absolute error on them
    base_loss: float  # the hand-made evaluation's, the same rows
    base_error: float

    def figures(self) -> dict[str, float | int]:
        return {
            "rows": self.rows,
            "held_out_rows": self.held_out_rows,
            "epochs": self.epochs,
            "best_epoch": self.best_epoch,
            "loss": round(self.loss, 5),
            "error": round(self.error, 5),
            "handmade_loss": round(self.base_loss, 5),
            "handmade_error": round(self.base_error, 5),
        }


def _cross_entropy(p: Array, y: Array) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(
    data: Positions,
    layout: Layout,
    hidden: Sequence[int],
    epochs: int,
    seed: int,
    advance: Callable[[int, float], None] = lambda epoch, loss: None,
) -> Fit:
    """A network trained on ``data`` (see the module docstring)."""
    rng = np.random.default_rng(seed)
    scale = layout.scale()
    sizes = [layout.size, *hidden, 1]
    weights = [
        (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        for a, b in itertools.pairwise(sizes)
    ]
    weights[-1][:] = 0.0  # the untrained network is the hand-made evaluation (see Net)
    biases = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = [*weights, *biases]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    y = np.asarray(data.targets, np.float32)
    games = np.asarray(data.games)
    held = games % HELD_OUT == HELD_OUT - 1
    train_rows, test_rows = np.flatnonzero(~held), np.flatnonzero(held)
    if not len(train_rows) or not len(test_rows):
        raise ValueError(f"too few positions to train on ({len(data)})")
    test_x = data.dense(test_rows) / scale
    test_y = y[test_rows]
    base_column = layout.size - 1  # the hand-made evaluation is the last added input
    base_p = test_x[:, base_column]
    unscaled = np.ones_like(scale)  # test_x is scaled already
    best: tuple[float, int, list[Array]] = (np.inf, 0, [p.copy() for p in params])
    step = 0
    n_layers = len(weights)
    for epoch in range(1, epochs + 1):
        order = rng.permutation(train_rows)
        for start in range(0, len(order), BATCH):
            rows = order[start : start + BATCH]
            x = data.dense(rows) / scale
            target = y[rows]
            # forward, keeping each layer's input
            acts = [x]
            h = x
            for i in range(n_layers):
                h = h @ weights[i] + biases[i]
                if i < n_layers - 1:
                    h = np.maximum(h, 0.0)
                acts.append(h)
            p = 1.0 / (1.0 + np.exp(-(h[:, 0] + logit(x[:, -1]))))
            # backward: d(cross-entropy)/d(logit) = p − y
            grad = ((p - target) / len(rows))[:, None].astype(np.float32)
            grads_w: list[Array] = [np.empty(0, np.float32)] * n_layers
            grads_b: list[Array] = [np.empty(0, np.float32)] * n_layers
            for i in reversed(range(n_layers)):
                grads_w[i] = acts[i].T @ grad + WEIGHT_DECAY * weights[i]
                grads_b[i] = grad.sum(axis=0)
                if i:
                    grad = (grad @ weights[i].T) * (acts[i] > 0)
            step += 1
            _adam(params, [*grads_w, *grads_b], moments, squares, step)
        p_test = Net(unscaled, weights, biases).values(test_x)
        loss = _cross_entropy(p_test, test_y)
        if loss < best[0]:
            best = (loss, epoch, [p.copy() for p in params])
        advance(epoch, loss)
    kept = best[2]
    net = Net(scale, kept[:n_layers], kept[n_layers:])
    p_test = net.values(test_x * scale)
    return Fit(
        net,
        epochs,
        best[1],
        len(train_rows),
        len(test_rows),
        _cross_entropy(p_test, test_y),
        float(np.mean(np.abs(p_test - test_y))),
        _cross_entropy(base_p, test_y),
        float(np.mean(np.abs(base_p - test_y))),
    )


def _adam(params: list[Array], grads: list[Array], m: list[Array], v: list[Array],
          step: int, beta1: float = 0.9, beta2: float = 0.999) -> None:  # fmt: skip
    for p, g, mi, vi in zip(params, grads, m, v, strict=True):
        mi *= beta1
        mi += (1 - beta1) * g
        vi *= beta2
        vi += (1 - beta2) * g * g
        m_hat = mi / (1 - beta1**step)
        v_hat = vi / (1 - beta2**step)
        p -= LEARNING_RATE * m_hat / (np.sqrt(v_hat) + 1e-8)


# --- a whole run --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What ``apokalypse learn`` was asked: everything that decides the weights."""

    game: str
    players: tuple[int, ...]
    games: int
    bots: tuple[str, ...]
    generations: int
    self_play: str
    self_play_games: int
    hidden: tuple[int, ...]
    epochs: int
    seed: int
    variants: tuple[str, ...] = ()
    cards: str | None = None

    def lineup(self, generation: int, players: int) -> tuple[str, ...]:
        names = self.bots if generation == 0 else (self.self_play,)
        return tuple(names[q % len(names)] for q in range(players))

    def tasks(self, generation: int, players: int) -> list[Game]:
        count = self.games if generation == 0 else self.self_play_games
        # Generation g, player count p: seeds of their own, never another run's of this plan.
        first = self.seed * 1_000_000_000 + generation * 10_000_000 + players * 1_000_000
        lineup = self.lineup(generation, players)
        return [
            Game(self.game, players, first + i, lineup, self.variants, self.cards)
            for i in range(count)
        ]


class Hooks:
    """What a run reports as it goes (the command's progress bars; nothing in the tests)."""

    def games(self, title: str, total: int) -> Callable[[], None]:
        return lambda: None

    def epochs(self, title: str, total: int) -> Callable[[int, float], None]:
        return lambda epoch, loss: None


def learn(plan: Plan, command: str, jobs: int, stop: Stop, hooks: Hooks, ray: Any = None,
          scratch: Path | None = None) -> Weights:  # fmt: skip
    """The weights a plan trains (every generation), with their provenance. ``scratch``: where a
    generation's weights are written for the next generation's players to read."""
    game = get_game(plan.game)
    data: dict[int, Positions] = {}
    layouts: dict[int, Layout] = {}
    for players in plan.players:
        config = game.config_from_options(players, plan.variants, plan.cards)
        layouts[players] = layout_of(game, config)
        data[players] = Positions(layouts[players].size)
    weights = Weights(plan.game, {})
    history: list[dict[str, Any]] = []
    for generation in range(plan.generations):
        if generation:
            assert scratch is not None, "later generations read the weights from a file"
            path = scratch / f"generation-{generation - 1}.npz"
            path.write_bytes(weights.to_bytes())
            os.environ[ENVIRONMENT] = str(path)  # the workers started below read it
        fits: dict[str, Any] = {}
        nets: dict[str, Net] = {}
        for players in plan.players:
            tasks = plan.tasks(generation, players)
            title = f"generation {generation}, {players} players: games"
            got = play_games(tasks, layouts[players].size, jobs, stop, ray,
                             hooks.games(title, len(tasks)))  # fmt: skip
            if stop.requested:
                raise KeyboardInterrupt
            data[players].extend(got)
            title = f"generation {generation}, {players} players: training"
            fitted = fit(data[players], layouts[players], plan.hidden, plan.epochs,
                         plan.seed + generation, hooks.epochs(title, plan.epochs))  # fmt: skip
            nets[layouts[players].key] = fitted.net
            fits[str(players)] = {
                "games": len(tasks),
                "lineup": list(plan.lineup(generation, players)),
                **fitted.figures(),
            }
        weights = Weights(plan.game, nets)
        history.append({"generation": generation, "players": fits})
    weights.meta = {
        "command": command,
        "commit": commit(),
        "seed": plan.seed,
        "data": {
            "games": plan.games,
            "bots": list(plan.bots),
            "generations": plan.generations,
            "self_play": plan.self_play,
            "self_play_games": plan.self_play_games,
            "players": list(plan.players),
            "variants": list(plan.variants),
            "cards": "default" if plan.cards is None else "a file",
            "sample_rate": SAMPLE_RATE,
            "held_out": f"1 game in {HELD_OUT}",
        },
        "network": {
            "hidden": list(plan.hidden),
            "epochs": plan.epochs,
            "batch": BATCH,
            "learning_rate": LEARNING_RATE,
            "weight_decay": WEIGHT_DECAY,
        },
        "layouts_by_players": {str(p): layouts[p].key for p in plan.players},
        "generations": history,
        "game_version": game.version,
    }
    return weights


__all__ = [
    "Fit",
    "Game",
    "Hooks",
    "Plan",
    "Positions",
    "Sparse",
    "commit",
    "fit",
    "learn",
    "positions",
]
