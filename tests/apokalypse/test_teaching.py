"""The game explains itself: the forecast (from an observation, with the rules' own arithmetic),
the horseman panel, the ``rules`` command, choices that say what they do, and a board that names
its sides and shows a player the fronts of the populaces they laid face down."""

from __future__ import annotations

import io
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from apokalypse.cli.ui import make_ui
from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import GAME, Config, State, parse_action
from apokalypse.games.apokalypse.cards import deck_kinds
from apokalypse.games.apokalypse.forecast import forecast
from apokalypse.i18n.apokalypse.render import render_action
from tests.apokalypse.builders import act, blank, hand, populaces, put
from tests.apokalypse.test_cli_play import ALWAYS_FIRST, play

GAMES = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KINDS = deck_kinds(Config().deck_text)


def played(players: int, seed: int, steps: int | None = None) -> State:
    """A game after ``steps`` uniformly random decisions (None: to its end)."""
    s = GAME.new_game(Config(players=players), seed)
    rng = Rng(seed)
    while not s.is_over and (steps is None or s.move < steps):
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return s


@GAMES
@given(st.integers(2, 6), st.integers(0, 2**32))
def test_r_horse_1_r_horse_2_r_horse_4_the_forecast_is_what_the_horseman_does(n, seed):
    """Right before a horseman rides, the forecast of every viewer's observation says, per
    display and side, exactly the populaces, protection (surplus passed from the good side
    included, D-HORSE-1 for Death) and deaths that the ride then reports."""
    s = GAME.new_game(Config(players=n), seed)
    rng = Rng(seed)
    rides = 0
    while not s.is_over:
        public = forecast(s.observation(None), KINDS)
        legal = s.legal_actions()
        events = s.apply(legal[rng.below(len(legal))])
        shelters = {e.args["seat"]: e.args for e in events if e.kind == "shelter"}
        if not shelters:
            continue
        rides += 1
        assert public.horseman == next(e.args["number"] for e in events if e.kind == "ride")
        for d in public.displays:
            got = shelters[d.seat]
            for side, f in (("good", d.next.good), ("evil", d.next.evil)):
                assert [f.populaces, f.protection, f.passed, f.dead] == got[side]
    assert rides >= 1


def test_the_forecast_reads_public_facts_only():
    s = played(4, 9, 150)
    views = [forecast(s.observation(q), KINDS) for q in (None, 0, 1, 2, 3)]
    assert all(v == views[0] for v in views)
    scores = [sum(row[q] for row in s.scores) for q in range(4)]
    assert all(t >= s for t, s in zip(views[0].totals, scores, strict=True))  # + horseman cards


def test_d_horse_2_the_forecast_counts_scores_and_the_dying_from_the_outside():
    """D-HORSE-2: a reckoning counts populaces left minus dead (basic populaces not counted);
    the dead are the outermost."""
    s = blank(3)
    populaces(s, 0, good=3, evil=1)
    put(s, 0, "good", "heaven", "m/hp")  # one mask on the good side
    f = forecast(s.observation(None), KINDS).displays[0].next
    assert (f.good.populaces, f.good.protection, f.good.dying) == (3, 1, (2, 1))
    assert f.evil.dying == (0,)
    assert f.score == (4 - 3) - 3


def _screen(renderable, width=80) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue()


def test_r_info_2_a_player_sees_the_fronts_of_the_populaces_they_laid():
    s = blank(3)
    hand(s, 1, "p/mh")
    s.pending = s.pending._replace(player=1)
    act(s, "play p/mh evil", "target p3.evil")
    assert s.observation(1)["fronts"] == {"p3.evil.0": "p/mh"}
    assert s.observation(2)["fronts"] == {}
    ui = make_ui("apokalypse", s.config.to_json(), "en")
    names = ["p1", "p2", "p3"]
    assert "(Pig|Mask+Helm)" in _screen(ui.board(s.observation(1), names))
    assert "(Pig|Mask+Helm)" not in _screen(ui.board(s.observation(2), names))


