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
  computer player takes my seat / I take it back), ``rematch``, ``auto`` (whether the
  server answers for me a window's question I cannot but decline), ``name`` (what I am called)
  and ``say`` (a line of table talk, :mod:`.talk`); ``why``: would this action be refused now,
  and why (answered to the asking connection only, by **why**, and changing nothing);
  ``advise`` and ``coach`` (the coach, :mod:`.coach`); ``lesson``: a guided game's learner
  read the lesson shown and opens the next (:mod:`.tutorial`).
- **state** and **refused**: every message the server sends: a seat's whole view whenever it
  changed (observation, new events, legal actions with their parts and wording, the seats'
  statuses, the forecast, the clock, the rematch, a guided game's coach for its learner),
  decided for each game in one file (the ``wire`` module its registry entry names,
  ``wire/<game>.py``, on :mod:`.seat`), or why an action changed nothing.
- **talk**: lines of table talk a connection may read (:func:`.talk.may_read`).
- **rules**: the rules help of ``GET /api/rules/{game}`` (:class:`..i18n.rulebook.Rulebook`):
  sections of paragraphs and lists, every card, and one card's help.
- **advice**: the coach's answer to ``advise``, for the asking connection only (:mod:`.coach`).
- **server**: every message the server sends, one union told apart by ``type`` (``state``,
  ``refused``, ``why``, ``talk``, ``advice``): a client reads one type. The server sends them
  all through one function (``server/outbox.py``).

``schema(game)`` is the whole format of one game; ``python -m apokalypse.wire DIR`` writes every
game's into ``DIR/<game>.schema.json`` (the repository keeps them in ``schema/``, and a test
checks they are current). ``check_observation`` validates one observation against its type,
``check_event`` one event's view against its kind's.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Annotated, Literal, NotRequired, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic.json_schema import JsonSchemaMode, JsonSchemaValue
from typing_extensions import TypedDict

from apokalypse.engine.erased import Erased
from apokalypse.engine.registry import game_names, part
from apokalypse.i18n.rulebook import Rulebook
from apokalypse.i18n.texts import Texts

from . import seat
from .coach import AdviceMessage as AdviceMessage
from .coach import AdviseMessage as AdviseMessage
from .coach import CoachMessage as CoachMessage
from .seat import WIRE_VERSION as WIRE_VERSION
from .seat import EventMessage as EventMessage
from .seat import SeatViews, WireState
from .talk import NameMessage as NameMessage
from .talk import SayMessage as SayMessage
from .talk import TalkMessage as TalkMessage
from .tutorial import LessonMessage as LessonMessage


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


class AutoMessage(BaseModel):
    """``auto``: whether the server answers for me a defence (block) window's question I
    cannot but decline (``on``, the default), or leaves it to me."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["auto"]
    on: bool


class WhyMessage(BaseModel):
    """``why``: would this action (its notation) be refused now, and why? Asked about the
    observation of ``move``, like an action; it changes nothing and is answered to the asking
    connection only (:class:`WhyAnswer`)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["why"]
    action: str = Field(max_length=200)
    move: int = Field(ge=0)


Request = (
    ActionMessage
    | SeatMessage
    | AutoMessage
    | NameMessage
    | SayMessage
    | WhyMessage
    | AdviseMessage
    | CoachMessage
    | LessonMessage
)
ClientMessage = Annotated[Request, Field(discriminator="type")]
_client = TypeAdapter[Request](ClientMessage)


def read_client_message(data: object) -> Request:
    """A client's message (parsed JSON) checked against its schema; a
    :class:`pydantic.ValidationError` names what is wrong."""
    if isinstance(data, dict) and "type" not in data:
        data = {**data, "type": "action"}
    return _client.validate_python(data)


class RefusedMessage(TypedDict):
    """A client's message that changed nothing, and why (with the rule id when the rules
    refused it)."""

    type: Literal["refused"]
    wire: int
    reason: str
    rule: NotRequired[str]


class WhyAnswer(TypedDict):
    """The answer to a ``why``, for the asking connection only: the action and move asked
    about, whether the action would be carried out now (``allowed``), and the reason (the
    refusal's own text and rule id, exactly as a refused action would be told; or that it is
    allowed)."""

    type: Literal["why"]
    wire: int
    action: str
    move: int
    allowed: bool
    reason: str
    rule: NotRequired[str]


# Every message the server sends but the state: one union, told apart by ``type``.
Reply = Annotated[
    RefusedMessage | WhyAnswer | TalkMessage | AdviceMessage, Field(discriminator="type")
]
_replies: TypeAdapter[Reply] = TypeAdapter(Reply)


def dump_reply(message: Reply) -> str:
    """A reply as it goes on the wire (the one serialiser of every message but the state,
    which each game's :func:`state_adapter` writes once per push for every viewer alike)."""
    return _replies.dump_json(message).decode()


def views(game: str) -> ModuleType:
    """The module that decides what a viewer of ``game`` is sent (its registry entry's
    ``wire``, ``wire/<game>.py``); an unknown name is a ConfigError naming the known ones."""
    found = part(game, "wire")
    if not isinstance(found, ModuleType):
        raise TypeError(f"{game}'s wire format is not a module: {found!r}")
    return found


def seat_views(game: str, texts: Texts[Erased, Erased]) -> SeatViews:
    """The seat views of ``game`` (a registry name), speaking through ``texts``."""
    made: SeatViews = views(game).seat_views(texts)
    return made


@cache
def _adapter(game: str) -> TypeAdapter[Mapping[str, object]]:
    return TypeAdapter(views(game).Observation)


@cache
def state_adapter(game: str) -> TypeAdapter[WireState]:
    """The writer of the game's state messages: the server's (``connection.Made``) and the
    replays'. It writes each event as the mapping it is. What each kind holds is the game's
    event union (the schema, :func:`server_adapter`, :func:`check_event`), which the tests hold
    every sent event to; writing the events through its member types took three times as long.
    """
    parts = get_args(views(game).StateMessage)
    # The game's own state message with plain events: a type made at run time (see below).
    written: object = seat.StateMessage[parts[0], parts[1], parts[2], parts[3], EventMessage]  # type: ignore[valid-type]
    with warnings.catch_warnings(action="ignore", category=UserWarning):
        # pydantic says it does not keep ReadOnly items from being changed: nor need it, a
        # message is made once and sent (seat.StateMessage).
        adapter: TypeAdapter[WireState] = TypeAdapter(written)  # type: ignore[arg-type]
    return adapter


@cache
def _typed_state(game: str) -> TypeAdapter[WireState]:
    """The game's state message with its event union: the schema's."""
    with warnings.catch_warnings(action="ignore", category=UserWarning):  # ReadOnly, as above
        adapter: TypeAdapter[WireState] = TypeAdapter(views(game).StateMessage)
    return adapter


# Every message a server sends (:func:`server_adapter`): the state (each game's own type,
# :data:`WireState` for any game) and the replies.
ServerMessage = WireState | RefusedMessage | WhyAnswer | TalkMessage | AdviceMessage


@cache
def server_adapter(game: str) -> TypeAdapter[ServerMessage]:
    """Every message a server of ``game`` sends, as one union told apart by ``type``: the
    state and the replies (:data:`Reply`)."""
    state = views(game).StateMessage  # a game's own, known once the game is
    # A type made at run time, for pydantic: to mypy an object, never the type form that
    # TypeAdapter's signature asks for (its static type is ServerMessage).
    union: object = Annotated[
        state | RefusedMessage | WhyAnswer | TalkMessage | AdviceMessage,
        Field(discriminator="type"),
    ]
    with warnings.catch_warnings(action="ignore", category=UserWarning):  # ReadOnly, as above
        adapter: TypeAdapter[ServerMessage] = TypeAdapter(union)  # type: ignore[arg-type]
    return adapter


def schema(game: str) -> JsonSchemaValue:
    """The wire format of ``game`` as one JSON Schema document (draft 2020-12)."""
    mode: JsonSchemaMode = "serialization"
    refs, top = TypeAdapter.json_schemas(
        [  # the schema's parts, each of its own type
            ("observation", mode, _adapter(game)),
            ("event", mode, _events(game)),
            ("action", mode, TypeAdapter(ActionMessage)),
            ("client", mode, _client),
            ("state", mode, _typed_state(game)),
            ("refused", mode, TypeAdapter(RefusedMessage)),
            ("why", mode, TypeAdapter(WhyAnswer)),
            ("talk", mode, TypeAdapter(TalkMessage)),
            ("rules", mode, TypeAdapter(Rulebook)),
            ("advice", mode, TypeAdapter(AdviceMessage)),
            ("server", mode, server_adapter(game)),
        ]
    )
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game} wire format, version {WIRE_VERSION}",
        "version": WIRE_VERSION,
        "game": game,
        "properties": {name: ref for (name, _), ref in refs.items()},
        "$defs": top["$defs"],
    }
    # The state message is the shared generic one (seat.StateMessage) made concrete for this
    # game, which pydantic names after its parameters: each game's schema names it plainly.
    concrete = next(name for name in top["$defs"] if name.startswith("StateMessage_"))
    text = json.dumps(document).replace(f'"#/$defs/{concrete}"', '"#/$defs/StateMessage"')
    renamed: JsonSchemaValue = json.loads(text)
    renamed["$defs"]["StateMessage"] = renamed["$defs"].pop(concrete)
    renamed["$defs"]["StateMessage"]["title"] = "StateMessage"
    return _name_events(renamed)


