"""``apokalypse simulate --out DIR``: the results tables through the real command, resumed after
an interruption, and every bad folder refused in one line with nothing left behind."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from apokalypse.sim.tables import ResultsError, read_results
from tests.commands import CLI, run


def simulate(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run([*CLI, "simulate", "--out", str(out), "--json", *args])


def rows(table: pa.Table) -> list[dict[str, Any]]:
    return table.to_pylist()


def test_the_tables_hold_one_row_per_game_and_per_player(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = simulate(out, *("--games", "12", "--players", "2-4", "--seed", "40", "--jobs", "2"))
    assert done.returncode == 0, done.stderr
    results = read_results(out)
    manifest = json.loads((out / "run.json").read_text())
    assert results.manifest == manifest and manifest["players"] == [2, 3, 4]
    games, players = rows(results.games), rows(results.players)
    assert [g["game"] for g in games] == list(range(12))
    assert [g["seed"] for g in games] == [40 + i for i in range(12)]
    assert [g["players"] for g in games] == [2, 3, 4] * 4
    assert len(players) == sum(g["players"] for g in games)
    assert {g["run"] for g in games} == {p["run"] for p in players} == {manifest["run"]}
    for game in games:
        seats = [p for p in players if p["game"] == game["game"]]
        assert [p["seat"] for p in seats] == list(range(game["players"]))
        assert sum(bool(p["won"]) for p in seats) == game["winners"]
        assert game["error"] is None and game["decisions"] > 0
    # what the summary printed is what the tables hold
    summary = json.loads(done.stdout)
    assert summary["games"] == 12 and summary["already_done"] == 0
    wins = sum(bool(p["won"]) for p in players)
    assert wins == sum(b["wins"] for b in summary["bots"].values())


def test_a_rerun_resumes_and_gives_the_tables_of_one_run(tmp_path: Path) -> None:
    args = ("--players", "2-3", "--seed", "7", "--bots", "random,heuristic")
    first = simulate(tmp_path / "resumed", "--games", "5", *args)
    assert first.returncode == 0, first.stderr
    again = simulate(tmp_path / "resumed", "--games", "9", *args)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["already_done"] == 5
    assert json.loads(again.stdout)["games"] == 4, "only the missing games are played"
    whole = simulate(tmp_path / "whole", "--games", "9", *args)
    assert whole.returncode == 0, whole.stderr
    resumed, one = read_results(tmp_path / "resumed"), read_results(tmp_path / "whole")
    assert resumed.games.equals(one.games) and resumed.players.equals(one.players)
    assert len(list((tmp_path / "resumed" / "games").glob("part-*.parquet"))) == 2


def test_a_folder_of_before_a_column_was_added_is_read_and_resumed(tmp_path: Path) -> None:
    """Columns are added last: parts written without them (an earlier version's, here the
    Apokerlypse players' parts without ``abilities`` and ``held``) read with them null, and a
    rerun adds parts with them."""
    out = tmp_path / "run"
    args = ("-g", "apokerlypse", "--players", "2-4", "--seed", "3", "--bots", "medium")
    assert simulate(out, "--games", "4", *args).returncode == 0
    for part in (out / "players").glob("part-*.parquet"):
        table = pq.read_table(part)
        assert table.column_names[-2:] == ["abilities", "held"]
        pq.write_table(table.drop_columns(["abilities", "held"]), part)
    again = simulate(out, "--games", "6", *args)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["already_done"] == 4
    players = rows(read_results(out).players)
    old = [p for p in players if p["game"] < 4]
    new = [p for p in players if p["game"] >= 4]
    assert old and all(p["held"] is None and p["abilities"] is None for p in old)
    assert new and all(p["held"] is not None and p["abilities"] is not None for p in new)
    # a part with a column of another type is still another run's
    part = next((out / "players").glob("part-*.parquet"))
    table = pq.read_table(part)
    pq.write_table(table.set_column(0, "run", pa.array([1] * table.num_rows)), part)
    with pytest.raises(ResultsError, match="has other columns"):
        read_results(out)


@pytest.mark.long(37)
def test_an_interrupted_run_keeps_its_games_and_the_rerun_finishes_it(tmp_path: Path) -> None:
    out, records = tmp_path / "run", tmp_path / "records"
    args = ("--games", "150", "--players", "4", "--bots", "medium", "--seed", "3")
    command = [*CLI, "simulate", "--out", str(out), "--json", *args, "--records", str(records)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Under way, with a game finished (its record is saved as it comes in; the tables write
    # theirs in parts, the last one when the run stops): polled, not a fixed wait.
    deadline = time.monotonic() + 120
    while not list(records.glob("game-*.json")):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no game finished within two minutes"
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    kept = read_results(out).games.num_rows
    assert 0 < kept < 150, "the games finished before the stop are kept"
    # a kill -9 in the middle of a write leaves a temporary and a players part without its
    # games part: the rerun removes both and plays those games again
    (out / "games" / ".part-00007.parquet.99.tmp").write_bytes(b"half a part")
    orphan = out / "players" / "part-00007.parquet"
    pq.write_table(read_results(out).players.slice(0, 1), orphan)
    rerun = run([*command])
    assert rerun.returncode == 0, rerun.stderr
    assert json.loads(rerun.stdout)["already_done"] == kept
    assert not orphan.exists() and not list((out / "games").glob(".*.tmp"))
    results = read_results(out)
    assert [g["game"] for g in rows(results.games)] == list(range(150))
    assert results.players.num_rows == 150 * 4


@pytest.mark.parametrize(
    "args, message",
    [
        (("--bots", "grandmaster"), "grandmaster"),
        (("--players", "7"), "--players 7"),
        (("--players", "2-3", "--bots", "random,medium,hard,expert"), "names 4 players, but the"),
        (("--ray", "127.0.0.1:1"), "cannot reach a Ray cluster"),
        (("--ray", "not an address"), "HOST:PORT"),
    ],
)
def test_bad_arguments_leave_no_folder(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    out = tmp_path / "run"
    done = simulate(out, "--games", "3", *args)
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not done.stdout
    assert not out.exists(), "nothing made for a run that never started"


def test_another_runs_folder_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert simulate(out, "--games", "3", "--players", "2").returncode == 0
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    other = simulate(out, "--games", "3", "--players", "3")
    assert other.returncode == 2
    assert "holds another run (players [2] there, [3] here)" in other.stderr
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before


def test_a_folder_that_is_not_a_results_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    done = simulate(tmp_path, "--games", "2")
    assert done.returncode == 2 and "neither empty nor a results folder" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_corrupt_part_is_named_and_nothing_is_played(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert simulate(out, "--games", "4", "--players", "2").returncode == 0
    part = next((out / "games").glob("part-*.parquet"))
    part.write_bytes(part.read_bytes()[:100])
    done = simulate(out, "--games", "8", "--players", "2")
    assert done.returncode == 2 and not done.stdout
    assert f"{part} is not a readable Parquet file" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in (out / "games").iterdir()) == [part.name]


def test_a_manifest_of_another_format_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert simulate(out, "--games", "2", "--players", "2").returncode == 0
    manifest = json.loads((out / "run.json").read_text())
    (out / "run.json").write_text(json.dumps({**manifest, "format": 99}))
    done = simulate(out, "--games", "2", "--players", "2")
    assert done.returncode == 2 and "format 99" in done.stderr


@pytest.mark.long(36)
@pytest.mark.xdist_group("ray")  # one Ray at a time: a local one joins a running cluster
def test_the_ray_runner_gives_the_same_tables(tmp_path: Path) -> None:
    """``--ray`` alone starts a Ray instance on this machine (a real one, two worker CPUs)."""
    args = ("--games", "40", "--players", "2-5", "--seed", "90", "--jobs", "2")
    env_before = dict(os.environ)
    on_ray = simulate(tmp_path / "ray", *args, "--ray")
    assert on_ray.returncode == 0, on_ray.stderr
    local = simulate(tmp_path / "local", *args)
    assert local.returncode == 0, local.stderr
    a, b = read_results(tmp_path / "ray"), read_results(tmp_path / "local")
    assert a.games.equals(b.games) and a.players.equals(b.players)
    assert dict(os.environ) == env_before


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.long(35)
@pytest.mark.xdist_group("ray")  # one Ray at a time: a local one joins a running cluster
def test_a_ray_cluster_started_apart_is_joined_by_its_address(tmp_path: Path) -> None:
    """A Ray head started by ``ray start`` in its own process, joined with ``--ray HOST:PORT``.
    (Ray's token authentication is switched off for this private cluster: docs/lab.md, "On Ray".)"""
    port = _free_port()
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    ray = str(Path(sys.executable).parent / "ray")
    head = subprocess.Popen(
        [
            ray,
            "start",
            "--head",
            "--block",
            f"--port={port}",
            "--num-cpus=2",
            "--include-dashboard=false",
            "--disable-usage-stats",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        args = ("--games", "30", "--players", "3", "--seed", "5", "--ray", f"127.0.0.1:{port}")
        command = [*CLI, "simulate", "--out", str(tmp_path / "cluster"), "--json", *args]
        for _ in range(60):  # the head takes a few seconds to listen
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            time.sleep(0.5)
        # A hang guard, not a timing: 30 games take about 30 s, and took over 120 s once on a
        # machine that three other test processes and a compiler kept busy.
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=420)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["games"] == 30
    finally:
        head.terminate()
        head.wait(timeout=60)
    local = simulate(tmp_path / "local", *args[:6])
    assert local.returncode == 0, local.stderr
    a, b = read_results(tmp_path / "cluster"), read_results(tmp_path / "local")
    assert a.games.equals(b.games) and a.players.equals(b.players)
