"""``apokalypse simulate``: the real command in a subprocess, plus in-process checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from apokalypse.bots.apokalypse import BOTS
from apokalypse.cli.replay import _difference
from apokalypse.cli.simulate import parse_players, run_simulate
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.record import GameRecord
from apokalypse.sim.runner import run_game
from tests.helpers import cli, one_line_error


def test_simulate_json_records_and_verified_replays(tmp_path):
    records = tmp_path / "records"
    run = cli(
        *("simulate", "--games", "6", "--players", "2-6", "--json", "--jobs", "2"),
        *("--records", str(records), "--bots", "heuristic,random", "--seed", "11"),
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["games"] == 6 and data["errors"] == 0
    assert data["decisions"] > 0 and data["seconds"] > 0 and data["decisions_per_sec"] > 0
    assert sum(data["cases"].values()) == 6
    # 2+3+4+5+6+2 seats, heuristic on even seats, random on odd ones.
    assert data["bots"]["heuristic"]["seats"] == 1 + 2 + 2 + 3 + 3 + 1
    assert data["bots"]["random"]["seats"] == 1 + 1 + 2 + 2 + 3 + 1
    for stats in data["bots"].values():
        assert {"avg_total", "wins", "win_rate"} <= set(stats)
    assert sum(e["seats"] for e in data["ethos"].values()) == 22
    files = sorted(records.glob("*.json"))
    assert len(files) == 6
    players = []
    for path in files:
        raw = json.loads(path.read_text())
        assert raw["events_sha256"] and raw["result"]["totals"] and "error" not in raw["meta"]
        record = GameRecord.load(path)
        players.append(record.config["players"])
        assert _difference(record) is None
    assert players == [2, 3, 4, 5, 6, 2]
    for path in files[:2]:  # and the real command agrees
        check = cli("replay", str(path), "--verify")
        assert check.returncode == 0, check.stderr
        assert check.stdout.startswith("ok:")


def test_simulate_table_output():
    run = cli("simulate", "-n", "2", "--players", "3", "--bots", "random,heuristic")
    assert run.returncode == 0, run.stderr
    assert "2 games, 0 errors" in run.stdout
    assert "heuristic" in run.stdout and "Wins by ethos" in run.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "0"], "--games"),
        (["--players", "7"], "2–6"),
        (["--players", "1-3"], "2–6"),
        (["--players", "5-3"], "backwards"),
        (["--players", "four"], "--players"),
        (["--jobs", "0"], "--jobs"),
        (["--bots", "random,minimax"], "unknown bot 'minimax'"),
        (["--bots", "random,,heuristic"], "--bots"),
        (["--variant", "no-such"], "unknown variant"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, words, tmp_path):
    run = cli("simulate", "-n", "1", "--records", str(tmp_path / "r"), *args)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1
    assert words in run.stderr
    assert not (tmp_path / "r").exists()  # nothing written before the input was checked


def summary(capsys: Any, **kwargs: Any) -> dict[str, Any]:
    args: dict[str, Any] = {
        **{"game": "apokalypse", "games": 5, "players": "2-4", "seed": 3, "bots": "random"},
        **{"jobs": 1},
        **{"records": None, "json_out": True, "variants": []},
    }
    args.update(kwargs)
    run_simulate(**args)
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    for key in ("seconds", "decisions_per_sec", "jobs"):
        del data[key]
    return data


def test_runs_repeat_whatever_the_worker_count(capsys):
    one = summary(capsys, bots="heuristic,random")
    two = summary(capsys, bots="heuristic,random", jobs=2)
    assert one == two
    assert summary(capsys, seed=4) != summary(capsys, seed=3)


def test_variants_reach_the_games(capsys, tmp_path):
    data = summary(capsys, games=1, variants=["good-team"], records=tmp_path)
    assert data["variants"] == ["V-GOOD-TEAM"]
    record = GameRecord.load(next(tmp_path.glob("*.json")))
    assert record.config["variants"] == ["V-GOOD-TEAM"]


class Broken:
    """A bot that answers nonsense on its third decision."""

    name = "broken"
    blind = False

    def __init__(self, seed: int) -> None:
        self.calls = 0

    def choose(self, observation: Any, legal: Any) -> Any:
        self.calls += 1
        return "nonsense" if self.calls == 3 else legal[0]

    def observe(self, events: Any) -> None:
        pass


def test_a_failing_game_is_counted_and_recorded_not_fatal(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(BOTS, "broken", Broken)
    data = summary(capsys, games=3, players="2", bots="broken,random", records=tmp_path)
    assert data["games"] == 3 and data["errors"] == 3
    assert data["bots"] == {} and data["first_errors"]
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    raw = json.loads(files[0].read_text())
    assert raw["meta"]["error"] and raw["result"] is None
    assert raw["meta"]["bots"] == ["broken", "random"]
    # The record holds the actions before the failure, and they replay.
    record = GameRecord.load(files[0])
    assert record.actions and _difference(record) is None


def _dying_game(task: Any) -> Any:
    """Stands in for a worker that is killed outright while playing game 1."""
    import os

    if task.index == 1:
        os._exit(9)
    return run_game(task)


def test_a_dead_worker_process_counts_its_games_as_errors(capsys, monkeypatch):
    import apokalypse.sim.runner as runner

    monkeypatch.setattr(runner, "run_game", _dying_game)  # the forked workers inherit it
    data = summary(capsys, games=4, players="2", bots="random", jobs=2)
    assert data["games"] == 4
    assert data["errors"] >= 1
    assert any("worker process died" in e for e in data["first_errors"])


def test_parse_players():
    assert parse_players("4") == [4]
    assert parse_players("2-6") == [2, 3, 4, 5, 6]
    assert parse_players(" 3-3 ") == [3]
    with pytest.raises(ConfigError):
        parse_players("2-")


# --- Apokerlypse ----------------------------------------------------------------------------


def test_apokerlypse_json_records_and_verified_replays(tmp_path):
    records = tmp_path / "records"
    run = cli(
        *("simulate", "--game", "apokerlypse", "--games", "6", "--players", "2-4", "--json"),
        *("--jobs", "2", "--records", str(records), "--bots", "heuristic,random", "--seed", "5"),
        *("--variant", "example-content"),
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["game"] == "apokerlypse" and data["variants"] == ["example-content"]
    assert data["games"] == 6 and data["errors"] == 0
    assert data["decisions"] > 0 and data["seconds"] > 0 and data["decisions_per_sec"] > 0
    # 2+3+4+2+3+4 seats, heuristic on even seats, random on odd ones.
    assert data["bots"]["heuristic"]["seats"] == 1 + 2 + 2 + 1 + 2 + 2
    assert data["bots"]["random"]["seats"] == 1 + 1 + 2 + 1 + 1 + 2
    for stats in data["bots"].values():
        assert {"avg_chips", "wins", "win_rate"} <= set(stats) and "avg_total" not in stats
    assert data["rounds"]["min"] <= data["rounds"]["average"] <= data["rounds"]["max"]
    assert sum(data["endings"].values()) == 6
    assert set(data["endings"]) <= {"no-chips", "nobody-can-pay"}
    assert "cases" not in data and "ethos" not in data
    files = sorted(records.glob("*.json"))
    assert len(files) == 6
    for path in files:
        record = GameRecord.load(path)
        assert record.game == "apokerlypse" and record.config["content"] == "example"
        assert record.result is not None and record.result["chips"]
        assert _difference(record) is None
    for path in files[:2]:
        check = cli("replay", str(path), "--verify")
        assert check.returncode == 0, check.stderr
        assert check.stdout.startswith("ok:")


def test_apokerlypse_content_file_reaches_the_records(tmp_path):
    deck = tmp_path / "mine.toml"
    deck.write_text(
        '[content]\nname = "mine"\n\n[card.7c]\ntiming = "draw"\nkind = "gain"\namount = 3\n'
    )
    records = tmp_path / "r"
    run = cli(
        *("simulate", "-g", "apokerlypse", "-n", "2", "--players", "3", "--json"),
        *("--deck", str(deck), "--records", str(records)),
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["deck"] == str(deck)
    for path in sorted(records.glob("*.json")):
        record = GameRecord.load(path)
        assert record.config["content"] == deck.read_text()
        assert _difference(record) is None


def test_apokerlypse_content_by_packaged_name(tmp_path, capsys):
    """KD-SETUP-1: ``--content NAME`` plays a packaged content as its file would; the names are
    the game's own tuple (a newly packaged content is taken at once), read as the file's text."""
    from apokalypse.cli.cards import read_cards
    from apokalypse.games.apokerlypse.content import PACKAGED, packaged_text

    for name in PACKAGED:
        assert read_cards("apokerlypse", Path(name)) == packaged_text(name)
    records = tmp_path / "r"
    run = cli(
        *("simulate", "-g", "apokerlypse", "-n", "3", "--players", "2-4", "--json"),
        *("--content", "example", "--records", str(records), "--seed", "7"),
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["deck"] == "example" and data["games"] == 3 and data["errors"] == 0
    files = sorted(records.glob("*.json"))
    for path in files:
        record = GameRecord.load(path)
        assert record.config["content"] == packaged_text("example")
        assert _difference(record) is None
    check = cli("replay", str(files[0]), "--verify")
    assert check.returncode == 0, check.stderr
    # the same games as the example-content variant: only the way the content is named differs
    by_variant = summary(capsys, game="apokerlypse", games=3, seed=7, variants=["example-content"])
    assert by_variant["bots"] == data["bots"] and by_variant["rounds"] == data["rounds"]


def test_content_name_neither_packaged_nor_a_file_is_one_line(tmp_path):
    from apokalypse.games.apokerlypse.content import PACKAGED

    for command in (["simulate", "-n", "1"], ["play", "--bots", "random"]):
        run = cli(*command, "-g", "apokerlypse", "--content", "standrd", cwd=tmp_path)
        stderr = one_line_error(run)
        assert "--content 'standrd': neither a packaged content" in stderr
        assert f"({', '.join(PACKAGED)})" in stderr
    # a game without packaged decks reads a path, as before
    stderr = one_line_error(cli("simulate", "-n", "1", "--deck", "example", cwd=tmp_path))
    assert "--deck 'example': cannot read it" in stderr


def test_play_takes_a_packaged_content_by_name():
    from apokalypse.cli.play import _new
    from apokalypse.games.apokerlypse.content import packaged_text

    state, record = _new("apokerlypse", 3, 5, Path("example"), [])
    assert record.config["content"] == packaged_text("example")
    assert state.observation(0)["content"] == "example"  # the name the file gives itself


def test_apokerlypse_table_output():
    run = cli("simulate", "--game", "apokerlypse", "-n", "2", "--players", "2")
    assert run.returncode == 0, run.stderr
    assert "2 games, 0 errors" in run.stdout
    assert "average chips" in run.stdout and "rounds per game" in run.stdout
    assert "How games ended" in run.stdout and "ethos" not in run.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "5"], "K-SETUP-1: Apokerlypse is for 2–4 players"),
        (["--players", "1-3"], "K-SETUP-1"),
        (["--bots", "random,minimax"], "unknown bot 'minimax' for apokerlypse"),
        (["--variant", "good-team"], "unknown Apokerlypse variant"),
        (["--deck", "/no/such/file.toml"], "nor a readable file (No such file"),
    ],
)
def test_apokerlypse_bad_input_is_one_line_and_exit_2(args, words, tmp_path):
    run = cli("simulate", "-g", "apokerlypse", "-n", "1", "--records", str(tmp_path / "r"), *args)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1
    assert words in run.stderr
    assert not (tmp_path / "r").exists()


def test_bad_content_file_and_unknown_game_are_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[card.7c]\ntiming = "soon"\nkind = "gain"\namount = 1\n')
    for args, words in (
        (["-g", "apokerlypse", "--deck", str(bad)], "card '7c': field 'timing'"),
        (["-g", "apokerlypse", "--deck", str(bad), "-V", "example-content"], "give one content"),
        (["--game", "chess"], "unknown game 'chess'"),
        (["--players", "7"], "R-SETUP-1: Apokalypse is for 2–6 players"),
    ):
        run = cli("simulate", "-n", "1", *args)
        assert run.returncode == 2, args
        assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1
        assert words in run.stderr, run.stderr


def test_apokerlypse_runs_repeat_whatever_the_worker_count(capsys):
    def run(jobs: int) -> dict[str, Any]:
        return summary(
            capsys, game="apokerlypse", bots="heuristic,random", jobs=jobs,
            variants=["example-content"],
        )  # fmt: skip

    one = run(1)
    assert one == run(2)
    assert one["games"] == 5 and one["errors"] == 0 and one["players"] == [2, 3, 4]


def test_parse_players_for_a_game():
    from apokalypse.engine.registry import get_game

    assert parse_players("2-4", get_game("apokerlypse")) == [2, 3, 4]
    with pytest.raises(ConfigError, match="K-SETUP-1"):
        parse_players("2-5", get_game("apokerlypse"))
    with pytest.raises(ConfigError, match="R-SETUP-1"):
        parse_players("1", get_game("apokalypse"))


def test_apokerlypse_summary_counts_factions_as_the_report_does(tmp_path):
    """K-SETUP-1: the --json summary's faction win rates per player count, without --out, are
    the report's of the same games written with --out."""
    from apokalypse.sim.report import build, load

    args = (
        *("simulate", "-g", "apokerlypse", "-n", "12", "--players", "2-4", "--json"),
        *("--bots", "medium", "--content", "example", "--seed", "1000000"),
    )
    run = cli(*args)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    out = tmp_path / "run"
    assert cli(*args, "--out", str(out)).returncode == 0
    rows = next(s for s in build(load(out)).sections if s.anchor == "factions").tables[0].rows
    for n, count in data["by_players"].items():
        assert count["games"] == 4 and count["fair_share"] == round(1 / int(n), 4)
        assert sum(f["seats"] for f in count["factions"].values()) == 4 * int(n)
        for faction, figures in count["factions"].items():
            row = next(r for r in rows if r[0] == n and r[1].endswith(f" {faction}"))
            assert row[2] == str(figures["seats"])
            assert row[3].startswith(f"{100 * figures['win_rate']:.1f} %")
        assert 0 <= count["rounds_4_12"] <= 1
    won = sum(f["wins"] for c in data["by_players"].values() for f in c["factions"].values())
    assert won == sum(b["wins"] for b in data["bots"].values())
