"""``apokalypse bench``: how fast the engine plays, for search and simulation budgets, in both
builds of the rules — pure Python and compiled by mypyc (``apokalypse/_build.py``) — side by side.

Each build is measured in a process of its own (``APOKALYPSE_BUILD=pure`` / ``compiled``, one
after the other, never at once), which prints its figures as JSON (``python -m
apokalypse.bench.engine GAME SECONDS``); this process puts them in one table with the speed-up.

The figures, per player count (the game's registry entry names them: Apokalypse 2, 4, 6;
Apokerlypse 2, 3, 4): random-play decisions
per second (legal actions, one uniform choice, apply — the inner loop of any playout), the cost
of ``state.clone()`` (the price of every search node) and of ``state.determinize(seat, rng)``
(a sampled world for a random seat: the price of every ISMCTS iteration), both on mid-game
states. At 4 players: the heuristic player's decisions per second in heuristic games and
ISMCTS iterations per second mid-game. A game may add figures of its own, in the module its entry
names (Apokerlypse: poker-hand evaluations per second, the final scoring's inner loop,
:mod:`.apokerlypse`). Times are the measuring process's CPU time (:data:`clock`). The
clock is read here and nowhere in ``games/`` (docs/design.md: the rules have no clocks).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, cast

from apokalypse import build_info
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.protocol import GameState
from apokalypse.engine.registry import entry, get_game, part
from apokalypse.engine.rng import Rng

if TYPE_CHECKING:  # imported where used: the bench loads the players only when it times them
    from apokalypse.bots.ismcts import ISMCTSPlayer

# The clock: this process's CPU time, not the wall's. The machines these figures come from are
# shared, and a second process on the same core would count as the engine's time; the work is
# single-threaded, so on an idle machine both clocks agree.
clock = time.process_time

BOT_PLAYERS = 4  # the heuristic and ISMCTS figures: 4-player games
CLONE_SAMPLES = 40
BOT_SAMPLES = 24
SEARCH_SAMPLES = 240  # mid-game states sampled for the searched decisions among them
MAX_SECONDS = 3600  # per player count: an hour is already far more than a figure needs
CHECK_EVERY = 64  # reading the clock is not free; look at it every so many decisions
BUILDS = ("pure", "compiled")


def decisions_per_sec(
    players: int, seconds: float, game: str = "apokalypse"
) -> tuple[float, int, int]:
    """Random play over seeded games for about ``seconds``: (rate, decisions, games started)."""
    rules = get_game(game)
    config = rules.config_from_options(players, [], None)
    rng = Rng(players)
    decisions = 0
    games = 0
    state = rules.new_game(config, games)
    start = clock()
    deadline = start + seconds
    while True:
        if state.is_over:
            games += 1
            state = rules.new_game(config, games)
        state.apply(rng.choice(list(state.legal_actions())))
        decisions += 1
        if decisions % CHECK_EVERY == 0 and clock() >= deadline:
            break
    elapsed = clock() - start
    return decisions / elapsed, decisions, games + 1


def mid_game_states(players: int, count: int, game: str = "apokalypse") -> list[GameState]:
    """States from the middle half of seeded random games (early states are nearly empty)."""
    rules = get_game(game)
    config = rules.config_from_options(players, [], None)
    rng = Rng(1000 + players)
    states: list[GameState] = []
    seed = 0
    while len(states) < count:
        state = rules.new_game(config, 1000 + seed)
        seed += 1
        history: list[GameState] = []
        while not state.is_over:
            history.append(state.clone())
            state.apply(rng.choice(list(state.legal_actions())))
        middle = history[len(history) // 4 : 3 * len(history) // 4]
        step = max(1, len(middle) // 10)
        states += middle[::step][: count - len(states)]
    return states


def clone_us(players: int, seconds: float, game: str = "apokalypse") -> float:
    """Average µs per ``clone()`` over mid-game states, repeated for about ``seconds``."""
    states = mid_game_states(players, CLONE_SAMPLES, game)
    clones = 0
    start = clock()
    deadline = start + seconds
    while True:
        for state in states:
            state.clone()
        clones += len(states)
        if clock() >= deadline:
            break
    return (clock() - start) / clones * 1e6


def determinize_us(players: int, seconds: float, game: str = "apokalypse") -> float:
    """Average µs per ``determinize(seat, rng)`` over mid-game states, each for a random seat
    (the seat's own view decides how much is redealt), repeated for about ``seconds``."""
    states = mid_game_states(players, CLONE_SAMPLES, game)
    rng = Rng(2000 + players)
    seats = [rng.below(players) for _ in states]
    done = 0
    start = clock()
    deadline = start + seconds
    while True:
        for state, seat in zip(states, seats, strict=True):
            state.determinize(seat, rng)
        done += len(states)
        if clock() >= deadline:
            break
    return (clock() - start) / done * 1e6


def heuristic_per_sec(seconds: float, game: str = "apokalypse") -> float:
    """The heuristic player's decisions per second at 4 players: seeded games with the heuristic
    in every seat, timing only the players' ``choose`` (the engine's legal actions, observations
    and ``apply`` are the other rows' business). Decisions with one legal action count too: the
    player is asked them like any other.

    The positions are the heuristic's own games, not random play's: random players pile cards
    on the table that heuristic games never see, which would time the player on positions it
    does not meet."""
    from apokalypse.bots import make_bot

    rules = get_game(game)
    config = rules.config_from_options(BOT_PLAYERS, [], None)
    done = 0
    spent = 0.0
    seed = 3000
    while spent < seconds:
        state = rules.new_game(config, seed)
        bots = [make_bot("heuristic", seed * 8 + q, game) for q in range(BOT_PLAYERS)]
        seed += 1
        while not state.is_over:
            seat = state.to_act
            observation, legal = state.observation(seat), state.legal_actions()
            start = clock()
            action = bots[seat].choose(observation, legal)
            spent += clock() - start
            done += 1
            events = state.apply(action)
            for q, bot in enumerate(bots):
                bot.observe([event.view(q) for event in events])
    return done / spent


def _searched(player: ISMCTSPlayer[Any, Any], state: GameState) -> bool:
    """Whether ``player`` spends a search on the decision of ``state`` (an anchor margin of 1
    or more means the anchor always stands, and nothing is searched)."""
    margin = player.anchor_margin
    if callable(margin):
        margin = margin(state.observation(state.to_act))
    return margin is None or margin < 1 or player.search_anchored


def ismcts_per_sec(seconds: float, game: str = "apokalypse") -> float:
    """ISMCTS iterations per second at 4 players on mid-game decisions (at least two legal
    actions), with the registered player (its budget, evaluation and beliefs) and the sampler
    ``Match`` hands it: ``state.determinize(seat, rng)``."""
    from apokalypse.bots import make_bot
    from apokalypse.bots.ismcts import ISMCTSPlayer

    probe = make_bot("ismcts", 4000, game)
    assert isinstance(probe, ISMCTSPlayer)
    # Only decisions the player searches: an anchored search (Apokerlypse's, in the final
    # scoring only) leaves the others to its rules of thumb and spends no iteration on them,
    # so a sample of those alone would never finish. Random games are sampled until enough.
    states = [
        s
        for s in mid_game_states(BOT_PLAYERS, SEARCH_SAMPLES, game)
        if s.to_act >= 0 and len(s.legal_actions()) > 1 and _searched(probe, s)
    ][:BOT_SAMPLES]
    if not states:
        raise ValueError(f"{game}: no decision of {SEARCH_SAMPLES} sampled is searched")
    iterations = 0
    spent = 0.0
    i = 0
    while spent < seconds or not iterations:
        state = states[i % len(states)]
        seat = state.to_act
        player = make_bot("ismcts", 4000 + i, game)
        assert isinstance(player, ISMCTSPlayer)
        observation, legal = state.observation(seat), state.legal_actions()

        def worlds(rng: Rng, state: GameState = state, seat: int = seat) -> GameState:
            return state.determinize(seat, rng)

        start = clock()
        player.choose_in(observation, legal, worlds)
        spent += clock() - start
        assert player.last is not None
        iterations += player.last.iterations
        i += 1
    return iterations / spent


def measure(seconds: float, game: str = "apokalypse") -> dict[str, Any]:
    """Every figure, in this process's build of the rules."""
    figures: dict[str, Any] = {}
    for players in entry(game).bench.players:
        rate, decisions, games = decisions_per_sec(players, seconds, game)
        figures[str(players)] = {
            "decisions_per_sec": round(rate, 1),
            "clone_us": round(clone_us(players, max(0.05, seconds / 4), game), 2),
            "determinize_us": round(determinize_us(players, max(0.05, seconds / 4), game), 2),
            "decisions": decisions,
            "games": games,
        }
    data: dict[str, Any] = {"game": game, "build": build_info()["build"], "players": figures}
    data["heuristic_decisions_per_sec"] = round(heuristic_per_sec(seconds, game), 1)
    data["ismcts_iterations_per_sec"] = round(ismcts_per_sec(seconds, game), 1)
    own = own_figures(game)
    if own is not None:
        data.update(own.measure(seconds))
    return data


def measure_build(build: str, game: str, seconds: float) -> dict[str, Any]:
    """:func:`measure` in a process running ``build``; ``{"unavailable": why}`` when that build
    cannot be loaded (no compiled build, or a stale one)."""
    done = subprocess.run(
        [sys.executable, "-m", "apokalypse.bench.engine", game, repr(seconds)],
        env={**os.environ, "APOKALYPSE_BUILD": build},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        return {"unavailable": lines[-1].removeprefix("error: ")}
    data: dict[str, Any] = json.loads(done.stdout)
    if data["build"] != build:  # the child says which build it ran: never a silent mix-up
        return {"unavailable": f"asked for the {build} build, the process ran {data['build']}"}
    return data


# (key, label, higher is better) of the figures per player count, then of the single figures.
PER_PLAYERS = (
    ("decisions_per_sec", "random-play decisions/s, {} players", True),
    ("clone_us", "clone(), {} players (µs)", False),
    ("determinize_us", "determinize(), {} players (µs)", False),
)
Figure = tuple[str, str, bool]
SINGLE: tuple[Figure, ...] = (
    ("heuristic_decisions_per_sec", f"heuristic decisions/s, {BOT_PLAYERS} players", True),
    ("ismcts_iterations_per_sec", f"ISMCTS iterations/s, {BOT_PLAYERS} players", True),
)


class OwnFigures(Protocol):
    """A game's own figures (the module its entry's ``bench.figures`` names)."""

    FIGURES: tuple[Figure, ...]  # (key, label, higher is better), as SINGLE

    def measure(self, seconds: float) -> dict[str, object]:
        """The figures under their keys, and anything the JSON should say beside them."""
        ...


def own_figures(game: str) -> OwnFigures | None:
    found = part(game, "bench")
    if found is None:
        return None
    if not (isinstance(found, ModuleType) and hasattr(found, "FIGURES")):
        raise TypeError(f"{game}'s benchmark figures are not a module with FIGURES: {found!r}")
    module: OwnFigures = cast(OwnFigures, found)
    return module


def rows(
    builds: dict[str, dict[str, Any]],
) -> list[tuple[str, str, list[float | None], float | None]]:
    """(key, label, a value per build, speed-up compiled over pure) for every figure (the
    game's own too: the builds' figures name their game)."""
    measured = [b for b in builds.values() if "unavailable" not in b]
    if not measured:
        return []
    out = []

    def add(key: str, label: str, values: list[float | None], higher: bool) -> None:
        pure, compiled = values
        speedup = None
        if pure and compiled:
            speedup = round(compiled / pure if higher else pure / compiled, 2)
        out.append((key, label, values, speedup))

    for players in measured[0]["players"]:
        for key, label, higher in PER_PLAYERS:
            values = [b.get("players", {}).get(players, {}).get(key) for b in builds.values()]
            add(f"{key}/{players}", label.format(players), values, higher)
    game = measured[0].get("game")
    own = own_figures(game) if isinstance(game, str) else None
    for key, label, higher in (*SINGLE, *(own.FIGURES if own is not None else ())):
        if key in measured[0]:
            add(key, label, [b.get(key) for b in builds.values()], higher)
    return out


def run_bench(game: str, json_out: bool, seconds: float) -> None:
    rules = get_game(game)  # an unknown game fails here, in one line
    if not 0 < seconds <= MAX_SECONDS:  # also refuses nan and inf, which would never end
        raise ConfigError(f"--seconds must be more than 0 and at most {MAX_SECONDS}, not {seconds}")
    builds = {build: measure_build(build, rules.name, seconds) for build in BUILDS}
    if all("unavailable" in b for b in builds.values()):
        raise ConfigError(f"the benchmark could not run: {builds['pure']['unavailable']}")
    table = rows(builds)
    data = {
        "game": rules.name,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "seconds": seconds,
        "builds": builds,
        "speedup": {key: speedup for key, _, _, speedup in table},
    }
    if json_out:
        print(json.dumps(data, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    title = f"{rules.name.capitalize()} engine, {data['implementation']} {data['python']}"
    shown = Table(title=title)
    shown.add_column("figure")
    for build in BUILDS:
        shown.add_column(build, justify="right")
    shown.add_column("speed-up", justify="right")
    for _, label, values, speedup in table:
        cells = [
            "–" if value is None else f"{value:,.1f}" if "µs" in label else f"{value:,.0f}"
            for value in values
        ]
        shown.add_row(label, *cells, "–" if speedup is None else f"{speedup:.2f}×")
    missing = [
        f"{b} build unavailable: {f['unavailable']}"
        for b, f in builds.items()
        if "unavailable" in f
    ]
    if missing:
        shown.caption = "\n".join(missing)
    Console().print(shown)


if __name__ == "__main__":  # one build's figures as JSON, for run_bench (measure_build)
    print(json.dumps(measure(float(sys.argv[2]), sys.argv[1])))
