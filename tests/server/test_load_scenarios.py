"""``apokalypse loadtest --scenario`` at a tiny size: real server processes, the report's figures
present and sane. Not a timing test (the machine may be busy): each figure is checked to come
from what was really done (counts that match, memory read from a live process, stalled games
among those raced), never against its target."""

from __future__ import annotations

import itertools
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from apokalypse.bench import proxy
from apokalypse.bench.load import serve_flags
from apokalypse.bench.scenarios import TARGETS
from apokalypse.cli.main import main
from apokalypse.i18n import text
from tests.services import missing

from .databases import reachable


def scenario(tmp_path: Path, name: str, *extra: str) -> dict[str, Any]:
    out = tmp_path / f"{name}.json"
    assert main(["loadtest", "--scenario", name, "--out", str(out), *extra]) == 0
    report: dict[str, Any] = json.loads(out.read_text())
    assert report["scenario"] == name
    return report


def check_headline(report: dict[str, Any], value: float | int | None) -> None:
    head = report["headline"]
    target = TARGETS[report["scenario"]]
    assert head["value"] == value
    for key in ("figure", "unit", "target", "target_text", "before_text"):
        assert head[key] == target[key]
    assert isinstance(head["met"], bool)
    conditions = report["conditions"]
    assert conditions["cores"] >= 1 and len(conditions["loadavg_after"]) == 3


def check_percentiles(figures: dict[str, Any], count: int | None = None) -> None:
    if count is not None:
        assert figures["count"] == count
    assert figures["count"] > 0
    assert 0 <= figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]


def test_idle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = scenario(tmp_path, "idle", "--games", "20", "--idle-seconds", "1", "--settle", "5")
    figures = report["figures"]
    assert report["errors_total"] == 0, report["errors"]
    assert figures["games"] == 20
    check_percentiles(figures["create"], 20)  # every game created …
    check_percentiles(figures["get"], 20)  # … and looked at once
    for name in ("rss_start_mb", "rss_before_mb", "rss_peak_mb", "rss_after_mb"):
        assert 10 < figures[name] < 4000, name  # a live Python server, read from /proc
    kept = figures["rss_after_mb"] - figures["rss_before_mb"]
    assert math.isclose(figures["kept_mb"], kept, abs_tol=0.011)
    # Waited as long as asked and no longer, told by its readings, not by the clock (a busy
    # machine reads late): a second apart at least, the last one the first at or past the
    # 5 s asked, every other one before it (times rounded to a tenth).
    readings = figures["rss_readings"]
    assert readings and readings[-1][1] == figures["rss_after_mb"]
    times = [t for t, _ in readings]
    assert figures["waited_s"] == times[-1] >= 5 and all(t <= 5 for t in times[:-1]), times
    assert all(later - earlier >= 0.9 for earlier, later in itertools.pairwise(times)), times
    assert isinstance(figures["settled"], bool)
    pid = report["servers"][0]["pid"]
    assert pid > 0 and not Path(f"/proc/{pid}").exists()  # stopped afterwards
    check_headline(report, figures["kept_mb"])
    shown = capsys.readouterr().out
    assert "kept" in shown and "target" in shown  # the table


def test_computers(tmp_path: Path) -> None:
    # a quick computer player: the test checks the figures, not the strength of the players
    report = scenario(
        tmp_path, "computers", "--games", "1", "--computer", "easy", "--duration", "2"
    )
    figures = report["figures"]
    assert report["errors_total"] == 0, report["errors"]
    assert figures["computer_games"] == 1 and figures["computer"] == "easy"
    assert figures["creations_unanswered"] == 0
    assert len(figures["creations_s"]) == 1 and figures["creations_s"][0] > 0
    assert figures["window_s"] >= 2
    check_percentiles(figures["answer"])  # the person's game was played in the window
    check_percentiles(figures["answer_before_window"])
    check_percentiles(figures["get"])
    assert figures["person_games"]["started"] >= 1
    assert figures["refusals"] == 0
    # the computer game exists and was played (at once, or in the background since)
    (game,) = figures["computer_games_after"]
    assert game["move"] >= 0 and isinstance(game["over"], bool)
    check_headline(report, figures["answer"]["max_ms"])