def _name_events(document: JsonSchemaValue) -> JsonSchemaValue:
    """Each kind of event (seat.Told made concrete, which pydantic names after its parameters)
    named after its kind: ``game-over``'s is ``GameOverEvent``."""
    names: dict[str, str] = {}
    for name, definition in document["$defs"].items():
        if name.startswith("Told_"):
            kind = definition["properties"]["kind"]["const"]
            names[name] = "".join(part.title() for part in kind.split("-")) + "Event"
    text = json.dumps(document)
    for old, new in names.items():
        text = text.replace(f'"#/$defs/{old}"', f'"#/$defs/{new}"')
    renamed: JsonSchemaValue = json.loads(text)
    for old, new in names.items():
        renamed["$defs"][new] = renamed["$defs"].pop(old)
        renamed["$defs"][new]["title"] = new
    # The union itself, once: the top-level ``event`` and the state message's events name it.
    union = renamed["properties"]["event"]
    renamed["$defs"]["Event"] = {**union, "title": "Event"}
    renamed["properties"]["event"] = {"$ref": "#/$defs/Event"}
    events = renamed["$defs"]["StateMessage"]["properties"]["events"]
    events["items"] = {"$ref": "#/$defs/Event"}
    return renamed


@cache
def _events(game: str) -> TypeAdapter[EventMessage]:
    """The game's events: one union told apart by ``kind`` (``wire/<game>.py``'s ``Event``)."""
    with warnings.catch_warnings(action="ignore", category=UserWarning):  # ReadOnly, as above
        adapter: TypeAdapter[EventMessage] = TypeAdapter(views(game).Event)
    return adapter


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


def check_event(game: str, view: object) -> None:
    """Raise :class:`pydantic.ValidationError` unless ``view`` (an event's view, as the wire
    carries it) is exactly of its kind's type in the game's event union: a kind the union names,
    no missing or extra argument, no other type."""
    text = json.dumps(view)
    validated = _events(game).validate_json(text, strict=True)
    sent = json.loads(text)
    if validated["args"] != sent["args"]:  # a TypedDict drops keys it does not declare
        extra = sorted(set(sent["args"]) - set(validated["args"]))
        raise ValueError(f"{game} event {sent['kind']!r} has undeclared arguments {extra}")


def write_schemas(folder: Path) -> list[Path]:
    """Write every game's schema into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game in game_names():
        path = folder / f"{game}.schema.json"
        path.write_text(schema_text(game), "utf-8")
        written.append(path)
    return written
