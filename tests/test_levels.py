"""Difficulty levels (``bots/levels.py``) and explicit budgets: the levels of both games,
what each is built from, budgets on the command line, and one-line refusals of bad ones."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apokalypse.bots import bot_names, check_bot, make_bot
from apokalypse.bots.levels import (
    EASY_RANDOM_SHARE,
    EXPERT_ITERATIONS,
    HARD_ITERATIONS,
    LEVELS,
    MASTER_ITERATIONS,
    Budget,
    Sloppy,
    parse_budget,
)
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.match import play_out
from apokalypse.engine.registry import get_game
from tests import commands
from tests.helpers import cli

# Examples are judged by what they hold, never by how long they took (a busy machine is slow).
UNTIMED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

GAMES = ("apokalypse", "apokerlypse")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_lists_the_levels_and_keeps_its_old_names(game):
    names = bot_names(game)
    assert set(LEVELS) <= set(names)
    assert {"random", "heuristic", "ismcts"} <= set(names)


class Recorder:
    """Stands in for a game's ISMCTS factory: records how each level asks for its player."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __call__(self, seed: int, **options: Any) -> Any:
        self.calls.append(options)
        return make_bot("heuristic", seed, "apokalypse")  # any player with a name


@pytest.mark.parametrize("game", GAMES)
def test_searching_levels_ask_the_games_factory_for_their_budget(game, monkeypatch):
    recorder = Recorder()
    monkeypatch.setattr(f"apokalypse.bots.{game}.ismcts", recorder, raising=False)
    hard = make_bot("hard", 1, game)
    expert = make_bot("expert", 1, game)
    budget = make_bot("ismcts:500", 1, game)
    timed = make_bot("ISMCTS:0.25s", 1, game)
    master = make_bot("master", 1, game)
    master_budget = make_bot("master:0.5s", 1, game)
    assert (hard.name, expert.name, budget.name, timed.name, master.name, master_budget.name) == (
        "hard",
        "expert",
        "ismcts:500",
        "ismcts:0.25s",
        "master",
        "master:0.5s",
    )
    hard_call, expert_call, budget_call, timed_call, master_call, master_budget_call = (
        recorder.calls
    )
    beliefs = {"beliefs": True} if game == "apokalypse" else {}  # the game's hidden ethos
    assert master_call == {
        "iterations": MASTER_ITERATIONS, "seconds": None, "learned": True, **beliefs
    }  # fmt: skip
    assert master_budget_call == {"iterations": None, "seconds": 0.5, "learned": True, **beliefs}
    assert hard_call == {"iterations": HARD_ITERATIONS, "seconds": None, **beliefs}
    assert expert_call == {"iterations": EXPERT_ITERATIONS, "seconds": None, **beliefs}
    assert budget_call == {"iterations": 500, "seconds": None}
    assert timed_call == {"iterations": None, "seconds": 0.25}


@pytest.mark.parametrize("game", GAMES)
def test_hard_and_expert_are_real_searching_players(game):
    """Needs the games' factories ``apokalypse.bots.<game>.ismcts``."""
    hard, expert = make_bot("hard", 1, game), make_bot("expert", 1, game)
    assert getattr(hard, "iterations", None) == HARD_ITERATIONS
    assert getattr(expert, "iterations", None) == EXPERT_ITERATIONS
    assert hasattr(hard, "choose_in") and hasattr(expert, "choose_in")


class First:
    name = "first"
    blind = False

    def choose(self, observation: Any, legal: Sequence[Any]) -> Any:
        return legal[0]

    def observe(self, events: Any) -> None:
        return None


@UNTIMED
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_easy_plays_a_random_action_about_forty_percent_of_the_time(seed):
    easy = Sloppy(seed, First(), EASY_RANDOM_SHARE)
    legal = list(range(10))
    picks = [easy.choose({}, legal) for _ in range(2000)]
    other = sum(1 for p in picks if p != 0) / len(picks)
    # a random pick is another action 9 times in 10: 0.4 × 0.9 = 0.36
    assert 0.30 < other < 0.42
    again = Sloppy(seed, First(), EASY_RANDOM_SHARE)
    assert [again.choose({}, legal) for _ in range(2000)] == picks, "its own seeded stream"


