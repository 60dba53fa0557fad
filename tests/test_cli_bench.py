"""``apokalypse bench``: a short run reports both figures for 2, 4 and 6 players."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from apokalypse.cli.bench import mid_game_states

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
    assert all(not s.is_over and any(any(r) for d in s.rows for r in d) for s in states)
