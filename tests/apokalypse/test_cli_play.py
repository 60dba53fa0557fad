"""``apokalypse play`` driven as a real subprocess with piped input: a whole game, EOF with the
game saved, resume, bad input, hot-seat, German text and argument errors."""

from __future__ import annotations

import io
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from apokalypse.cli.session import Session
from apokalypse.engine.record import GameRecord, replay
from tests import commands
from tests.apokalypse import builders

# Run the real command line. If the computer players are not installed yet, a stand-in that
# picks a random legal action is put in their place, inside this test process tree only.
LAUNCH = """
import random, sys, types
try:
    from apokalypse.bots import make_bot
except ImportError:
    class _Stand:
        def __init__(self, seed):
            self.rng = random.Random(seed)
        def choose(self, observation, legal):
            return self.rng.choice(legal)
    module = types.ModuleType("apokalypse.bots")
    module.make_bot = lambda name, seed, game="apokalypse": _Stand(seed)
    sys.modules["apokalypse.bots"] = module
from apokalypse.cli.main import app
sys.argv[0] = "apokalypse"
app()
"""
ALWAYS_FIRST = "1\n" * 5000  # pass on a turn, decline a defence, first place for a seal


def play(tmp_path: Path, args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``apokalypse play <args>`` in ``tmp_path`` (relative save paths land there)."""
    return commands.run(
        [sys.executable, "-c", LAUNCH, "play", *shlex.split(args)], cwd=tmp_path, stdin=stdin
    )


def saved(path: Path) -> GameRecord:
    """The save file, checked to replay to exactly the events it was written with."""
    record = GameRecord.load(path)
    rep = replay(record)  # the save replays, event for event
    assert rep.digest == record.events_sha256
    return record


def test_whole_game_against_computer_players(tmp_path):
    run = play(tmp_path, "-p 3 --bots random --seed 5 --save game.json", ALWAYS_FIRST)
    assert run.returncode == 0, run.stderr
    assert "Game over" in run.stdout
    assert "your turn: play a card or pass" in run.stdout
    assert "Reckoning after Horseman 4" in run.stdout
    record = saved(tmp_path / "game.json")
    assert record.result is not None
    assert replay(record).state.is_over
    assert "pass" in record.actions


def test_eof_saves_and_resume_finishes_the_same_game(tmp_path):
    save = tmp_path / "game.json"
    first = play(tmp_path, "-p 3 --bots random --seed 8 --save game.json", "1\n1\n1\n")
    assert first.returncode == 0, first.stderr
    assert "Input closed" in first.stdout
    assert "--resume game.json" in first.stdout
    partial = saved(save)
    assert partial.result is None
    assert partial.actions

    assert partial.meta == {"humans": "1", "bots": "random", "lang": "en"}
    second = play(tmp_path, "--resume game.json", ALWAYS_FIRST)  # seats and bots from the save
    assert second.returncode == 0, second.stderr
    assert f"Resumed after {len(partial.actions)} actions" in second.stdout
    final = saved(save)
    assert final.actions[: len(partial.actions)] == partial.actions
    assert final.seed == 8 and final.result is not None


def test_resume_keeps_the_language_and_an_option_overrides_it(tmp_path):
    first = play(tmp_path, "-p 2 --bots random --seed 4 --lang de --save g.json", "1\n")
    assert first.returncode == 0, first.stderr
    assert saved(tmp_path / "g.json").meta["lang"] == "de"
    again = play(tmp_path, "--resume g.json", "")
    assert "Spielstand gespeichert in" in again.stdout
    english = play(tmp_path, "--resume g.json --lang en", "")
    assert "Game saved to" in english.stdout
    assert saved(tmp_path / "g.json").meta["lang"] == "en"


def test_bad_input_is_explained_in_one_line_and_asked_again(tmp_path):
    answers = "99\nfoo bar\nplay nonsense heaven\n\nhelp\nboard\npass\n"
    run = play(tmp_path, "-p 2 --bots random --seed 2 --save game.json", answers)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "There is no choice 99" in out
    assert "Cannot read that: 'foo bar': unknown verb 'foo'" in out
    assert "Not allowed — R-TURN-1" in out
    assert "Answer with the number of a choice" in out
    record = saved(tmp_path / "game.json")
    assert "pass" in record.actions  # typed notation is accepted like a number
    assert not any("nonsense" in a for a in record.actions)


def test_zero_takes_back_the_first_step_of_a_play(tmp_path):
    run = play(tmp_path, "-p 2 --bots random --seed 3 --save game.json", "2\n0\nquit\n")
    assert run.returncode == 0, run.stderr
    assert "0) Back: choose again" in run.stdout
    record = saved(tmp_path / "game.json")
    assert record.actions[-1] == "back"
    assert record.actions[-2].startswith("play ")


def test_answers_can_be_chained_with_semicolons(tmp_path):
    run = play(tmp_path, "-p 2 --humans 1,2 --seed 4 --save game.json", "\npass\n\nlog;pass\n")
    assert run.returncode == 0, run.stderr
    assert saved(tmp_path / "game.json").actions == ["pass", "pass"]


def test_hot_seat_hides_the_hand_between_people(tmp_path):
    # Three people who always pass: two of them alternate (the first to pass starts the next
    # round, and the round ends when all but one have passed).
    run = play(tmp_path, "-p 3 --humans all --seed 5 --save game.json", "\n1\n" * 800)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert len(set(re.findall(r"Pass the keyboard to (p\d)", out))) >= 2
    assert "Game over" in out
    # Each hand is shown only after its owner took the keyboard.
    for screen in out.split("Pass the keyboard to ")[1:]:
        owner = screen[:2]
        for other in ("p1", "p2", "p3"):
            if other != owner:
                assert f"Hand of {other}" not in screen
    assert saved(tmp_path / "game.json").result is not None


def test_german_text(tmp_path):
    run = play(tmp_path, "-p 4 --bots random --seed 11 --lang de --save spiel.json", "1\n")
    assert run.returncode == 0, run.stderr
    assert "Deine Gesinnung" in run.stdout
    assert "Himmel" in run.stdout and "Grundbev." in run.stdout
    assert "Eingabe beendet" in run.stdout
    assert json.loads((tmp_path / "spiel.json").read_text("utf-8"))["game"] == "apokalypse"


def test_all_computer_players_without_input(tmp_path):
    run = play(tmp_path, "-p 4 --humans none --bots random --seed 1 --save game.json")
    assert run.returncode == 0, run.stderr
    assert "Game over" in run.stdout
    assert "Hand of" not in run.stdout  # a spectator sees no hand
    assert saved(tmp_path / "game.json").result is not None


def test_default_save_file_goes_to_saves(tmp_path):
    run = play(tmp_path, "-p 2 --bots random --seed 3", "1\n")  # saved from the first action
    assert run.returncode == 0, run.stderr
    files = list((tmp_path / "saves").glob("apokalypse-*.json"))
    assert len(files) == 1 and "-3." not in files[0].name  # the name never carries the seed
    saved(files[0])


def test_bad_arguments_are_one_line_errors(tmp_path):
    for args, message in (
        ("--lang fr", "unknown language 'fr'"),
        ("-p 3 --humans 7", "--humans: '7' is not a seat 1–3"),
        ("-p 9", "R-SETUP-1"),
        ("--bots nosuchbot", "nosuchbot"),
        ("--resume missing.json", "cannot read"),
    ):
        run = play(tmp_path, args)
        assert run.returncode == 2, (args, run.stdout)
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr
        assert message in lines[0]


# --- hot-seat defence windows, in-process with an exact position ------------------------------


def run_session(monkeypatch, tmp_path: Path, state, answers: list[str]) -> str:
    """Run a hot-seat Session for three people on ``state`` with scripted answers; EOF after."""
    commands.script_input(monkeypatch, answers)
    out = io.StringIO()
    session = Session(
        console=Console(file=out, width=120, color_system=None),
        lang="en",
        state=state,
        record=GameRecord("apokalypse", "1", state.config.to_json(), 0),
        path=tmp_path / "game.json",
        humans=frozenset({0, 1, 2}),
        bots={},
    )
    session.run()
    return out.getvalue()


def handovers(out: str) -> list[str]:
    return re.findall(r"Pass the keyboard to (p\d)", out)


def test_hot_seat_attack_asks_every_other_person_in_turn(monkeypatch, tmp_path):
    # p2 holds no defence card, p3 does; p2 still gets the keyboard before p3, so that the
    # handovers do not tell who holds a defence card (R-ATTACK-4). "1" declines when asked and
    # is ignored where only Enter is expected.
    s = builders.blank(players=3, to_act=0)
    builders.populaces(s, 1, good=1)
    builders.hand(s, 0, "violence", "metal")
    builders.hand(s, 1, "m/hp")
    builders.hand(s, 2, "ethos")
    answers = ["", "play violence attack;target p2.good", "", "1", "", "1", ""]
    out = run_session(monkeypatch, tmp_path, s, answers)
    assert "p1 attacks the outermost good populace of p2 with Violence." in out
    assert handovers(out)[:4] == ["p1", "p2", "p3", "p2"]
    assert "loses the outermost good populace." in out


# --- levels, budgets and "why" through the real command line -----------------------------------


def test_levels_and_budgets_play_whole_games(tmp_path):
    run = play(tmp_path, "-p 3 --humans none --bots easy,ismcts:4 --seed 12 --save g.json")
    assert run.returncode == 0, run.stderr
    assert "computer players: easy,ismcts:4" in run.stdout and "Game over" in run.stdout
    record = saved(tmp_path / "g.json")
    assert record.result is not None and record.meta["bots"] == "easy,ismcts:4"


def test_why_after_a_watched_game_shows_a_searching_players_candidates(tmp_path):
    run = play(
        tmp_path,
        "-p 3 --humans none --bots ismcts:4,medium --seed 12 --save g.json",
        "why\nwhy 1\n",
    )
    assert run.returncode == 0, run.stderr
    assert "Type why for the last computer decision" in run.stdout
    assert "Move 1: p" in run.stdout
    assert "visits  offered  value  action" in run.stdout or "no search to show" in run.stdout


def test_why_during_a_game_is_refused_in_one_line(tmp_path):
    """Secrecy (R-INFO-3): a searching player's candidates show its hand; the person playing
    may see them only once the game is over."""
    run = play(tmp_path, "-p 3 --bots ismcts:4 --seed 12 --save g.json", "why\nwhy 2\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("type why once the game is over") == 2
    assert "Its best candidates" not in run.stdout and "visits" not in run.stdout


@pytest.mark.parametrize(
    ("bots", "words"),
    [
        ("ismcts:0s", "bad budget in 'ismcts:0s'"),
        ("ismcts:-1", "bad budget in 'ismcts:-1'"),
        ("ismcts:abc", "bad budget in 'ismcts:abc'"),
        ("expert,sage", "unknown bot 'sage'"),
    ],
)
def test_bad_computer_players_are_refused_before_the_game(tmp_path, bots, words):
    run = play(tmp_path, f"-p 3 --bots {bots} --save g.json", ALWAYS_FIRST)
    assert run.returncode == 2, run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], run.stderr
    assert not (tmp_path / "g.json").exists()


def test_hot_seat_people_play_under_their_names(tmp_path):
    run = play(
        tmp_path, "-p 3 --humans 1,3 --names ' Ann ,Bob' --seed 5 --save game.json", "\n1\n" * 800
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "People: Ann, Bob" in out
    assert re.findall(r"Pass the keyboard to (\w+)", out)[:2] in (["Ann", "Bob"], ["Bob", "Ann"])
    assert "Ann" in out and "Hand of p1" not in out and "Hand of p3" not in out
    assert saved(tmp_path / "game.json").meta["names"] == " Ann ,Bob"
    resumed = play(tmp_path, "--resume game.json", "")  # the names go on with the game
    assert "People: Ann, Bob" in resumed.stdout


@pytest.mark.parametrize(
    ("names", "error"),
    [
        ("Ann", "1 names for 2 people's seats"),
        ("Ann,", "'': A name needs at least one character."),
        ("Ann," + "x" * 25, "A name has at most 24 characters."),
    ],
)
def test_names_are_checked_like_the_servers(tmp_path, names, error):
    run = play(tmp_path, f"-p 3 --humans 1,3 --names {shlex.quote(names)} --seed 5", "")
    assert run.returncode == 2 and error in run.stderr, run.stderr
