"""``apokalypse bench``: a short run reports both figures for 2, 4 and 6 players (Apokerlypse:
2, 3 and 4, and poker-hand evaluations per second)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import apokalypse.games
from apokalypse.cli.bench import (
    CHECK_EVERY,
    decisions_per_sec,
    evaluator_benchmark,
    mid_game_states,
)
from apokalypse.games.apokalypse import State
from apokalypse.games.apokerlypse import State as KState

CLI = str(Path(sys.executable).parent / "apokalypse")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


def test_short_json_run_has_the_fields():
    run = cli("bench", "--seconds", "0.2", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert set(data["players"]) == {"2", "4", "6"}
    for figures in data["players"].values():
        assert figures["decisions_per_sec"] > 0
        assert 0 < figures["clone_us"] < 10_000
    assert data["python"] == ".".join(map(str, sys.version_info[:3]))


def test_table_output_and_bad_seconds():
    run = cli("bench", "--seconds", "0.05")
    assert run.returncode == 0, run.stderr
    assert "clone" in run.stdout and "decisions/s" in run.stdout
    bad = cli("bench", "--seconds", "0")
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1


def test_clone_samples_come_from_mid_game():
    states = mid_game_states(4, 12)
    assert len(states) == 12
    assert all(
        isinstance(s, State) and not s.is_over and any(any(r) for d in s.rows for r in d)
        for s in states
    )


def test_apokerlypse_json_run_has_the_fields():
    run = cli("bench", "--game", "apokerlypse", "--seconds", "0.1", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["game"] == "apokerlypse" and set(data["players"]) == {"2", "3", "4"}
    for figures in data["players"].values():
        assert figures["decisions_per_sec"] > 0 and figures["games"] >= 1
        assert 0 < figures["clone_us"] < 10_000
    assert data["evaluations_per_sec"] > 0


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


def test_the_rules_packages_read_no_clock():
    """ARCHITECTURE: games/ are pure rules, no clocks; timing lives in cli/bench.py."""
    games = Path(apokalypse.games.__file__).parent
    for path in games.rglob("*.py"):
        text = path.read_text("utf-8")
        for word in ("import time", "from time", "perf_counter", "import datetime"):
            assert word not in text, f"{path.relative_to(games)} reads a clock ({word})"
    assert not (games / "apokerlypse" / "bench.py").exists()
