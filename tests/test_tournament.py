"""``apokalypse tournament``: seats rotated, duplicate deals, win counts that add up, intervals
that hold their rate, the same figures with one worker or two, the JSON fields, ``--beliefs`` and
one-line refusals of bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apokalypse.cli.tournament import lineup, mean_interval, pairings, wilson
from tests import commands

# Examples are judged by what they hold, never by how long they took (a busy machine is slow).
UNTIMED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tournament(*args: str) -> Any:
    return commands.run([*commands.CLI, "tournament", *args])


def report(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "report.json"
    run = tournament(*args, "--out", str(out))
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(out.read_text("utf-8"))
    return data


# --- the statistics -----------------------------------------------------------------------------


@UNTIMED
@given(st.integers(min_value=1, max_value=5000), st.data())
def test_wilson_interval_holds_its_rate_and_stays_in_0_1(n, data):
    wins = data.draw(st.integers(min_value=0, max_value=n))
    low, high = wilson(wins, n)
    assert 0.0 <= low <= wins / n <= high <= 1.0


def test_wilson_matches_a_known_value():
    # 8 of 10: Wilson's interval is 0.4902 … 0.9433 (z = 1.96)
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-3) and high == pytest.approx(0.9433, abs=1e-3)


@UNTIMED
@given(st.lists(st.floats(min_value=-100, max_value=100), min_size=2, max_size=50))
def test_mean_interval_holds_the_mean(values):
    mean, low, high = mean_interval(values)
    assert low - 1e-9 <= mean <= high + 1e-9


@UNTIMED
@given(st.integers(min_value=2, max_value=4), st.integers(min_value=2, max_value=6))
def test_rotations_seat_every_spec_in_every_seat(specs, players):
    seen = {(q, who) for r in range(specs) for q, who in enumerate(lineup(specs, players, r))}
    assert seen == {(q, i) for q in range(players) for i in range(specs)}


def test_games_round_up_to_whole_duplicate_deals():
    games = pairings("apokalypse", ["heuristic", "random"], 4, 5, 100)
    assert len(games) == 6
    assert [(g.deal, g.rotation, g.seed) for g in games[:2]] == [(0, 0, 100), (0, 1, 100)]
    assert games[0].lineup == (0, 1, 0, 1) and games[1].lineup == (1, 0, 1, 0)


# --- the command --------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tiny_tournament_adds_up(tmp_path, jobs):
    data = report(
        tmp_path, "--players", "4", "--games", "6", "--jobs", jobs, "--a", "heuristic",
        "--b", "random", "--seed", "7",
    )  # fmt: skip
    assert data["games"] == 6 and data["deals"] == 3 and data["errors"] == 0
    a, b = data["specs"]
    assert (a["spec"], b["spec"]) == ("heuristic", "random")
    assert a["seats"] == b["seats"] == 12  # half of the 4 seats of 6 games each
    assert a["games"] == b["games"] == 6
    # every seat sat by each spec equally often: seats rotated
    assert a["seats_by_position"] == b["seats_by_position"] == [3, 3, 3, 3]
    # every game has at least one winner; a tie may have more
    assert 6 <= a["wins"] + b["wins"] <= 24
    for spec in (a, b):
        low, high = spec["win_rate_ci95"]
        assert low <= spec["win_rate"] <= high
        assert spec["win_rate"] == round(spec["wins"] / spec["seats"], 4)
        mlow, mhigh = spec["mean_score_ci95"]
        assert mlow <= spec["mean_score"] <= mhigh
        assert spec["moves"] > 0 and spec["seconds_per_move"] > 0
    (difference,) = data["differences"]
    assert difference["deals"] == 3
    assert difference["ci95"][0] <= difference["win_rate_difference"] <= difference["ci95"][1]
    # the points paired the same way: every deal seats each spec equally often, so the mean of
    # the deals' differences is the difference of the means
    gain, (gain_low, gain_high) = difference["score_difference"], difference["score_ci95"]
    assert gain == pytest.approx(a["mean_score"] - b["mean_score"], abs=2e-4)
    assert gain_low <= gain <= gain_high
    per_deal = [d for _, d in difference["per_deal_score"]]
    assert gain == pytest.approx(sum(per_deal) / 3, abs=2e-4)
    assert {"game", "players", "score", "seed", "jobs", "seconds"} <= set(data)
    assert data["score"] == "points"


def test_one_worker_or_two_give_the_same_figures(tmp_path):
    args = ("--players", "3", "--games", "4", "--a", "random", "--b", "heuristic", "--json")
    one, two = tournament(*args, "--jobs", "1"), tournament(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    first, second = json.loads(one.stdout), json.loads(two.stdout)
    for data in (first, second):
        for spec in data["specs"]:
            spec.pop("seconds_per_move")
        data.pop("seconds")
        data.pop("jobs")
    assert first == second


def test_apokerlypse_reports_chips_won(tmp_path):
    data = report(tmp_path, "--game", "apokerlypse", "--players", "2", "--games", "2")
    assert data["score"] == "chips won"
    a, b = data["specs"]
    # chips only change hands (and the bank's): what one side wins is at most what it can
    assert a["seats"] == b["seats"] == 2
    assert a["seats_by_position"] == b["seats_by_position"] == [1, 1]


def test_the_human_report_names_the_figures():
    run = tournament("--games", "2", "--players", "3")
    assert run.returncode == 0, run.stderr
    assert "2 games in 1 duplicate deals" in run.stdout
    assert "heuristic" in run.stdout and "random" in run.stdout and "95 %" in run.stdout
    paired = tournament("--games", "4", "--players", "3")  # two deals: an interval
    assert paired.returncode == 0, paired.stderr
    assert "points heuristic − random:" in paired.stdout  # the points paired too


def test_beliefs_mode_reports_the_mean_ratio(tmp_path):
    """Needs ``apokalypse.bots.apokalypse.beliefs.belief_in_game``."""
    data = report(tmp_path, "--beliefs", "--games", "3", "--players", "4", "--jobs", "2")
    assert data["games"] == 3 and data["measured"] + data["skipped"] == 3
    if data["measured"] >= 2:  # one game has no interval
        low, high = data["ratio_ci95"]
        assert low <= data["mean_ratio"] <= high


def test_apokerlypse_content_reaches_the_games(tmp_path):
    """KD-SETUP-1: --content plays a tournament's games with that content (a packaged name or a
    file); the example content's effects change the games the plain one plays."""
    from apokalypse.cli.tournament import play
    from apokalypse.games.apokerlypse.content import packaged_text

    data = report(tmp_path, "--game", "apokerlypse", "--players", "2", "--games", "2",
                  "--content", "example")  # fmt: skip
    assert data["deck"] == "example" and data["games"] == 2 and not data["errors"]
    plain = pairings("apokerlypse", ["heuristic", "random"], 3, 8, 40)
    example = pairings("apokerlypse", ["heuristic", "random"], 3, 8, 40, packaged_text("example"))
    assert {p.cards for p in example} == {packaged_text("example")}
    outcomes = [(play(a), play(b)) for a, b in zip(plain, example, strict=True)]
    assert all(a.error is None and b.error is None for a, b in outcomes)
    assert any(a.moves != b.moves for a, b in outcomes)
    bad = tournament("--game", "apokerlypse", "--content", "standrd")
    assert bad.returncode == 2 and "neither a packaged content" in bad.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--a", "grandmaster"], "unknown bot 'grandmaster'"),
        (["--b", "ismcts:0s"], "bad budget in 'ismcts:0s'"),
        (["--games", "0"], "--games must be"),
        (["--games", "-3"], "--games must be"),
        (["--jobs", "0"], "--jobs must be"),
        (["--players", "9"], "2–6"),
        (["--game", "apokerlypse", "--beliefs"], "--beliefs"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, words):
    run = tournament(*args)
    assert run.returncode == 2, run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], run.stderr
