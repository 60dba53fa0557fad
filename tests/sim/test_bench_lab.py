"""``apokalypse bench-lab``: the lab's speed figures through the real command (a tiny run)."""

from __future__ import annotations

import json

import pytest

from tests.commands import CLI, run


def test_the_figures_of_a_tiny_run() -> None:
    done = run([*CLI, "bench-lab", "--scale", "0.01", "--lineup", "random", "--no-ray", "--json"])
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["jobs"] == 2 and "ray_start_seconds" not in data
    (row,) = data["lineups"]
    assert row["lineup"] == "random" and row["games"] == 20 and row["errors"] == 0
    hows = ["one process", "one process, collector", "one process, tables", "2 processes, tables"]
    assert list(row["games_per_hour"]) == hows
    assert all(rate > 0 for rate in row["games_per_hour"].values())
    # the derived figures are the ratios of the timings shown
    s = row["seconds"]
    assert row["collector_cost"] == pytest.approx(
        s["one process, collector"] / s["one process"] - 1, abs=0.03
    )
    assert row["per_worker"] == pytest.approx(
        s["one process, tables"] / s["2 processes, tables"] / 2, abs=0.03
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (("--lineup", "grandmasters"), "--lineup 'grandmasters': choose from random"),
        (("--scale", "0"), "--scale must be more than 0"),
        (("--jobs", "0"), "--jobs must be 1"),
    ],
)
def test_bad_input_is_one_line(args: tuple[str, ...], message: str) -> None:
    done = run([*CLI, "bench-lab", "--no-ray", *args])
    assert done.returncode == 2 and done.stderr.startswith("error: ") and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
