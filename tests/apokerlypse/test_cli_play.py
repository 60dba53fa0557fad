"""``apokalypse play --game apokerlypse`` as a real subprocess with piped input (a whole game, EOF
and resume, German text, example and custom content, argument errors, hot-seat), ``apokalypse
replay`` of its records, and the board drawn in-process from exact positions."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

from rich.console import Console

from apokalypse.cli.ui import make_ui
from apokalypse.engine.record import replay
from apokalypse.games.apokerlypse import GAME
from apokalypse.i18n import seat_names
from apokalypse.i18n.apokerlypse.render import card_label
from tests.apokalypse.test_cli_play import ALWAYS_FIRST, play, saved
from tests.helpers import cli, one_line_error

POKER = "--game apokerlypse"


def p1_discards(path: Path) -> int:
    events = [e for batch in replay(saved(path)).events for e in batch]
    return sum(1 for e in events if e.kind == "discard" and e.args["seat"] == 0)


def test_whole_game_against_random_bots(tmp_path):
    run = play(
        tmp_path,
        f"{POKER} -V plain-content -p 3 --bots random --seed 5 --save game.json",
        ALWAYS_FIRST,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.startswith("Apokerlypse — 3 players.")
    # The opening (deal, round 1's payments and draws) is shown before the first question.
    assert "Dealer round 1 begins" in out.split("which card goes?")[0]
    assert "Your hand: " in out and "pays 1 chip into the pot" in out
    for part in ("Pot ", "bank ", "draw pile ", "discard pile", "dealer"):
        assert part in out, part
    assert "action chips" not in out  # no faction has an ability in the plain game
    # Each round's final scoring as a table, right after the round's end.
    assert "Dealer round 1 is over." in out.split("Final scoring of dealer round 1")[0]
    assert "Dealer round 2 begins" in out.split("Final scoring of dealer round 1")[1]
    assert re.search(r"— \d+ base \+ \d+ bonus = \d+ points", out)
    assert "Game over" in out and "Game saved to game.json" in out
    record = saved(tmp_path / "game.json")
    assert record.game == "apokerlypse" and record.result is not None
    assert record.meta == {"humans": "1", "bots": "random", "lang": "en"}
    assert replay(record).state.is_over


def test_eof_saves_and_resume_reads_the_game_from_the_record(tmp_path):
    save = tmp_path / "game.json"
    first = play(tmp_path, f"{POKER} -p 2 --bots random --seed 8 --save game.json", "1\n1\n")
    assert first.returncode == 0, first.stderr
    assert "Input closed" in first.stdout and "--resume game.json" in first.stdout
    partial = saved(save)
    assert partial.result is None and partial.actions

    second = play(tmp_path, "--resume game.json", ALWAYS_FIRST)  # no --game: the record says
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith("Apokerlypse — 2 players.")
    assert f"Resumed after {len(partial.actions)} actions" in second.stdout
    assert "Game over" in second.stdout
    final = saved(save)
    assert final.actions[: len(partial.actions)] == partial.actions
    assert final.result is not None


def test_bad_input_is_explained_and_answers_can_be_chained(tmp_path):
    answers = "99\nfoo\npay\nuse 7h\nhelp\n1;1\n"
    run = play(
        tmp_path, f"{POKER} -V plain-content -p 2 --bots random --seed 2 --save game.json", answers
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "There is no choice 99" in out
    assert "Cannot read that: 'foo': unknown verb 'foo'" in out
    assert "Not allowed — K-ROUND-2 (phase 1: whoever can pay must pay" in out
    assert "Not allowed — KD-SETUP-1 (card effects and faction abilities" in out
    assert "pay · stand · drop · discard 7h" in out  # the Apokerlypse help
    assert p1_discards(tmp_path / "game.json") == 2  # "1;1": two discards from one line


def test_german_text(tmp_path):
    run = play(
        tmp_path,
        f"{POKER} -V plain-content -p 2 --bots random --seed 4 --lang de --save spiel.json",
        "1\n",
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    for word in ("Geberrunde 1 beginnt", "Ressourcen-Chips", "Abwurfstapel", "Kartenbonus"):
        assert word in out, word
    assert "Aktions-Chips" not in out  # no faction has an ability in the plain game
    for word in ("Ziehstapel", "Kartenhand von dir", "Deine Hand:", "Eingabe beendet"):
        assert word in out, word
    assert saved(tmp_path / "spiel.json").meta["lang"] == "de"


def test_example_content_shows_effects(tmp_path):
    args = f"{POKER} -p 4 --bots random --seed 7 --variant example-content --save game.json"
    run = play(tmp_path, args, ALWAYS_FIRST)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "content: example" in out
    assert " announces " in out  # card effects, with their content labels
    assert re.search(r"· (when drawn|when discarded|any time|in the final scoring) · ", out)
    assert "Your faction: " in out and "Faction ability (" in out
    assert "You hold no block card, so you let the effect resolve." in out
    record = saved(tmp_path / "game.json")
    assert record.config["content"] == "example" and record.result is not None


CUSTOM = """
[content]
name = "mine"

