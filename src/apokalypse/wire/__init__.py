"""The wire format: what a server sends a player and what it accepts, for every game, as a
versioned JSON Schema made from the games' own types (never written twice by hand).

- **observation**: what one seat (or a spectator) may know now, the game's own ``Observation``
  (``games/<game>/observation.py``), as ``state.observation(seat)`` returns it.
- **event**: a player's view of one event, ``event.view(seat).to_json()``: its ``kind``, its
  ``args`` (the secret part merged in only for the players allowed to see it) and ``seen``. The
  raw event, secret and all, never goes on the wire.
- **action**: the action's text notation, the one ``parse_action`` reads, with the ``move`` of
  the observation it answers, so that a stale or repeated action is refused.
- **client**: every message a client may send: an action, or ``leave`` / ``reclaim`` (a
  computer player takes my seat / I take it back) and ``rematch``.
- **state** and **refused**: every message the server sends: a seat's whole view after each
  change (observation, new events, legal actions and their wording, the seats' statuses, the
  forecast, the clock, the rematch), or why an action changed nothing.

``schema(game)`` is the whole format of one game; ``python -m apokalypse.wire DIR`` writes every
game's into ``DIR/<game>.schema.json`` (the repository keeps them in ``schema/``, and a test
checks they are current). ``check_observation`` validates one observation against its type.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from typing_extensions import TypedDict

from apokalypse.engine.registry import game_names, get_game

# Raised whenever a message changes shape: a client checks it before it reads anything else.
WIRE_VERSION = 1


class EventMessage(TypedDict):
    """A player's view of one event (:meth:`apokalypse.engine.events.EventView.to_json`)."""

    kind: str
    args: dict[str, Any]
    seen: bool  # True when args include the event's secret part (this player may know it)


class ActionMessage(BaseModel):
    """An action a player sends: its notation, and the move of the observation it answers
    (``type`` may be left out)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["action"] = "action"
    action: str = Field(max_length=200)
    move: int = Field(ge=0)


class SeatMessage(BaseModel):
    """``leave``: a computer player takes my seat (I stay and watch); ``reclaim``: I take it
    back; ``rematch``: once the game is over, the same seats and settings again."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["leave", "reclaim", "rematch"]


ClientMessage = Annotated[ActionMessage | SeatMessage, Field(discriminator="type")]
_client = TypeAdapter[ActionMessage | SeatMessage](ClientMessage)


def read_client_message(data: object) -> ActionMessage | SeatMessage:
    """A client's message (parsed JSON) checked against its schema; a
    :class:`pydantic.ValidationError` names what is wrong."""
    if isinstance(data, dict) and "type" not in data:
        data = {**data, "type": "action"}
    return _client.validate_python(data)


class SeatStatus(TypedDict):
    seat: int
    kind: str  # "human" or a computer player's name
    connected: bool  # its person has the game open (on this server process)
    away: bool  # a computer player plays it for its person, who left or ran out of time


class Texts(TypedDict):
    """The same sentences the terminal shows, in the game's language."""

    log: list[str]  # a line per event of this message (some events have none)
    question: str  # the decision this seat faces ("" when it faces none)
    choices: list[str]  # what each of ``legal`` does, in the same order


class Clock(TypedDict):
    seat: int  # the person deciding
    remaining_ms: int  # their time left (turn and bank) when the message was sent
    bank_ms: list[int]  # each seat's time bank
    turn_s: float  # the time for each decision before the bank is drawn on


class Rematch(TypedDict):
    id: str  # the new game: the same invite key opens the same seat there


def state_message(observation: Any, forecast: Any, cards: Any) -> type:
    """A game's state message type: a seat's (or a spectator's) view after every change."""
    return TypedDict(  # type: ignore[operator,no-any-return]
        "StateMessage",
        {
            "type": Literal["state"],
            "wire": int,
            "seat": int | None,  # the viewer; None: a spectator
            "names": list[str],  # each seat's name as this viewer reads it
            "seats": list[SeatStatus],
            "observation": observation,
            "events": list[EventMessage],  # since the connection's last message, in its view
            "legal": list[str],  # the actions this viewer may send now (notation)
            "text": Texts,
            "cards": NotRequired[dict[str, cards]],  # in a connection's first message
            "forecast": None if forecast is None else forecast | None,
            "clock": Clock | None,
            "rematch": Rematch | None,
        },
    )


class RefusedMessage(TypedDict):
    """A client's message that changed nothing, and why (with the rule id when the rules
    refused it)."""

    type: Literal["refused"]
    wire: int
    reason: str
    rule: NotRequired[str]


def observation_type(game: str) -> type:
    """The game's observation type (each game package exports ``Observation``)."""
    get_game(game)  # an unknown name is a ConfigError naming the known ones
    observation: type = import_module(f"apokalypse.games.{game}").Observation
    return observation


def forecast_type(game: str) -> type | None:
    """The type of the game's forecast (a game package's ``Forecast``), if it has one."""
    get_game(game)
    forecast: type | None = getattr(import_module(f"apokalypse.games.{game}"), "Forecast", None)
    return forecast


@cache
def _adapter(game: str) -> TypeAdapter[Any]:
    return TypeAdapter(observation_type(game))


@cache
def state_adapter(game: str) -> TypeAdapter[Any]:
    """The game's state message type, for validating what the server sends."""
    forecast = forecast_type(game)
    cards = import_module(f"apokalypse.i18n.{game}.texts").CardFacts
    return TypeAdapter(state_message(observation_type(game), forecast, cards))


def schema(game: str) -> dict[str, Any]:
    """The wire format of ``game`` as one JSON Schema document (draft 2020-12)."""
    parts = {
        "observation": _adapter(game),
        "event": TypeAdapter(EventMessage),
        "action": TypeAdapter(ActionMessage),
        "client": _client,
        "state": state_adapter(game),
        "refused": TypeAdapter(RefusedMessage),
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
