"""``apokalypse bench``: a short run reports every figure for 2, 4 and 6 players (Apokerlypse:
2, 3 and 4, and poker-hand evaluations per second), for the pure-Python and the compiled build
side by side, each measured in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import apokalypse.games
from apokalypse import _build
from apokalypse.bench.apokerlypse import evaluator_benchmark
from apokalypse.bench.engine import (
    CHECK_EVERY,
    decisions_per_sec,
    determinize_us,
    heuristic_per_sec,
    ismcts_per_sec,
    mid_game_states,
    rows,
)
from apokalypse.games.apokalypse import State
from apokalypse.games.apokerlypse import State as KState

CLI = str(Path(sys.executable).parent / "apokalypse")


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=180, env=env)


COMPILED = _build.check(_build.build_dir())[0] is not None


def test_short_json_run_has_the_fields_for_both_builds():
    run = cli("bench", "--seconds", "0.1", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["python"] == ".".join(map(str, sys.version_info[:3]))
    builds = data["builds"]
    assert set(builds) == {"pure", "compiled"}
    measured = [b for b in builds.values() if "unavailable" not in b]
    assert builds["pure"] in measured
    assert (builds["compiled"] in measured) == COMPILED
    for build, figures in builds.items():
        if figures in measured:
            assert figures["build"] == build  # the child process ran the build it was asked for
            assert set(figures["players"]) == {"2", "4", "6"}
            for per in figures["players"].values():
                assert per["decisions_per_sec"] > 0
                assert 0 < per["clone_us"] < 10_000 and 0 < per["determinize_us"] < 100_000
            assert figures["heuristic_decisions_per_sec"] > 0
            assert figures["ismcts_iterations_per_sec"] > 0
    speedups = data["speedup"]
    assert "decisions_per_sec/4" in speedups and "ismcts_iterations_per_sec" in speedups
    assert all((s is not None and s > 0) == COMPILED for s in speedups.values())


def test_table_output_and_bad_seconds():
    run = cli("bench", "--seconds", "0.05")
    assert run.returncode == 0, run.stderr
    for word in ("clone", "determinize", "decisions/s", "heuristic", "ISMCTS", "speed-up"):
        assert word in run.stdout, word
    assert "pure" in run.stdout and "compiled" in run.stdout
    assert ("compiled build unavailable" in run.stdout) != COMPILED
    bad = cli("bench", "--seconds", "0")
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1


def test_clone_samples_come_from_mid_game():
    states = mid_game_states(4, 12)
    assert len(states) == 12
    assert all(
        isinstance(s, State) and not s.is_over and any(any(r) for d in s.displays for r in d)
        for s in states
    )


def test_apokerlypse_json_run_has_the_fields():
    run = cli("bench", "--game", "apokerlypse", "--seconds", "0.05", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    pure = data["builds"]["pure"]
    assert data["game"] == "apokerlypse" and set(pure["players"]) == {"2", "3", "4"}
    for figures in pure["players"].values():
        assert figures["decisions_per_sec"] > 0 and figures["games"] >= 1
        assert 0 < figures["clone_us"] < 10_000
    assert pure["evaluations_per_sec"] > 0 and pure["heuristic_decisions_per_sec"] > 0


def test_an_unavailable_compiled_build_is_said_in_the_table(tmp_path: Path):
    """No compiled build (here: an empty build folder): the pure figures, and the table says
    why the compiled column is empty."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("APOKALYPSE_")}
    env["APOKALYPSE_BUILD_DIR"] = str(tmp_path)
    run = cli("bench", "--seconds", "0.05", env=env)
    assert run.returncode == 0, run.stderr
    assert "compiled build unavailable: APOKALYPSE_BUILD=compiled, but no compiled build" in (
        " ".join(run.stdout.split())
    )
    data = json.loads(cli("bench", "--seconds", "0.05", "--json", env=env).stdout)
    assert "no compiled build" in data["builds"]["compiled"]["unavailable"]
    assert data["builds"]["pure"]["players"]["4"]["decisions_per_sec"] > 0
    assert set(data["speedup"].values()) == {None}


def test_speedups_are_compiled_over_pure_and_lower_is_better_for_times():
    pure = {"players": {"4": {"decisions_per_sec": 100, "clone_us": 10, "determinize_us": 30}}}
    compiled = {"players": {"4": {"decisions_per_sec": 250, "clone_us": 4, "determinize_us": 60}}}
    table = {key: speedup for key, _, _, speedup in rows({"pure": pure, "compiled": compiled})}
    assert table == {"decisions_per_sec/4": 2.5, "clone_us/4": 2.5, "determinize_us/4": 0.5}
    missing = rows({"pure": pure, "compiled": {"unavailable": "no build"}})
    assert [speedup for *_, speedup in missing] == [None, None, None]


def test_apokerlypse_table_output_and_unknown_game():
    run = cli("bench", "-g", "apokerlypse", "--seconds", "0.05")
    assert run.returncode == 0, run.stderr
    assert "Apokerlypse engine" in run.stdout and "poker-hand evaluations" in run.stdout
    bad = cli("bench", "--game", "chess", "--seconds", "0.05")
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: unknown game") and bad.stderr.count("\n") == 1


def test_apokerlypse_clone_samples_come_from_mid_game():
    states = mid_game_states(3, 8, "apokerlypse")
    assert len(states) == 8
    assert all(isinstance(s, KState) and not s.is_over and s.pot + sum(s.chips) for s in states)


def test_evaluator_and_random_play_figures():
    assert evaluator_benchmark(0.05, hands=500) > 0
    rate, decisions, games = decisions_per_sec(4, 0.05, "apokerlypse")
    assert rate > 0 and decisions >= CHECK_EVERY and games >= 1


@pytest.mark.parametrize("game", ["apokalypse", "apokerlypse"])
def test_search_figures_in_this_process(game: str):
    assert 0 < determinize_us(4, 0.02, game) < 100_000
    assert heuristic_per_sec(0.02, game) > 0
    assert ismcts_per_sec(0.02, game) > 0  # at least one whole search, however short the time


def test_the_rules_packages_read_no_clock():
    """docs/design.md: games/ are pure rules, no clocks; timing lives in bench/."""
    games = Path(apokalypse.games.__file__).parent
    for path in games.rglob("*.py"):
        text = path.read_text("utf-8")
        for word in ("import time", "from time", "perf_counter", "import datetime"):
            assert word not in text, f"{path.relative_to(games)} reads a clock ({word})"
    assert not (games / "apokerlypse" / "bench.py").exists()
