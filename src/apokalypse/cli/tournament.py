"""``apokalypse tournament``: which computer player is stronger, with confidence intervals.

Two or more player specs (``heuristic``, ``expert``, ``ismcts:0.1s`` …) play N-player games.

- **Seats rotate.** Spec ``i`` of ``k`` sits at the seats ``q`` with ``(q + r) % k == i`` in a
  game of rotation ``r``, so across the ``k`` rotations every spec sits in every seat.
- **Duplicate deals.** One deal (a seed: the same cards, the same ethos cards, the same players'
  seeds by seat) is played once per rotation: every spec plays every seat's hand and ethos of
  that deal. ``--games`` is rounded up to whole deals. The luck of the deal cancels in the
  difference between two specs, which is why the difference has its own, narrower interval:
  the normal approximation on the per-deal differences of the win rates (each deal one paired
  sample), rather than two independent intervals.
- **Intervals** (95 %): a win rate per seat with Wilson's score interval; the mean points
  (Apokalypse) or chips won (Apokerlypse) per seat with the normal approximation.
- Games run in worker processes (``--jobs``); a game's numbers depend on its seed and lineup
  only, whatever the number of workers. A seconds budget (``ismcts:0.1s``) depends on the
  machine's speed and load, and on how many workers share it.

``--beliefs`` measures the ethos beliefs instead (Apokalypse):
``apokalypse.bots.apokalypse.beliefs.belief_in_game`` plays ``--games`` seeded games of the
heuristic and returns, at the second horseman, the prior of the true ethos assignment and the
belief in it; reported is the mean ratio belief/prior with its interval (above 1: the belief
learned something true from the moves).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import Progress

from apokalypse.bots import check_bot, make_bot, seat_seed
from apokalypse.bots.levels import LADDER
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.match import MAX_DECISIONS, Match
from apokalypse.engine.registry import entry, game_names, get_game, load
from apokalypse.sim.collect import collector_for, figures_for
from apokalypse.sim.runner import Stop, in_workers, worker_pool
from apokalypse.sim.stats import mean_interval, wilson

from .bars import progress_bars
from .cards import read_cards
from .simulate import check_run
from .tournament_report import (
    LABELS,
    print_ladder,
    print_summary,
    summarise,
    summarise_beliefs,
)

IN_FLIGHT_PER_JOB = 4
T = TypeVar("T")
R = TypeVar("R")


# --- one game, in a worker ----------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """One game of the tournament: deal ``deal`` (seed ``seed``) in rotation ``rotation``;
    ``lineup[q]`` is the index of the spec at seat ``q``."""

    index: int
    deal: int
    rotation: int
    seed: int
    game: str
    specs: tuple[str, ...]
    lineup: tuple[int, ...]
    cards: str | None = None  # a deck / content file's text (None: the game's default)


@dataclass(frozen=True)
class Played:
    """A game's outcome by seat: winners, score (points, or chips won), decision time, moves."""

    pairing: Pairing
    winners: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()
    seconds: tuple[float, ...] = ()
    moves: tuple[int, ...] = ()
    error: str | None = None


def lineup(specs: int, players: int, rotation: int) -> tuple[int, ...]:
    """Who sits where in a rotation: seat ``q`` gets spec ``(q + rotation) % specs``."""
    return tuple((q + rotation) % specs for q in range(players))


