"""``apokalypse learn``: it writes a weights file the master level reads, with its provenance
beside it; the same command gives the same file; it never overwrites a file without ``--force``;
later generations are played by the master level with the network before; bad options are one
line. And ``tournament --weights`` plays with a file it has checked first."""

from __future__ import annotations

import json

import numpy as np
import pytest

from apokalypse.bots.learned import Weights, load
from apokalypse.cli.tournament import run_tournament
from apokalypse.sim.learn import Game, Positions, positions
from tests.helpers import cli, one_line_error

SMALL = ("-g", "apokerlypse", "--players", "2", "-n", "12", "--bots", "medium", "--epochs", "2")


@pytest.mark.long(27)
def test_learn_writes_weights_the_master_level_reads_with_their_provenance(tmp_path):
    out = tmp_path / "w.npz"
    run = cli("learn", *SMALL, "--out", str(out), timeout=300)
    assert run.returncode == 0, run.stderr
    assert f"weights written to {out}" in run.stdout
    assert "hand-made evaluation" in run.stdout  # the held-out comparison
    weights = load(out, "apokerlypse")
    provenance = json.loads((tmp_path / "w.json").read_text("utf-8"))
    assert provenance["command"] == "apokalypse learn " + " ".join([*SMALL, "--out", str(out)])
    assert provenance["seed"] == 0 and provenance["data"]["games"] == 12
    assert provenance["data"]["bots"] == ["medium"] and provenance["commit"]
    assert provenance["seconds"] > 0  # beside the file, not in it
    (generation,) = provenance["generations"]
    figures = generation["players"]["2"]
    assert figures["rows"] > 0 and figures["held_out_rows"] > 0
    assert 0 < figures["loss"] < 5 and 0 <= figures["error"] <= 1
    assert len(weights.nets) == 1

    refused = cli("learn", *SMALL, "--out", str(out))
    assert "exists: give --force to overwrite it" in one_line_error(refused)
    assert load(out, "apokerlypse").meta == weights.meta, "unchanged"
    again = cli("learn", *SMALL, "--out", str(out), "--force", timeout=300)
    assert again.returncode == 0, again.stderr
    assert _arrays(load(out, "apokerlypse")) == _arrays(weights), "the same weights, bit for bit"

    other = cli("learn", *SMALL, "--seed", "1", "--out", str(tmp_path / "w1.npz"), timeout=300)
    assert other.returncode == 0, other.stderr
    assert _arrays(load(tmp_path / "w1.npz", "apokerlypse")) != _arrays(weights)


def _arrays(weights: Weights) -> list[bytes]:
    """Every number of every network, as bytes (equal exactly when the weights are)."""
    return [
        a.tobytes()
        for key in sorted(weights.nets)
        for a in (weights.nets[key].scale, *weights.nets[key].weights, *weights.nets[key].biases)
    ]


def test_later_generations_are_played_by_the_master_level(tmp_path):
    out = tmp_path / "w.npz"
    run = cli("learn", *SMALL, "--generations", "2", "--self-play", "master:5",
              "--self-play-games", "6", "--out", str(out), timeout=300)  # fmt: skip
    assert run.returncode == 0, run.stderr
    provenance = json.loads((tmp_path / "w.json").read_text("utf-8"))
    first, second = provenance["generations"]
    assert first["players"]["2"]["lineup"] == ["medium", "medium"]
    assert second["players"]["2"]["lineup"] == ["master:5", "master:5"]
    assert second["players"]["2"]["rows"] > first["players"]["2"]["rows"], "trained on both"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--hidden", "abc"), "--hidden 'abc': 0 (none) or one to four layer widths"),
        (("--hidden", "-1"), "--hidden '-1'"),
        (("--generations", "2", "--self-play", "medium"), "give the master level, master:N"),
        (("--out", "w.txt"), "a weights file ends in .npz"),
        (("--out", "nowhere/w.npz"), "there is no folder nowhere"),
        (("--epochs", "0"), "--epochs 0: 1 … 1000"),
        (("--bots", "wizard"), "unknown bot 'wizard'"),
        (("--players", "9"), "9"),
        (("--jobs", "0"), "--jobs"),
    ],
)
def test_bad_options_are_one_line(tmp_path, args, words):
    run = cli("learn", "-n", "1", *args, cwd=tmp_path)
    assert words in one_line_error(run)
    assert not list(tmp_path.iterdir()), "nothing written"


def test_tournament_plays_with_a_weights_file_it_checked_first(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not weights")
    run = cli("tournament", "-g", "apokerlypse", "-p", "2", "-n", "2", "--a", "master:5",
              "--b", "medium", "--weights", str(bad))  # fmt: skip
    assert f"weights file {bad}: not a weights file" in one_line_error(run)
    good = tmp_path / "w.npz"
    made = cli("learn", *SMALL, "--out", str(good), timeout=300)
    assert made.returncode == 0, made.stderr
    foreign = cli("tournament", "-p", "2", "-n", "2", "--a", "master:5", "--weights", str(good))
    assert "holds weights for 'apokerlypse', not 'apokalypse'" in one_line_error(foreign)
    played = cli("tournament", "-g", "apokerlypse", "-p", "2", "-n", "2", "--a", "master:5",
                 "--b", "medium", "--weights", str(good), "--json", timeout=300)  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["games"] == 2


def test_positions_are_each_seats_rows_with_the_games_final_value():
    game = Game("apokalypse", 3, 17, ("medium", "medium", "medium"))
    rows = positions(game)
    assert len(rows.targets) % 3 == 0 and len(rows.targets) > 0
    finals = rows.targets[:3]
    assert np.all(rows.targets.reshape(-1, 3) == finals), "every position of a game: its end"
    assert finals.min() >= 0 and finals.max() <= 1
    data = Positions(int(rows.indices.max()) + 1)
    data.add(rows, 0)
    dense = data.dense(np.arange(len(rows.targets)))
    assert dense.shape[0] == len(rows.targets) and np.count_nonzero(dense) == len(rows.data)
    assert positions(game).indptr.tolist() == rows.indptr.tolist(), "the same game, the same rows"


def test_the_ladder_plays_each_level_against_the_one_below(tmp_path, monkeypatch, capsys):
    """The ladder's steps as real tournaments; cheap players stand in for the levels (the real
    ladder's searching levels take minutes a game)."""
    monkeypatch.setattr("apokalypse.cli.tournament.LADDER", ("random", "easy", "medium"))
    monkeypatch.setenv("COLUMNS", "160")  # the table's width (a terminal's, not the tests' 80)
    out = tmp_path / "ladder.json"
    status = run_tournament("apokerlypse", 2, 4, 1, [], 5, False, out, False, None, ladder=True)
    assert status == 0
    data = json.loads(out.read_text("utf-8"))
    steps = [(s["specs"][0]["spec"], s["specs"][1]["spec"]) for s in data["ladder"]]
    assert steps == [("easy", "random"), ("medium", "easy")]
    for step in data["ladder"]:
        assert step["games"] == 4 and step["errors"] == 0
        (difference,) = step["differences"]
        assert len(difference["per_deal"]) == difference["deals"] == 2
        assert [seed for seed, _ in difference["per_deal"]] == [5, 6], "the same deals each step"
    shown = capsys.readouterr().out
    assert "easy − random" in shown and "medium − easy" in shown
