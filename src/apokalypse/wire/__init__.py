"""The wire format: what a server sends a player and what it accepts, for every game, as a
versioned JSON Schema made from the games' own types (never written twice by hand).

- **observation**: what one seat (or a spectator) may know now, the game's own ``Observation``
  (``games/<game>/observation.py``), as ``state.observation(seat)`` returns it.
- **event**: a player's view of one event, ``event.view(seat).to_json()``: its ``kind``, its
  ``args`` (the secret part merged in only for the players allowed to see it) and ``seen``. The
  raw event, secret and all, never goes on the wire.
- **action**: the action's text notation, the one ``parse_action`` reads, with the ``move`` of
  the observation it answers, so that a stale or repeated action is refused.

``schema(game)`` is the whole format of one game; ``python -m apokalypse.wire DIR`` writes every
game's into ``DIR/<game>.schema.json`` (the repository keeps them in ``schema/``, and a test
checks they are current). ``check_observation`` validates one observation against its type.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from typing_extensions import TypedDict

from apokalypse.engine.registry import game_names, get_game

# Raised whenever a message changes shape: a client checks it before it reads anything else.
WIRE_VERSION = 1


class EventMessage(TypedDict):
    """A player's view of one event (:meth:`apokalypse.engine.events.EventView.to_json`)."""

    kind: str
    args: dict[str, Any]
    seen: bool  # True when args include the event's secret part (this player may know it)


class ActionMessage(TypedDict):
    """An action a player sends: its notation, and the move of the observation it answers."""

    action: str
    move: int


def observation_type(game: str) -> type:
    """The game's observation type (each game package exports ``Observation``)."""
    get_game(game)  # an unknown name is a ConfigError naming the known ones
    observation: type = import_module(f"apokalypse.games.{game}").Observation
    return observation


@cache
def _adapter(game: str) -> TypeAdapter[Any]:
    return TypeAdapter(observation_type(game))


def schema(game: str) -> dict[str, Any]:
    """The wire format of ``game`` as one JSON Schema document (draft 2020-12)."""
    parts = {
        "observation": _adapter(game),
        "event": TypeAdapter(EventMessage),
        "action": TypeAdapter(ActionMessage),
    }
    refs, top = TypeAdapter.json_schemas(
        [(name, "serialization", adapter) for name, adapter in parts.items()]
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game} wire format, version {WIRE_VERSION}",
        "version": WIRE_VERSION,
        "game": game,
        "properties": {name: refs[name, "serialization"] for name in parts},
        "$defs": top["$defs"],
    }


def schema_text(game: str) -> str:
    return json.dumps(schema(game), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def check_observation(game: str, observation: object) -> None:
    """Raise :class:`pydantic.ValidationError` unless ``observation``, as the wire carries it
    (JSON), is exactly of the game's observation type: no missing or extra key, no other type."""
    text = json.dumps(observation)
    validated = _adapter(game).validate_json(text, strict=True)
    if validated != json.loads(text):  # a TypedDict drops keys it does not declare
        extra = set(json.loads(text)) - set(validated)
        raise ValueError(f"{game} observation has undeclared keys {sorted(extra)}")


def write_schemas(folder: Path) -> list[Path]:
    """Write every game's schema into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game in game_names():
        path = folder / f"{game}.schema.json"
        path.write_text(schema_text(game), "utf-8")
        written.append(path)
    return written