def test_coach(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two coached games in three tabs each, and a person playing computers elsewhere, for a
    short window: every figure is measured and the headline is the slowest of them."""
    report = scenario(tmp_path, "coach", "--games", "2", "--duration", "6")
    figures = report["figures"]
    assert report["errors_total"] == 0, report["errors"]
    assert figures["coached_games"] == 2 and figures["tabs"] == 3 and figures["pace_s"] == 0.6
    check_percentiles(figures["advice"])  # the coach answered the tabs …
    bounds = [text(f"server.coach-{key}", "en", seconds=6) for key in ("busy", "pace", "full")]
    # … and refused only for its bounds (cut short). A question that arrived after the server
    # gave the person's one possible answer is counted apart (questions_crossed).
    for reason in figures["coach_refusals"]:
        assert any(bound.startswith(reason) for bound in bounds), reason
    # The person elsewhere played on (in a window this short, on a busy machine, the computers'
    # paced turns may leave one wait unfinished, even the first: it counts as waited so far) …
    gaps = figures["next_decision"].get("count", 0)
    unfinished = figures["unfinished"]["elsewhere"]
    check_percentiles(figures["beyond_pace"])
    assert figures["beyond_pace"]["count"] == gaps + unfinished
    assert gaps + unfinished >= 1  # at least one wait for a decision was measured
    assert figures["decisions"] >= gaps and figures["decisions"] + unfinished >= 1
    check_percentiles(figures["first_message"])  # … and tabs opened on its game
    slowest = max(figures["beyond_pace"]["max_ms"], figures["first_message"]["max_ms"])
    assert math.isclose(report["headline"]["value"], slowest, abs_tol=0.11)
    assert report["headline"]["met"] == (slowest <= 1000)
    check_headline(report, report["headline"]["value"])
    assert "--computer-delay" in report["servers"][0]["flags"]
    assert "beyond the pacing" in capsys.readouterr().out  # the table


def test_race(tmp_path: Path) -> None:
    reachable("127.0.0.1", 5432, "PostgreSQL")
    reachable("127.0.0.1", 6379, "Redis")
    report = scenario(tmp_path, "race", "--games", "3", "--stall", "3")
    figures = report["figures"]
    assert report["errors_total"] == 0, report["errors"]
    assert [server["role"] for server in report["servers"]] == ["A", "B"]
    assert report["servers"][0]["pid"] != report["servers"][1]["pid"]
    assert figures["games"] == figures["raced"] == len(figures["each"]) == 3
    assert 0 <= figures["stalled"] <= figures["raced"]
    assert figures["stalled"] == len(figures["stalled_games"])
    assert figures["behind_at_first"] <= figures["raced"]
    orders = figures["by_order"]
    assert sum(order["games"] for order in orders.values()) == 3
    assert sum(order["stalled"] for order in orders.values()) == figures["stalled"]
    for game in figures["each"]:
        assert game["stalled"] == (game["caught_up_ms"] is None)
        assert game["a_move"] >= game["move"]  # A moved on (or a window froze its move)
    # a game not stalled was shown to B what A holds
    if figures["stalled"] < figures["raced"]:
        check_percentiles(figures["caught_up"], figures["raced"] - figures["stalled"])
    check_headline(report, figures["stalled"])
    assert report["headline"]["met"] == (figures["stalled"] == 0)


def test_unknown_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--scenario", "nap"]) == 2
    assert "--scenario 'nap'" in capsys.readouterr().err


def test_scenarios_start_their_own_servers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--scenario", "idle", "--url", "http://127.0.0.1:1"]) == 2
    assert "--scenario play" in capsys.readouterr().err


def test_serve_flags_only_those_the_server_takes() -> None:
    flags = serve_flags({"--port": "1", "--no-such-option": "2", "--answer-delay": "0.05 0.3"})
    assert flags == ["--port", "1", "--answer-delay", "0.05", "0.3"]  # two values, two arguments


def test_play_through_nginx_with_tls(tmp_path: Path) -> None:
    try:
        proxy.nginx_program()
        if shutil.which("openssl") is None:
            raise proxy.ProxyError("the openssl command is missing")
    except proxy.ProxyError as exc:
        missing(f"{exc} (.ci/run installs it)")
    out = tmp_path / "play.json"
    arguments = ["loadtest", "--games", "2", "--duration", "3", "--warmup", "1", "--think", "0.05"]
    assert main([*arguments, "--sample", "1", "--proxy", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["proxy"]["url"].startswith("https://127.0.0.1:")  # the clients went through it
    assert report["proxy"]["upstreams"] == [server["url"] for server in report["servers"]]
    assert report["refusals"] == 0 and report["errors_total"] == 0, report["errors"]
    assert report["actions"]["count"] > 0 and report["games"]["without_progress"] == 0
