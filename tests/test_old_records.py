"""Records written before a change replay identically after it, and the computer players still
choose the same actions: ``tests/records/`` holds games that ``simulate`` wrote (heuristic and
random players, 2–6 players of Apokalypse, 2–4 of Apokerlypse) before the code was last
reorganised, in record format 2, and three Apokerlypse games of the first edition of the standard
content, stored by its name ("standard") as the server stores a game's content, made before the
second edition ("standard-2") became the default. A refactoring that changes any event, result or
choice fails here, and so does a change of a packaged content under its old name.

A deliberate change of the rules' events or of a player's choices regenerates them:
``apokalypse simulate -n 5 --players 2-6 --bots heuristic,random --seed 7 --records DIR`` (and
``-g apokerlypse -n 3 --players 2-4``), copied under the names used here; games 3–5 are
``sim.runner.run_game(Task(i, 7 + i, 2 + i, bots, (), True, "apokerlypse", "standard"))`` with
heuristic and random seats alternating."""

from __future__ import annotations

from pathlib import Path

import pytest

from apokalypse.engine.record import GameRecord, replay
from apokalypse.sim.runner import Task, run_game

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


def test_the_records_are_there():
    games = {path.name.split("-")[0] for path in RECORDS}
    assert len(RECORDS) == 11 and games == {"apokalypse", "apokerlypse"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.stem)
def test_an_old_record_replays_to_the_same_events_and_result(path: Path):
    record = GameRecord.load(path)
    again = replay(record)
    assert again.digest == record.events_sha256
    result = again.state.result
    assert result is not None and result.to_json() == record.result


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.stem)
def test_the_players_choose_the_same_actions_again(path: Path):
    record = GameRecord.load(path)
    bots = tuple(record.meta["bots"])
    # The record's own content (Apokerlypse's default changed since: it names its content).
    content = record.config.get("content")
    assert content is None or isinstance(content, str)
    task = Task(record.meta["index"], record.seed, len(bots), bots, (), True, record.game, content)
    outcome = run_game(task)
    assert outcome.error is None and outcome.record is not None
    assert outcome.record.actions == record.actions
    assert (outcome.record.result, outcome.record.meta) == (record.result, record.meta)
    if record.game == "apokalypse":  # nothing before the first turn: format 3 digests the same
        assert outcome.record.events_sha256 == record.events_sha256
