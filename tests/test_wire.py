"""The wire schema (``apokalypse.wire``): made from the games' own types, kept current in
``schema/``, and every message of random games of every game fits it exactly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from apokalypse.engine.registry import game_names, get_game
from apokalypse.engine.rng import Rng
from apokalypse.wire import (
    WIRE_VERSION,
    ActionMessage,
    check_event,
    check_observation,
    read_client_message,
    schema,
    schema_text,
    write_schemas,
)

SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schema"
VARIANTS = {
    "apokalypse": [[], ["ethos-balanced", "good-team"]],
    "apokerlypse": [[], ["short-table"]],
}


def random_states(name: str, games: int) -> Iterator[tuple[Any, list[Any], int]]:
    """(state, the events that led to it, players) after every step of seeded random games."""
    game = get_game(name)
    low, high = game.players
    for seed in range(games):
        players = low + seed % (high - low + 1)
        variants = VARIANTS[name][seed % len(VARIANTS[name])]
        state = game.new_game(game.config_from_options(players, variants, None), seed)
        rng = Rng(seed)
        events = list(state.opening)
        while True:
            yield state, events, players
            if state.is_over:
                break
            events = state.apply(rng.choice(list(state.legal_actions())))


@pytest.mark.parametrize("name", game_names())
def test_the_schema_files_are_current(name: str):
    path = SCHEMA_DIR / f"{name}.schema.json"
    assert path.is_file(), f"{path} is missing: python -m apokalypse.wire schema"
    assert path.read_text("utf-8") == schema_text(name), "regenerate: python -m apokalypse.wire"


@pytest.mark.parametrize("name", game_names())
def test_the_schema_names_its_version_and_its_messages(name: str):
    document = schema(name)
    assert document["version"] == WIRE_VERSION and document["game"] == name
    assert set(document["properties"]) == {
        *("observation", "event", "action"),  # the parts
        *("client", "state", "refused", "why", "talk", "advice"),  # the messages
        "rules",  # the rules help (GET /api/rules/{game})
        "server",  # every message the server sends, one union told apart by its type
    }
    union = document["properties"]["server"]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) == {"state", "refused", "why", "talk", "advice"}
    assert union["discriminator"]["mapping"]["state"] == "#/$defs/StateMessage"
    assert {"Rulebook", "Section", "Paragraph", "Items", "CardHelp"} <= set(document["$defs"])
    observation = document["$defs"]["Observation"]
    assert {"seat", "players", "move", "to_act", "decision"} <= set(observation["properties"])
    state = document["$defs"]["StateMessage"]
    assert state["properties"]["observation"] == {"$ref": "#/$defs/Observation"}
    assert {"cards", "forecast"} <= set(state["required"])  # cards: None but in the first
    forecast = state["properties"]["forecast"]
    if name == "apokalypse":  # the forecast's own type, down to each side's dead
        assert {"$ref": "#/$defs/Forecast"} in forecast["anyOf"]
        assert "dead" in document["$defs"]["SideForecast"]["properties"]
        assert "score" in document["$defs"]["Strike"]["properties"]
    else:
        assert forecast["type"] == "null"


def test_client_messages_are_checked_against_their_schema():
    action = read_client_message({"action": "pass", "move": 3})  # "type" may be left out
    assert isinstance(action, ActionMessage) and (action.action, action.move) == ("pass", 3)
    assert read_client_message({"type": "leave"}).type == "leave"
    assert read_client_message({"type": "name", "name": "Ann"}).type == "name"
    assert read_client_message({"type": "say", "text": "gg"}).type == "say"
    bad: list[object] = [
        None,
        [],
        "pass",
        {"action": "pass"},  # no move
        {"action": "pass", "move": "3"},  # strict: no text for a number
        {"action": "pass", "move": -1},
        {"action": "pass", "move": 3, "seat": 2},  # nothing undeclared
        {"action": "x" * 201, "move": 3},
        {"type": "surrender"},
        {"type": "leave", "seat": 1},
        {"type": "name"},  # no name
        {"type": "name", "name": 7},
        {"type": "say", "text": "x" * 2001},
        {"type": "say", "text": "hi", "channel": "players"},  # the channel is not the sender's
    ]
    for message in bad:
        with pytest.raises(ValidationError):
            read_client_message(message)


def test_write_schemas_writes_every_game(tmp_path: Path):
    written = write_schemas(tmp_path / "out")
    assert sorted(p.name for p in written) == [f"{g}.schema.json" for g in game_names()]
    assert json.loads(written[0].read_text("utf-8"))["version"] == WIRE_VERSION


@pytest.mark.parametrize("name", game_names())
def test_every_message_of_random_games_fits_the_schema(name: str):
    steps = 0
    for state, events, players in random_states(name, 4):
        for viewer in [None, *range(players)]:
            check_observation(name, state.observation(viewer))
            for event in events:
                check_event(name, event.view(viewer).to_json())
        steps += 1
    assert steps > 100


def test_an_observation_that_differs_from_its_type_is_refused():
    state = get_game("apokalypse").new_game(
        get_game("apokalypse").config_from_options(3, [], None), 1
    )
    good = state.observation(0)
    check_observation("apokalypse", good)
    with pytest.raises(ValueError, match="undeclared keys"):
        check_observation("apokalypse", {**good, "secret": {"card": "m/hp"}})
    with pytest.raises(ValidationError):
        check_observation("apokalypse", {**good, "move": "7"})  # strict: no text for a number
    missing = dict(good)
    del missing["players"]
    with pytest.raises(ValidationError):
        check_observation("apokalypse", missing)
