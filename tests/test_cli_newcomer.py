"""What a newcomer hit in the terminal game: German parser errors, the Apokerlypse game over, the
resume hint, usage errors, closed pipes, unwritable saves, small slips in the texts, ``--resume``
with options that contradict the save, saves of games that never began, Apokerlypse's opening,
card bonus, action chips and first question, and ``--help``."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from apokalypse.cli.ui import make_ui
from apokalypse.engine.errors import NotationError, RecordError
from apokalypse.engine.events import Event
from apokalypse.engine.record import GameRecord
from apokalypse.games.apokalypse import GAME as APOKALYPSE
from apokalypse.games.apokalypse.actions import parse_action as apo_parse
from apokalypse.games.apokerlypse import GAME as POKER
from apokalypse.games.apokerlypse.actions import parse_action as poker_parse
from apokalypse.i18n import LANGS, catalog, has, seat_names
from apokalypse.i18n.apokerlypse import render as poker_text
from tests import commands
from tests.apokalypse.test_cli_play import ALWAYS_FIRST, LAUNCH, play
from tests.helpers import cli, one_line_error
from tests.test_cli_robustness import CLI, answer, new_session


def draw(renderable: object, width: int = 140) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue()


# --- 1. parser errors in the player's language --------------------------------------------------

BAD_NOTATION = {
    "apokalypse": [
        " ",
        "blabla",
        "pass now",
        "play m/hp",
        "play m/hp sideways",
        "play M/HP\x1b heaven",
        "give " + "x" * 40,
        "to q3",
        "steal p0",
        "target p2",
        "target p2.up",
        "target p2.good.sky",
        "target p2.good.heaven.x",
        "target a.b.c.d.e",
    ],
    "apokerlypse": [
        "",
        "blabla",
        "pay now",
        "discard",
        "discard 1x",
        "discard 7x",
        "discard Zh",
        "use hearts",
        "target q2",
        "target p0",
        "target p12345",
    ],
}


@pytest.mark.parametrize("game", sorted(BAD_NOTATION))
def test_every_notation_error_has_a_key_with_a_text_in_both_languages(game):
    parse = apo_parse if game == "apokalypse" else poker_parse
    for line in BAD_NOTATION[game]:
        with pytest.raises(NotationError) as caught:
            parse(line)
        exc = caught.value
        assert exc.key is not None, (line, str(exc))
        for lang in LANGS:
            key = f"notation.{exc.key}"
            assert has(f"{game}.{key}", lang) or has(key, lang), (line, exc.key, lang)


def test_notation_error_keeps_its_english_message():
    exc = NotationError("'x': unknown verb 'x'", key="verb", params={"verb": "'x'"})
    assert str(exc) == "'x': unknown verb 'x'" and exc.key == "verb"
    assert dict(exc.params) == {"verb": "'x'"}
    assert NotationError("plain").key is None and str(NotationError("plain")) == "plain"
    with pytest.raises(NotationError, match="unknown verb 'blabla'"):
        apo_parse("blabla")


def test_a_german_game_explains_bad_answers_in_german(tmp_path):
    run = play(tmp_path, "-p 2 --bots random --seed 3 --lang de", "blabla\n-1\n1.5\n99\nquit\n")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "unknown" not in out and "Cannot read" not in out, out[-2000:]
    assert "Nicht verstanden: 'blabla': unbekanntes Wort 'blabla'" in out
    assert "Es gibt keine Auswahl -1" in out
    assert "Es gibt keine Auswahl 1.5" in out


def test_a_german_apokerlypse_game_explains_bad_answers_in_german(tmp_path):
    run = play(tmp_path, "--game apokerlypse -p 2 --bots random --seed 3 --lang de", "use 7x\nq\n")
    assert run.returncode == 0, run.stderr
    assert "Nicht verstanden: 'use 7x': '7x' ist keine Karte" in run.stdout, run.stdout[-1500:]


# --- 2. who ran out of chips, and when ----------------------------------------------------------


def test_apokerlypse_game_over_names_the_player_and_the_round():
    names = seat_names(3, None, "en")
    over = {"winners": [0], "chips": [20, 0, 16], "rounds": 4, "reason": "no-chips"}
    line = poker_text.render_view(Event("game-over", over).view(None), "en", names)
    assert "p2" in line.split("Chips:")[0] and "4" in line, line
    assert "a player has no chips left" not in line
    german = poker_text.render_view(Event("game-over", over).view(None), "de", names)
    assert "p2" in german.split("Chips:")[0], german
    ui = make_ui("apokerlypse", POKER.config_from_options(3, [], None).to_json(), "en")
    shown = draw(ui.result_view(over, names)) + ui.result_line(over, names)
    assert "a player has no chips left" not in shown
    assert "p2 ran out of chips during dealer round 4" in shown, shown
    # Chips won back in the round's scoring: the event does not say who ran out.
    back = {**over, "chips": [20, 3, 16]}
    line = poker_text.render_view(Event("game-over", back).view(None), "en", names)
    assert "after dealer round 4: a player ran out of chips during that round" in line, line


# --- 3. a resume hint that works as printed -----------------------------------------------------


def test_program_name_is_what_the_user_can_type(tmp_path):
    from apokalypse.cli.safe import command_line, program_name

    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    script = venv / "apokalypse"
    assert program_name(str(script), tmp_path) == ".venv/bin/apokalypse"
    assert program_name(".venv/bin/apokalypse", tmp_path) == ".venv/bin/apokalypse"
    assert program_name("apokalypse", tmp_path) == "apokalypse"  # found on PATH
    assert program_name("/usr/local/bin/apokalypse", tmp_path) == "/usr/local/bin/apokalypse"
    # python -m apokalypse.cli.main: the venv's script if there is one, else the plain name
    assert program_name("/x/apokalypse/cli/main.py", tmp_path) == "apokalypse"
    script.touch()
    assert program_name("/x/apokalypse/cli/main.py", tmp_path) == ".venv/bin/apokalypse"
    assert program_name(str(tmp_path / "apokalypse"), tmp_path) == "./apokalypse"
    line = command_line(".venv/bin/apokalypse", "play", "--resume", Path("my saves/a.json"))
    assert line == ".venv/bin/apokalypse play --resume 'my saves/a.json'"


def test_resume_hint_is_a_whole_command_on_its_own_line(tmp_path):
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    launch = LAUNCH.replace(
        'sys.argv[0] = "apokalypse"', f"sys.argv[0] = {str(tmp_path / '.venv/bin/apokalypse')!r}"
    )
    save = "my saves/a game saved with a rather long name to make it wrap.json"
    args = ["play", "-p", "2", "--bots", "random", "--seed", "4", "--save", save]
    command = [sys.executable, "-c", launch, *args]
    run = commands.run(command, cwd=tmp_path, stdin="1\nquit\n", columns=80)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert f".venv/bin/apokalypse play --resume '{save}'" in lines, run.stdout[-800:]


def test_the_end_of_game_replay_command_is_whole_too(tmp_path):
    run = play(tmp_path, "-p 2 --bots random --seed 5 --save 'a b.json'", ALWAYS_FIRST)
    assert run.returncode == 0, run.stderr
    assert "apokalypse replay 'a b.json'" in run.stdout.splitlines(), run.stdout[-800:]


# --- 4. usage errors are one line ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"), [(("play", "--seed", "abc"), "--seed"), (("play", "--players", "x"), "-p")]
)
def test_bad_numbers_for_play_are_one_line(args, words):
    assert words in one_line_error(cli(*args))


# --- 5. a closed pipe ends quietly -------------------------------------------------------------


def closed_pipe(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run with a stdout nobody reads: its read end is closed before anything is written."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120", "NO_COLOR": "1"}
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [*CLI, *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)


def test_a_closed_pipe_ends_quietly(tmp_path):
    sim = closed_pipe("simulate", "--games", "2", "--records", "recs", cwd=tmp_path)
    assert (sim.returncode, sim.stderr) == (0, ""), sim.stderr
    record = next((tmp_path / "recs").glob("*.json"))
    rep = closed_pipe("replay", str(record), cwd=tmp_path)
    assert (rep.returncode, rep.stderr) == (0, ""), rep.stderr


# --- 6. an unwritable save names the path given ------------------------------------------------


def test_an_unwritable_save_names_the_path_given(tmp_path):
    (tmp_path / "folder").mkdir()
    record = GameRecord("apokalypse", "1", {}, 1)
    with pytest.raises(OSError) as caught:
        record.save(tmp_path / "folder")
    assert caught.value.filename == str(tmp_path / "folder")
    assert not list(tmp_path.glob("folder/*")) and not list(tmp_path.glob(".*"))
    run = play(tmp_path, "-p 2 --bots random --seed 3 --save folder", "1\n1\n")
    error = one_line_error(run)
    assert error.startswith("error: folder:") and ".tmp" not in error, error


# --- 7. small slips -----------------------------------------------------------------------------


def test_the_number_error_names_zero_when_back_is_a_choice(tmp_path):
    session, out = new_session(tmp_path)
    while session.ui.back_action(session.state.observation(session.state.to_act)) is None:
        assert answer(session, "2")
    n = len(session.state.legal_actions())
    assert answer(session, "99") is False
    assert f"There is no choice 99: answer 0–{n}" in out.getvalue()


def test_no_text_says_a_int():
    for lang in LANGS:
        assert not [k for k, v in catalog(lang).items() if re.search(r"\ba int\b", v)]
    data = {"format": 2, "game": "apokalypse", "version": "1", "config": {}, "seed": "x"}
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(data)
    assert "a int" not in str(caught.value) and "'seed'" in str(caught.value)


def test_the_board_says_where_the_seals_are():
    state = APOKALYPSE.new_game(APOKALYPSE.config_from_options(3, [], None), 7)
    obs = state.observation(0)
    supply = obs["seal_supply"]
    obs["displays"][1]["good"]["heaven"].append("seal")
    obs["displays"][2]["evil"]["nether"].extend(["seal", "metal"])
    ui = make_ui("apokalypse", state.config.to_json(), "en")
    shown = draw(ui.board(obs, seat_names(3, 0, "en")))
    assert f"seals: {supply} in the supply, 2 on displays" in shown, shown
    assert "Seals left" not in shown
    german = draw(make_ui("apokalypse", state.config.to_json(), "de").board(obs, ["a", "b", "c"]))
    assert f"Siegel: {supply} im Vorrat, 2 in Auslagen" in german, german


# --- 8. --resume refuses options that contradict the save --------------------------------------


def test_resume_refuses_options_it_would_ignore(tmp_path):
    first = play(tmp_path, "-p 2 --bots random --seed 4 --save g.json", "1\n")
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "g.json").read_text()
    for args, option in (
        ("--game apokerlypse", "--game"),
        ("--players 3", "--players"),
        ("--seed 5", "--seed"),
        ("--variant good-team", "--variant"),
        ("--deck d.toml", "--deck"),
    ):
        error = one_line_error(play(tmp_path, f"--resume g.json {args}"))
        assert option in error and "--resume" in error, (args, error)
    assert (tmp_path / "g.json").read_text() == before
    # What a resume may change, and options that agree with the save, are fine.
    same = play(tmp_path, "--resume g.json --game apokalypse -p 2 --seed 4 --bots heuristic", "")
    assert same.returncode == 0, same.stderr


# --- 9. no save before the first action --------------------------------------------------------


@pytest.mark.parametrize("answers", ["quit\n", ""])
def test_a_game_left_before_any_action_leaves_no_save(tmp_path, answers):
    run = play(tmp_path, "-p 2 --bots random --seed 3", answers)
    assert run.returncode == 0, run.stderr
    assert not list(tmp_path.glob("saves/*")), list(tmp_path.glob("saves/*"))
    assert "Game saved" not in run.stdout and "--resume" not in run.stdout
    assert "Nothing was saved: no action had been taken yet." in run.stdout


# --- 10. Apokerlypse: opening, card bonus, action chips, first question ------------------------


def test_apokerlypse_opening_shows_the_compulsory_payment(tmp_path):
    run = play(tmp_path, "--game apokerlypse -V plain-content -p 3 --bots random --seed 3", "q\n")
    assert run.returncode == 0, run.stderr
    opening = run.stdout.split("p1 (you)>")[0]
    assert "p1 (you) pays 1 chip into the pot: phase 1 is compulsory" in opening, opening
    # 10c: the plain game has no abilities, so no action chips either
    assert "action chip" not in opening.lower(), opening


def test_apokerlypse_explains_the_card_bonus():
    state = POKER.new_game(POKER.config_from_options(3, [], None), 3)
    ui = make_ui("apokerlypse", state.config.to_json(), "en")
    shown = draw(ui.board(state.observation(0), seat_names(3, 0, "en")))
    assert "Card bonus (K-SCORE-3): 2–6 none, 7–10 1 point, J Q K A 2 points" in shown, shown
    assert "Card bonus (K-SCORE-3)" in ui.help()
    de = make_ui("apokerlypse", state.config.to_json(), "de")
    assert "Kartenbonus (K-SCORE-3)" in de.help()


def test_action_chips_show_only_where_a_faction_has_an_ability():
    for variants, shown in ((["plain-content"], False), (["example-content"], True), ([], True)):
        state = POKER.new_game(POKER.config_from_options(3, variants, None), 3)
        ui = make_ui("apokerlypse", state.config.to_json(), "en")
        board = draw(ui.board(state.observation(0), seat_names(3, 0, "en")))
        assert ("action chips" in board) is shown, (variants, board)


def test_the_first_question_comes_with_the_board():
    config = POKER.config_from_options(3, ["example-content"], None).to_json()
    ui = make_ui("apokerlypse", config, "en")
    assert ui.full_board({"decision": "block"}) is True
    assert ui.full_board({"decision": "block"}) is False
    assert ui.full_board({"decision": "discard"}) is True


# --- 11. --help ---------------------------------------------------------------------------------


def test_help_has_no_stray_periods_and_lists_the_computer_players():
    env = {**os.environ, "COLUMNS": "250", "NO_COLOR": "1", "TERM": "dumb"}
    run = subprocess.run(
        [*CLI, "play", "--help"], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert " ." not in out and ". [" not in out, out
    bots = next(line for line in out.splitlines() if "--bots" in line)
    assert "heuristic" in bots and "random" in bots, bots
    assert "[default: heuristic]" in out and "[default: 1]" in out and "[default: en]" in out


def test_records_still_load(tmp_path):  # the save format is unchanged by the above
    run = play(tmp_path, "-p 2 --bots random --seed 3 --save g.json", "1\nq\n")
    assert run.returncode == 0, run.stderr
    data = json.loads((tmp_path / "g.json").read_text())
    assert data["actions"] and data["meta"]["humans"] == "1"