@pytest.mark.parametrize("game", GAMES)
def test_easy_and_medium_play_whole_games_the_same_from_the_same_seed(game):
    rules = get_game(game)
    config = rules.config_from_options(3, [], None)

    def game_actions() -> list[str]:
        players = [
            make_bot(name, 40 + q, game) for q, name in enumerate(["easy", "medium", "easy"])
        ]
        return play_out(rules.new_game(config, 9), players).actions

    first = game_actions()
    assert first == game_actions()
    assert make_bot("medium", 1, game).name == "medium"
    assert isinstance(make_bot("easy", 1, game), Sloppy)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("ismcts:0s", "bad budget in 'ismcts:0s'"),
        ("ismcts:-1", "bad budget in 'ismcts:-1'"),
        ("ismcts:abc", "bad budget in 'ismcts:abc'"),
        ("ismcts:0", "bad budget in 'ismcts:0'"),
        ("ismcts:-0.5s", "bad budget in 'ismcts:-0.5s'"),
        ("ismcts:infs", "bad budget in 'ismcts:infs'"),
        ("ismcts:", "bad budget in 'ismcts:'"),
        ("heuristic:500", "'heuristic' takes no budget"),
        ("grandmaster", "unknown bot 'grandmaster' for apokalypse"),
        (":500", "no computer player named"),
    ],
)
def test_bad_specs_are_refused_in_one_line(spec, words):
    with pytest.raises(ConfigError, match=words) as caught:
        check_bot(spec, "apokalypse")
    assert "\n" not in str(caught.value)


def test_specs_are_written_one_way():
    assert check_bot(" Expert ", "apokalypse") == "expert"
    assert check_bot("ISMCTS:0.10s", "apokerlypse") == "ismcts:0.1s"
    assert check_bot("hard:2000", "apokalypse") == "hard:2000"


@UNTIMED
@given(st.integers(min_value=1, max_value=10_000_000))
def test_any_whole_iteration_budget_parses(n):
    assert parse_budget(str(n), "ismcts") == Budget(iterations=n)


@UNTIMED
@given(st.text(max_size=12))
def test_any_budget_text_parses_or_is_refused_in_one_line(raw):
    try:
        budget = parse_budget(raw, "ismcts")
    except ConfigError as exc:
        assert "\n" not in str(exc) or "\n" in raw
        return
    assert (budget.iterations or 0) > 0 or (budget.seconds or 0) > 0


# --- the command line ---------------------------------------------------------------------------


def test_play_and_simulate_take_levels(tmp_path):
    run = commands.run(
        [*commands.CLI, "play", "-p", "3", "--humans", "none", "--bots", "easy,medium",
         "--seed", "4", "--save", str(tmp_path / "g.json")],
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "computer players: easy,medium" in run.stdout and "Game over" in run.stdout
    sim = cli("simulate", "-n", "2", "--players", "3", "--bots", "easy,medium,heuristic")
    assert sim.returncode == 0, sim.stderr
    assert "easy" in sim.stdout and "medium" in sim.stdout


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize(
    ("bots", "words"),
    [
        ("ismcts:0s", "bad budget in 'ismcts:0s'"),
        ("ismcts:-1", "bad budget in 'ismcts:-1'"),
        ("medium,ismcts:abc", "bad budget in 'ismcts:abc'"),
        ("easy,wizard", "unknown bot 'wizard'"),
    ],
)
def test_bad_bots_exit_2_with_one_line(command, bots, words, tmp_path):
    extra = ["--humans", "none", "--save", str(tmp_path / "g.json")] if command == "play" else []
    run = cli(command, "--bots", bots, *extra)
    assert run.returncode == 2, run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], run.stderr
    assert not (tmp_path / "g.json").exists()