def test_the_board_names_its_sides_and_fits_six_players_in_80_columns():
    s = played(6, 5, 200)
    ui = make_ui("apokalypse", s.config.to_json(), "en")
    screen = _screen(ui.board(s.observation(0), [f"p{q + 1}" for q in range(6)]))
    assert screen.count("good | evil") == 6
    assert max(len(line) for line in screen.splitlines()) <= 80
    german = make_ui("apokalypse", s.config.to_json(), "de")
    assert "gut | böse" in _screen(german.board(s.observation(0), [f"p{q + 1}" for q in range(6)]))


def test_r_play_6_especially_good_persons_are_played_face_up():
    """Newcomer item: a saint was offered 'from its back'."""
    words = render_action(parse_action("play saint good"), "en", None, ["p1", "p2"], KINDS)
    assert "face up" in words and "from its back" not in words
    words = render_action(parse_action("play m/hp good"), "en", None, ["p1", "p2"], KINDS)
    assert "from its back" in words and "give a card away" in words
    words = render_action(parse_action("play fiend evil"), "de", None, ["p1", "p2"], KINDS)
    assert "offen" in words and "stehlen" in words


def test_r_attack_3_choices_say_what_an_attack_will_do():
    s = blank(3)
    populaces(s, 1, evil=1)
    hand(s, 0, "ethos", "violence")
    act(s, "play ethos attack")
    obs = s.observation(0)
    words = render_action(parse_action("target p2.evil"), "en", obs, ["p1", "p2", "p3"], KINDS)
    assert "Ethos change on p2's outermost evil populace" in words
    assert "turns good and you choose the display" in words


def test_r_play_14_a_replacement_says_what_the_replaced_card_did():
    s = blank(3)
    populaces(s, 1, evil=1)
    put(s, 1, "evil", "nether", "job/drugs")
    hand(s, 0, "chastity/sex")
    act(s, "play chastity/sex nether")
    obs = s.observation(0)
    action = parse_action("target p2.evil.nether.0")
    assert action in s.legal_actions()
    words = render_action(action, "en", obs, ["p1", "p2", "p3"], KINDS)
    assert words.startswith("Replace Drugs (when dealing: +1K)")


def test_the_rules_command_explains_the_game_and_each_card(tmp_path: Path):
    run = play(tmp_path, "-p 2 --bots random --seed 3 --save g.json", "rules\nrules m/hp\nquit\n")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Horseman 1 (Bomb War): each Mask or music card" in out  # which icon each checks
    assert "populaces left minus populaces dead" in out  # the reckoning
    assert "the good players win together" in out  # the end condition
    assert "[m/hp]" in out and "R-PLAY-8" in out
    german = play(tmp_path, "-p 2 --bots random --seed 3 --lang de --save d.json", "regeln\nende\n")
    assert "APOKALYPSE IN KÜRZE" in german.stdout


def test_a_horseman_rides_as_a_panel_with_a_pause(tmp_path: Path):
    run = play(tmp_path, "-p 3 --bots random --seed 8 --save g.json", ALWAYS_FIRST)
    assert run.returncode == 0, run.stderr
    panel = run.stdout.split("Horseman 1 (Bomb War) rides ━")[1].split("Press Enter")[0]
    assert "reckoning" in panel and "populaces · protection" in panel
    assert re.search(r"The best reckoning \(-?\d+\) receives this horseman's card", panel)
    assert "populaces, protection" not in run.stdout  # the shelter log lines are folded into it


def test_r_end_1_the_board_of_a_finished_game_says_it_is_over():
    """No "next: Horseman 4" once Death has ridden; the winners are marked, not who passed."""
    s = played(3, 4)
    ui = make_ui("apokalypse", s.config.to_json(), "en")
    screen = _screen(ui.board(s.observation(0), ["p1", "p2", "p3"]))
    assert screen.startswith("Game over: Horseman 4 (Death) rode in round")
    assert "next:" not in screen and "passed" not in screen and "If Horseman" not in screen
    assert s.result is not None
    for q in s.result.winners:
        assert re.search(rf"^p{q + 1} .* yes\s*$", screen, re.M)
