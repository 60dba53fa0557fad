"""What the commands show while a game runs: never the seed (it rebuilds every hand and the deck
order); and a resumed game continues exactly as the uninterrupted one would."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from apokalypse.engine.record import GameRecord
from tests import commands
from tests.apokalypse.test_cli_play import ALWAYS_FIRST, play

SEED = 918273645546372819  # long and distinctive: it cannot appear on screen by chance


def replay_cmd(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return commands.run([*commands.CLI, "replay", *args], cwd=tmp_path)


@pytest.mark.parametrize("humans", ["1", "1,2"])
def test_the_seed_is_not_shown_while_the_game_runs(tmp_path: Path, humans: str):
    """Neither the welcome line (also on the shared hot-seat screen) nor the default save
    file's name, which the welcome line and the resume hint print, carries the seed."""
    run = play(tmp_path, f"-p 3 --bots random --humans {humans} --seed {SEED}", "\n1\n" * 5)
    assert run.returncode == 0, run.stderr
    assert str(SEED) not in run.stdout + run.stderr
    (save,) = (tmp_path / "saves").iterdir()
    assert str(SEED) not in save.name
    assert GameRecord.load(save).seed == SEED  # the save keeps it, to resume


def test_a_finished_game_shows_its_seed(tmp_path: Path):
    run = play(tmp_path, f"-p 2 --humans none --bots random --seed {SEED} --save g.json")
    assert run.returncode == 0, run.stderr
    assert str(SEED) in run.stdout.split("Game over")[-1]


def test_replay_shows_the_seed_of_a_finished_game_only(tmp_path: Path):
    play(tmp_path, f"-p 3 --bots random --seed {SEED} --save running.json", "1\n" * 6)
    play(tmp_path, f"-p 2 --humans none --bots random --seed {SEED} --save over.json")
    running = replay_cmd(tmp_path, "running.json", "--seat", "1")
    assert running.returncode == 0, running.stderr
    assert str(SEED) not in running.stdout
    over = replay_cmd(tmp_path, "over.json", "--seat", "2")
    assert over.returncode == 0, over.stderr
    assert over.stdout.splitlines()[-1] == f"seed: {SEED}"


@pytest.mark.parametrize(("game", "bots"), [("apokalypse", "random"), ("apokerlypse", "heuristic")])
def test_a_resumed_game_continues_exactly_as_the_uninterrupted_one(
    tmp_path: Path, game: str, bots: str
):
    """Computer players draw from their own seeded streams; after --resume they must be where
    they were, not start their streams afresh."""
    args = f"--game {game} -p 3 --bots {bots} --seed 77"
    whole = play(tmp_path, f"{args} --save whole.json", ALWAYS_FIRST)
    assert whole.returncode == 0, whole.stderr
    cut = play(tmp_path, f"{args} --save cut.json", "1\n" * 12)
    assert cut.returncode == 0, cut.stderr
    before = GameRecord.load(tmp_path / "cut.json")
    assert not before.result  # interrupted mid-game
    resumed = play(tmp_path, "--resume cut.json", ALWAYS_FIRST)
    assert resumed.returncode == 0, resumed.stderr
    expected = json.loads((tmp_path / "whole.json").read_text("utf-8"))
    got = json.loads((tmp_path / "cut.json").read_text("utf-8"))
    assert got["actions"] == expected["actions"]
    assert got["events_sha256"] == expected["events_sha256"]