def play(pairing: Pairing) -> Played:
    """Play one game; an exception is reported, not raised (one broken game must not end a
    tournament; it is counted as an error and left out of the figures)."""
    players = len(pairing.lineup)
    try:
        rules = get_game(pairing.game)
        config = rules.config_from_options(players, [], pairing.cards)
        state = rules.new_game(config, pairing.seed)
        bots = {
            q: make_bot(pairing.specs[i], seat_seed(pairing.seed, q), pairing.game)
            for q, i in enumerate(pairing.lineup)
        }
        match: Match = Match(state, bots)
        match.start()
        seconds = [0.0] * players
        moves = [0] * players
        while not state.is_over and len(match.actions) < MAX_DECISIONS:
            seat = state.to_act
            start = time.perf_counter()
            match.play_turn()
            seconds[seat] += time.perf_counter() - start
            moves[seat] += 1
        result = state.result
        if result is None:
            raise ConfigError(f"no end after {MAX_DECISIONS} decisions")
        data = result.to_json()
        # the game's points (Apokalypse's totals, Apokerlypse's chips won) as its collector
        # reads them from the result: one way of counting for the lab and the tournament
        _, seats = collector_for(pairing.game).outcome(data, players)
        points = figures_for(pairing.game).seat_points
        scores = [points(seat) for seat in seats]
        return Played(
            pairing,
            tuple(int(q) for q in data["winners"]),
            tuple(scores),
            tuple(seconds),
            tuple(moves),
        )
    except Exception as exc:
        return Played(pairing, error=f"{type(exc).__name__}: {exc}")


def belief_ratio(task: tuple[str, int, int]) -> tuple[int, float, float] | None:
    """``--beliefs``: one seeded game's (seed, prior, belief), or None when it has no good seat
    or no second horseman. The measurement is the game's own (its registry entry's
    ``beliefs``: Apokalypse's ``bots.apokalypse.beliefs.belief_in_game``)."""
    game, players, seed = task
    path = entry(game).beliefs
    belief_in_game = load(path) if path is not None else None
    if not callable(belief_in_game):
        raise ConfigError(f"{game} has no belief measurement")
    measured = belief_in_game(players, seed, bots="heuristic")
    if measured is None:
        return None
    if not isinstance(measured, tuple):
        raise TypeError(f"a belief measurement is (prior, belief), not {measured!r}")
    return (seed, float(measured[0]), float(measured[1]))


# --- running the games --------------------------------------------------------------------------


def run_all(
    work: Callable[[T], R], tasks: Sequence[T], jobs: int, advance: Callable[[], None], stop: Stop
) -> Iterator[R]:
    """Every task's result as it finishes (from workers: in any order), until the tasks run out
    or a stop is asked for (Ctrl-C: the games under way finish and count)."""
    if jobs == 1:
        for task in tasks:
            if stop.requested:
                return
            yield work(task)
            advance()
        return
    pool = worker_pool(jobs)
    try:
        in_flight = jobs * IN_FLIGHT_PER_JOB
        for _, future in in_workers(pool, work, iter(tasks), in_flight, stop):
            yield future.result()
            advance()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def progress_bar(title: str) -> Progress:
    """A bar on stderr, so that ``--json`` output on stdout stays clean."""
    return progress_bars(title)


# --- the command --------------------------------------------------------------------------------


def pairings(
    game: str,
    specs: Sequence[str],
    players: int,
    games: int,
    seed: int,
    cards: str | None = None,
) -> list[Pairing]:
    """``games`` rounded up to whole deals of ``len(specs)`` rotations each."""
    k = len(specs)
    deals = math.ceil(games / k)
    return [
        Pairing(d * k + r, d, r, seed + d, game, tuple(specs), lineup(k, players, r), cards)
        for d in range(deals)
        for r in range(k)
    ]