[card.2c]
name = "Jackpot"
timing = "draw"
kind = "gain"
amount = 3
"""


def test_a_content_file(tmp_path):
    (tmp_path / "mine.toml").write_text(CUSTOM, "utf-8")
    args = f"{POKER} -p 2 --bots random --seed 3 --content mine.toml --save game.json"
    run = play(tmp_path, args, "1\n")  # a game is saved from its first action
    assert run.returncode == 0, run.stderr
    assert "content: mine" in run.stdout
    assert saved(tmp_path / "game.json").config["content"] == CUSTOM  # the record carries it


def test_bad_arguments_are_one_line_errors(tmp_path):
    (tmp_path / "bad.toml").write_text('[card.7h]\ntiming = "sometimes"\nkind = "gain"\n')
    (tmp_path / "broken.toml").write_text("[card.7h\n")
    for args, message in (
        ("-p 5", "K-SETUP-1"),
        ("--content bad.toml", "card '7h': field 'timing' must be one of draw, discard"),
        ("--content broken.toml", "not valid TOML"),
        ("--content missing.toml", "No such file"),
        ("--variant nosuch", "unknown Apokerlypse variant(s) nosuch"),
        ("--content bad.toml -V example-content", "give one content: a content file"),
    ):
        error = one_line_error(play(tmp_path, f"{POKER} --bots random {args}"))
        assert message in error, (args, error)
    assert not list(tmp_path.glob("saves/*"))  # nothing written


def test_hot_seat_shows_each_hand_only_to_its_owner(tmp_path):
    run = play(tmp_path, f"{POKER} -p 3 --humans all --seed 5 --save game.json", ALWAYS_FIRST)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    record = saved(tmp_path / "game.json")
    assert record.result is not None
    # Cards drawn in a final scoring join hands already revealed: everybody sees those
    # (KD-EFFECT-5); every other draw is its drawer's alone.
    face_up = {
        f"p{e.args['seat'] + 1} draws {card_label(e.args['card'])}"
        for step in replay(record).events
        for e in step
        if e.kind == "draw" and e.secret is None
    }
    assert len(set(re.findall(r"Pass the keyboard to (p\d)", out))) == 3
    for screen in out.split("Pass the keyboard to ")[1:]:
        owner = screen[:2]
        assert f"Hand of {owner}" in screen
        for other in {"p1", "p2", "p3"} - {owner}:
            assert f"Hand of {other}" not in screen
            for drawn in re.finditer(rf"{other} draws (10|[2-9JQKA])[♠♥♦♣]", screen):
                assert drawn.group(0) in face_up, drawn.group(0)  # unseen otherwise


# --- replay -------------------------------------------------------------------------------------


def test_replay_of_an_apokerlypse_record(tmp_path):
    run = play(tmp_path, f"{POKER} -p 3 --humans none --bots random --seed 6 --save g.json")
    assert run.returncode == 0, run.stderr
    path = str(tmp_path / "g.json")
    verify = cli("replay", path, "--verify")
    assert verify.returncode == 0 and verify.stdout.startswith("ok: "), verify.stderr
    spectator = cli("replay", path)
    assert spectator.returncode == 0, spectator.stderr
    lines = spectator.stdout.splitlines()
    assert lines[0].startswith("apokerlypse v2, 3 players, seen by spectator")
    assert lines[1].startswith("#0    Dealer round 1 begins")
    assert "Your hand" not in spectator.stdout
    assert lines[-2].startswith("result: ") and "winners: " in lines[-2]
    assert lines[-1] == "seed: 6"  # the game is over: its seed may show
    seat = cli("replay", path, "--seat", "2", "--lang", "de")
    assert seat.returncode == 0, seat.stderr
    assert "Deine Hand: " in seat.stdout and "Geberrunde" in seat.stdout
    assert seat.stdout.splitlines()[-2].startswith("result: ")


# --- the board, in-process ----------------------------------------------------------------------


def draw(renderable: object) -> str:
    out = io.StringIO()
    Console(file=out, width=110, color_system=None).print(renderable)
    return out.getvalue()


def test_board_shows_the_table_the_hand_and_its_effects():
    state = GAME.new_game(GAME.config_from_options(3, ["example-content"], None), 15)
    record_config = state.config.to_json()
    ui = make_ui("apokerlypse", record_config, "en")
    seat = 0
    obs = state.observation(seat)
    text = draw(ui.board(obs, seat_names(3, seat, "en")))
    assert f"Dealer round 1 · 1 chip per draw phase · dealer p{obs['dealer'] + 1}" in text
    assert f"Pot {obs['pot']} · bank {obs['bank']} · draw pile {obs['draw_pile']}" in text
    assert "Announced, waiting for blocks: K♠ “Backpack” of p2" in text  # the opening's effect
    assert "Hand of p1 (you)" in text and "Your hand counts as: " in text
    assert "Barricade · any time · blocks another player's card effect" in text  # 7h
    assert "Your faction: ♠ Military · action chips: 2" in text
    assert "Faction ability (any time): take 1 card at random from another player" in text


def test_board_shows_the_final_scoring_once_hands_are_revealed():
    state = GAME.new_game(GAME.config_from_options(2, ["example-content"], None), 3)
    ui = make_ui("apokerlypse", state.config.to_json(), "de")
    rng = random.Random(3)
    while not any(state.observation(None)["scores"]):  # a scoring turn, or the game's end
        state.apply(rng.choice(state.legal_actions()))
    obs = state.observation(None)
    text = draw(ui.board(obs, seat_names(2, None, "de")))
    assert f"Endwertung der Geberrunde {obs['round']}" in text
    for header in ("Pokerhand", "Basis", "Zusatz", "Summe"):
        assert header in text
    assert "Kartenhand" not in text  # a spectator holds no hand
