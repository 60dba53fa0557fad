"""``apokalypse replay``: verify catches any difference; bad files are one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from apokalypse.cli.replay import _lines
from apokalypse.engine.record import replay
from apokalypse.sim.runner import Task, run_game
from tests.helpers import cli, one_line_error


@pytest.fixture(scope="module")
def record_json() -> dict[str, Any]:
    outcome = run_game(Task(0, 21, 3, ("heuristic", "random", "random"), (), True))
    assert outcome.record is not None and outcome.error is None
    return outcome.record.to_json()


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_an_intact_record_verifies(tmp_path, record_json):
    run = cli("replay", str(write(tmp_path, record_json)), "--verify")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok: ") and run.stdout.count("\n") == 1


def tampered(record: dict[str, Any], how: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(record))
    if how == "digest":
        data["events_sha256"] = "0" * 64
    elif how == "result":
        data["result"]["totals"][0] += 1
    elif how == "truncated":
        del data["actions"][-1]
    elif how == "illegal":
        data["actions"][0] = "play no-such-card good"
    elif how == "seed":
        data["seed"] += 1
    elif how == "no-digest":
        data["events_sha256"] = None
    return data


@pytest.mark.parametrize("how", ["digest", "result", "truncated", "illegal", "seed", "no-digest"])
def test_a_tampered_record_fails_verify(tmp_path, record_json, how):
    run = cli("replay", str(write(tmp_path, tampered(record_json, how))), "--verify")
    assert "replay differs from the record" in one_line_error(run, 1)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"format": 1, "game": "apokalypse"}', "version"),
        ('{"format": 99}', "format"),
    ],
)
def test_unreadable_records_are_one_line_exit_2(tmp_path, content, words):
    for extra in ([], ["--verify"]):
        run = cli("replay", str(write(tmp_path, content)), *extra)
        assert words in one_line_error(run, 2)


def test_missing_file_is_one_line_exit_2(tmp_path):
    one_line_error(cli("replay", str(tmp_path / "nope.json")), 2)


def test_log_as_a_seat_and_bad_seats(tmp_path, record_json):
    path = write(tmp_path, record_json)
    run = cli("replay", str(path), "--seat", "2")
    assert run.returncode == 0, run.stderr
    assert "seen by p2" in run.stdout.splitlines()[0]
    *_, result, seed = run.stdout.rstrip().splitlines()
    assert result.startswith("result: ") and seed.startswith("seed: ")  # over: the seed may show
    assert "--seat" in one_line_error(cli("replay", str(path), "--seat", "4"), 2)
    assert "--lang" in one_line_error(cli("replay", str(path), "--lang", "fr"), 2)
    german = cli("replay", str(path), "--lang", "de")
    assert german.returncode == 0, german.stderr


def test_plain_log_keeps_secrets(record_json):
    """The fallback text goes through Event.view: a spectator never sees a gift's card."""
    from apokalypse.engine.record import GameRecord

    events = [e for batch in replay(GameRecord.from_json(record_json)).events for e in batch]
    secret = [e for e in events if e.secret]
    assert secret
    names = ["p1", "p2", "p3"]
    for event in secret:
        hidden = list((event.secret or {}).values())
        (line,) = _lines([event], None, "en", names, None)
        assert all(f"={v}" not in line for v in hidden)
        if event.kind != "deal":
            (own,) = _lines([event], min(event.seen_by), "en", names, None)
            assert any(f"={v}" in own for v in hidden)
