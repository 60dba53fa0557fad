"""A record's digest covers what defines the game (game, version, config, seed) as well as every
event, so ``replay --verify`` notices a changed config even where the events come out equal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from apokalypse.bots.random_bot import RandomBot
from apokalypse.cli.replay import _difference
from apokalypse.engine.match import Match, play_out
from apokalypse.engine.record import EventDigest, GameRecord
from apokalypse.engine.registry import get_game


def finished(game_name: str, variants: list[str], seed: int = 4) -> GameRecord:
    game = get_game(game_name)
    config = game.config_from_options(3, variants, None)
    record = GameRecord(game.name, game.version, config.to_json(), seed)
    state = game.new_game(config, seed)
    out: Match[Any, Any] = play_out(
        state, [RandomBot(seed + q) for q in range(3)], record.start_digest(state.opening)
    )
    record.actions = out.actions
    record.events_sha256 = out.digest.hexdigest()
    assert state.result is not None
    record.result = state.result.to_json()
    return record


def tampered(record: GameRecord, **changes: object) -> GameRecord:
    data: dict[str, Any] = record.to_json()  # a record's JSON, to be spoilt
    for key, value in changes.items():
        if key == "variants":
            data["config"]["variants"] = value
        elif key == "bonus_cap":
            data["config"]["bonus_cap"] = value
        else:
            data[key] = value
    return GameRecord.from_json(json.loads(json.dumps(data)))


@pytest.mark.parametrize("added", ["V-EDITION-2008", "V-GOOD-TEAM", "V-ETHOS-ORPHANS"])
def test_an_added_apokalypse_variant_is_noticed(added: str):
    """These variants decide only the winner (or act only after an Ethos change): a random game
    often plays out to the same events with or without them."""
    record = finished("apokalypse", [])
    assert _difference(record) is None
    assert _difference(tampered(record, variants=[added])) is not None


def test_a_changed_version_is_noticed():
    record = finished("apokalypse", [])
    assert _difference(tampered(record, version="0")) is not None


def test_an_apokerlypse_bonus_cap_is_noticed():
    record = finished("apokerlypse", [])
    assert record.config["bonus_cap"] is False
    assert _difference(tampered(record, bonus_cap=True)) is not None


def test_the_opening_is_in_the_digest_from_format_3():
    """Apokerlypse deals and takes round 1's payments inside new_game: those events come out of
    the protocol (``state.opening``) and, from record format 3, the digest covers them."""
    record = finished("apokerlypse", [])
    assert record.format == 3
    game = get_game(record.game)
    state = game.new_game(game.config_from_json(record.config), record.seed)
    assert state.opening and state.opening[0].kind == "round-start"
    digest = EventDigest.of(record.game, record.version, record.config, record.seed)
    digest.add(list(state.opening))
    without = EventDigest.of(record.game, record.version, record.config, record.seed)
    for text in record.actions:
        events = state.apply(game.parse_action(text))
        digest.add(events)
        without.add(events)
    assert digest.hexdigest() == record.events_sha256 != without.hexdigest()
    # a record of format 2 (no opening in its digest) still replays and verifies
    legacy = tampered(record, format=2, events_sha256=without.hexdigest())
    assert _difference(legacy) is None
    assert _difference(tampered(record, format=2)) is not None


def test_records_of_format_1_still_verify():
    """Format 1 digested the events only; such a record still replays and verifies."""
    record = finished("apokalypse", [])
    old = EventDigest()
    game = get_game(record.game)
    state = game.new_game(game.config_from_json(record.config), record.seed)
    for text in record.actions:
        old.add(state.apply(game.parse_action(text)))
    legacy = tampered(record, format=1, events_sha256=old.hexdigest())
    assert legacy.format == 1
    assert _difference(legacy) is None


def test_replay_verify_exits_non_zero_for_a_changed_config(tmp_path: Path):
    path = tmp_path / "game.json"
    tampered(finished("apokalypse", []), variants=["V-GOOD-TEAM"]).save(path)
    run = subprocess.run(
        [sys.executable, "-m", "apokalypse.cli.main", "replay", str(path), "--verify"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 1, run.stdout
    assert "events digest" in run.stderr