def run_tournament(
    game: str,
    players: int,
    games: int,
    jobs: int,
    specs: Sequence[str],
    seed: int,
    json_out: bool,
    out: Path | None,
    beliefs: bool,
    deck: Path | None = None,
    ladder: bool = False,
) -> int:
    """Play (or measure the beliefs) and report; the exit status: 0, 1 when a game failed,
    130/143 when interrupted (the report then covers the games that finished)."""
    rules = get_game(game.strip().lower())
    check_run(games, jobs, seed)
    cards = read_cards(rules.name, deck)
    # a bad player count names its rule, a bad deck or content its entry and field
    rules.config_from_options(players, [], cards)
    console = Console(highlight=False)
    start = time.perf_counter()
    with Stop().catching() as stop:
        if beliefs:
            if cards is not None:
                raise ConfigError("--beliefs plays the game's own deck: leave out --deck")
            if entry(rules.name).beliefs is None:
                known = [name for name in game_names() if entry(name).beliefs is not None]
                owners = " and ".join(f"{name.capitalize()}'s" for name in known)
                raise ConfigError(
                    f"--beliefs measures {owners} ethos beliefs: --game {' or '.join(known)}"
                )
            tasks = [(rules.name, players, seed + i) for i in range(games)]
            with progress_bar("beliefs") as bar:
                job = bar.add_task("beliefs", total=len(tasks))
                measured = list(
                    run_all(belief_ratio, tasks, min(jobs, games), lambda: bar.advance(job), stop)
                )
            data = summarise_beliefs(rules.name, players, measured)
        elif ladder:
            data = _ladder(rules.name, players, games, jobs, seed, cards, stop)
        else:
            checked = [check_bot(spec, rules.name) for spec in specs]
            if len(checked) < 2:
                raise ConfigError("a tournament needs two player specs or more (--a and --b)")
            if len(checked) > len(LABELS):
                raise ConfigError(f"at most {len(LABELS)} player specs")
            tasks_ = pairings(rules.name, checked, players, games, seed, cards)
            with progress_bar("games") as bar:
                job = bar.add_task("games", total=len(tasks_))
                played = list(
                    run_all(play, tasks_, min(jobs, len(tasks_)), lambda: bar.advance(job), stop)
                )
            data = summarise(rules.name, checked, players, sorted(played, key=_index))
    data["seed"] = seed
    if deck is not None:
        data["deck"] = str(deck)
    data["jobs"] = jobs
    data["seconds"] = round(time.perf_counter() - start, 2)
    text = json.dumps(data, indent=1)
    if out is not None:
        out.write_text(text + "\n", "utf-8")
    if json_out:
        print(text)
    elif beliefs:
        low, high = data["ratio_ci95"]
        console.print(
            f"ethos beliefs at the second horseman, {players} players, heuristic play:"
            f" {data['measured']} of {data['games']} games measured; belief/prior of the true"
            f" assignment {data['mean_ratio']} (95 % CI {low} – {high}); mean prior"
            f" {data['mean_prior']}, mean belief {data['mean_belief']}"
        )
    elif ladder:
        print_ladder(data, console)
    else:
        print_summary(data, console)
    if stop.requested:
        print("interrupted: the report covers the games that finished", file=sys.stderr)
        return stop.status
    return 1 if data.get("errors") else 0


def _index(p: Played) -> int:
    return p.pairing.index


def _ladder(game: str, players: int, games: int, jobs: int, seed: int, cards: str | None,
            stop: Stop) -> dict[str, Any]:  # fmt: skip
    """Each level against the one below it (``LADDER``, easiest first): ``games`` games a step,
    every step on the same deals; each step's report as a tournament of the two reports it."""
    steps: list[dict[str, Any]] = []
    for lower, upper in itertools.pairwise(LADDER):
        if stop.requested:
            break
        tasks = pairings(game, [upper, lower], players, games, seed, cards)
        with progress_bar(f"{upper} against {lower}") as bar:
            advance = functools.partial(bar.advance, bar.add_task("games", total=len(tasks)))
            played = list(run_all(play, tasks, min(jobs, len(tasks)), advance, stop))
        steps.append(summarise(game, [upper, lower], players, sorted(played, key=_index)))
    errors = sum(step["errors"] for step in steps)
    return {"game": game, "players": players, "ladder": steps, "errors": errors}


__all__ = [
    "Pairing",
    "Played",
    "lineup",
    "mean_interval",
    "pairings",
    "play",
    "run_tournament",
    "summarise",
    "wilson",
]
