"""``apokalypse loadtest`` for a few seconds: a real server process (two over PostgreSQL and
Redis when scaled), three games played by WebSocket clients, the report's figures present and
every game moving. Not a timing test: the figures are only checked to be there and sane."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from apokalypse.bench.load import answered_for_me, percentiles, slope_per_10min
from apokalypse.cli.main import main

from .databases import reachable


def loadtest(tmp_path: Path, *extra: str) -> dict[str, Any]:
    out = tmp_path / "report.json"
    arguments = ["loadtest", "--games", "3", "--duration", "4", "--warmup", "1"]
    # a fast "person" (50 ms) so that a few seconds hold dozens of actions per game
    arguments += ["--think", "0.05", "--sample", "1", "--out", str(out), *extra]
    assert main(arguments) == 0
    report: dict[str, Any] = json.loads(out.read_text())
    return report


def check(report: dict[str, Any], servers: int) -> None:
    games = report["games"]
    assert games["concurrent"] == 3
    assert games["started"] >= 3
    assert games["without_progress"] == 0, games
    assert games["min_actions"] > 0
    assert report["actions"]["count"] > 0 and report["actions"]["per_s"] > 0
    for name in ("p50_ms", "p90_ms", "p99_ms", "max_ms"):
        assert report["answer"][name] >= 0
    assert report["answer"]["p50_ms"] <= report["answer"]["p99_ms"] <= report["answer"]["max_ms"]
    assert report["refusals"] == 0 and report["errors_total"] == 0, report["errors"]
    assert len(report["servers"]) == servers
    for server in report["servers"]:
        assert server["pid"] > 0
        assert server["rss_mb"]["max"] > 10  # a Python server, sampled from /proc
    assert report["samples"] and all(len(s["rss_mb"]) == servers for s in report["samples"])
    assert report["clients"]["cpu_cores"] is not None
    assert set(report["verdict"]) == {"p99_under_50ms", "no_refusals_or_errors", "memory_flat"}


@pytest.mark.long(17)
def test_one_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # As in the two processes' run below: a few seconds are not spent on automatic answers.
    check(loadtest(tmp_path, "--race-answers"), servers=1)
    assert "actions/s" in capsys.readouterr().out  # the table


def test_the_clients_leave_to_the_server_what_it_answers_for_them() -> None:
    """As the page does: a window's question a seat cannot but decline, its automatic answers
    on (a client that answered it too would race the server's answer and be refused)."""
    decline = {"auto": True, "legal": [{"text": "decline", "verb": "decline"}]}
    assert answered_for_me(decline)
    assert not answered_for_me({**decline, "auto": False})  # the person answers themselves
    assert not answered_for_me({**decline, "auto": None})  # a spectator
    choices = [{"text": "decline", "verb": "decline"}, {"text": "d m/hp", "verb": "defend"}]
    assert not answered_for_me({"auto": True, "legal": choices})  # a choice to make
    assert not answered_for_me({"auto": True, "legal": [{"text": "pass", "verb": "pass"}]})
    assert not answered_for_me({"auto": True, "legal": []})


@pytest.mark.long(21)
def test_two_processes_over_postgres_and_redis(tmp_path: Path) -> None:
    reachable("127.0.0.1", 5432, "PostgreSQL")
    reachable("127.0.0.1", 6379, "Redis")
    # The clients also answer what the server answers for them (a short run would otherwise
    # spend seconds on automatic answers): one of the two is refused and counted apart, and a
    # move both processes take is settled in place, never by closing a connection.
    report = loadtest(tmp_path, "--scaled", "--race-answers")
    check(report, servers=2)
    assert report["reconnects"] == 0
    # seats alternate between the processes: half the hand-overs crossed the fan-out
    assert report["crossing"]["count"] > 0


def test_figures() -> None:
    assert percentiles([]) == {"count": 0}
    figures = percentiles([i / 1000 for i in range(1, 101)])  # 1 … 100 ms
    assert (figures["p50_ms"], figures["p99_ms"], figures["max_ms"]) == (50, 99, 100)
    assert slope_per_10min([(0, 100), (60, 101), (120, 102)]) == 10.0  # 1 MB a minute
    assert slope_per_10min([(0, 100), (60, 100)]) is None  # too few samples to judge
