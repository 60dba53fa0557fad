"""A seat's view: what one viewer (a seat, or a spectator) is sent, and whether to send it.

Every game's state message is put together here, from what the game lets that viewer know (its
observation, its views of the events, its legal actions) and what the server knows of the table
(the seats' statuses, the clock, the rematch), so there is one place that decides what leaves
the server. Each game's own file (``wire/<game>.py``) names its types and its parts; this module
holds what every game shares. The server sends these messages, the browser draws them, and the
terminal's prompt reads the same (``cli/session.py``).

Who is asked in a defence or block window is a secret of the asked seat: its observation alone
shows it. So a viewer is sent a message only when its own view changed (:func:`stable`), its
clock shows only the decision its observation shows, and a window's decisions never draw on a
time bank (:mod:`apokalypse.server.games`).
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, NotRequired, Protocol, TypeVar

from typing_extensions import ReadOnly, TypedDict

from apokalypse.engine.events import Event, EventView
from apokalypse.engine.protocol import ActionValue, GameState
from apokalypse.i18n import seat_names, text
from apokalypse.i18n.texts import Texts

from .coach import CoachView, coach_refusal
from .tutorial import TutorialView

# Raised whenever a message changes shape (the browser's types are generated from the same schema).
WIRE_VERSION = 5

A = TypeVar("A", bound=ActionValue)  # the game's action
O = TypeVar("O", bound=Mapping[str, object])  # the game's observation  # noqa: E741
L = TypeVar("L", bound=Mapping[str, object])  # the game's legal action with its parts
F = TypeVar("F")  # the game's forecast (None for a game without one)
C = TypeVar("C", bound=Mapping[str, object])  # the game's card facts
E = TypeVar("E", bound="EventMessage")  # the game's events: a union of Told, one per kind


class EventMessage(TypedDict):
    """A player's view of one event (:meth:`apokalypse.engine.events.EventView.to_json`), of
    any game (each game's ``events`` module types every kind's arguments: ``Told``)."""

    kind: ReadOnly[str]
    args: ReadOnly[Mapping[str, object]]
    seen: ReadOnly[bool]  # True when args include the event's secret part (this player may know it)


class SeatKind(TypedDict):
    seat: int
    kind: str  # "human" or a computer player's name


class SeatStatus(SeatKind):
    name: str | None  # the name its person chose (None: none chosen, or a computer seat)
    connected: bool  # its person has the game open (on this server process)
    away: bool  # a computer player plays it for its person, who left or ran out of time


class Sentences(TypedDict):
    """The same sentences the terminal shows, in the game's language."""

    log: list[str]  # a line per event of this message (some events have none)
    # for each line of ``log``, the index in ``events`` of the event it tells (the first of a
    # run it sums up, such as a deal), so that a line can point at the cards it moved
    log_events: list[int]
    question: str  # the decision this seat faces ("" when it faces none)
    choices: list[str]  # what each of ``legal`` does, in the same order


class Deciding(TypedDict):
    """The decision being timed, shown only to a viewer whose observation shows who decides."""

    seat: int
    turn_ms: int  # the decision's own time left when the message was sent
    remaining_ms: int  # with the time bank: when it is spent, a computer player takes over


class ClockView(TypedDict):
    turn_s: float  # the time for each decision before the bank is drawn on
    bank_ms: int | None  # the viewer's own time bank (None: a spectator)
    deciding: Deciding | None


class SeatLink(SeatKind):
    token: NotRequired[str]  # a person's seat: the key of its secret invite link
    url: NotRequired[str]  # a person's seat: that link, absolute (``<base>/games/<id>?token=…``)


class Created(TypedDict):
    """``POST /api/games``: the new game, and the key of each person's seat (only here). The
    links are the server's (:mod:`apokalypse.server.reach`): the address friends can open, not
    necessarily the one the creator's browser is at."""

    id: str
    seats: list[SeatLink]
    watch: str  # the spectator link, absolute
    # The base every link above is under, and the others the host may choose instead (this
    # machine's other networks, the address the lobby was opened at): the page rewrites the
    # links under the chosen one. Empty where an operator set the public address.
    address: str
    addresses: list[str]


class SummarySeat(SeatKind):
    name: str | None  # the name its person chose (None: none chosen, or a computer seat)


class Summary(TypedDict):
    """``GET /api/games/{id}``: what anybody may know of a game, no token needed. ``move`` is
    the public observation's, frozen in a window like it; the seed only once it is over."""

    id: str
    game: str
    players: int
    seats: list[SummarySeat]
    lang: str
    move: int
    over: bool
    result: dict[str, object] | None
    seed: NotRequired[int]
    tutorial: NotRequired[bool]  # the guided game ("Learn to play"): its page shows the coach


class VariantChoice(TypedDict):
    id: str  # the variant's name, as ``POST /api/games`` takes it
    label: str


class GameChoice(TypedDict):
    name: str  # the registry's name
    title: str
    players: tuple[int, int]  # fewest and most
    variants: list[VariantChoice]


class SeatChoice(TypedDict):
    kind: str  # "human" or a computer player's name, as ``POST /api/games`` takes it
    label: str
    group: str | None  # the heading it is listed under (None: the first choices, unheaded)
    about: str | None  # a level's one line of what it is and what was measured (None: none)


class Catalog(TypedDict):
    """``GET /api/catalog?lang=``: the games a lobby offers and who may sit at them, in one
    language, so that the browser holds no copy of a game's facts."""

    games: list[GameChoice]
    seats: list[SeatChoice]


class Rematch(TypedDict):
    id: str  # the new game: the same invite key opens the same seat there


class StateMessage(TypedDict, Generic[O, L, F, C, E]):
    """A seat's (or a spectator's) view, sent when it changed. Made once and never changed
    (``ReadOnly``: a game's message is then also a message of any game, for the server)."""

    type: Literal["state"]
    wire: int
    seat: int | None  # the viewer; None: a spectator
    names: list[str]  # each seat's name as this viewer reads it
    seats: list[SeatStatus]
    observation: ReadOnly[O]
    # Since the connection's last message, in its view. A tuple, not a Sequence: pydantic writes
    # a Sequence three times slower, and a message is written once per push for every viewer.
    events: ReadOnly[tuple[E, ...]]
    legal: ReadOnly[Sequence[L]]  # the actions this viewer may send now: notation and parts
    text: Sentences
    cards: ReadOnly[Mapping[str, C] | None]  # in a connection's first message, else None
    forecast: ReadOnly[F]
    clock: ClockView | None
    rematch: Rematch | None
    # The viewer's own setting: whether the server answers for it a window's question it
    # cannot but decline (None: a spectator). Nobody else is told it.
    auto: bool | None
    # Whether the viewer may ask the coach ("what would the expert do?"), and why not (None: a
    # spectator). Its own only (:mod:`.coach`).
    coach: CoachView | None
    # A guided game's coach: its lessons and the move it suggests, for the learner's seat only
    # (None for every other viewer and in every other game; :mod:`.tutorial`).
    tutorial: TutorialView | None


@dataclass(frozen=True)
class ClockReading:
    """The server's turn timer at one moment (seconds)."""

    turn: float
    banks: Sequence[float]  # each seat's time bank
    seat: int | None  # the person deciding, if one is timed
    turn_left: float  # the decision's own time left
    remaining: float  # with the bank


@dataclass(frozen=True)
class Table:
    """What the server knows of a game beyond its state."""

    kinds: Sequence[str]  # each seat's: "human" or a computer player's name
    connected: frozenset[int]  # seats whose person has the game open here
    away: frozenset[int]  # people's seats a computer plays for now
    rematch: str | None  # the rematch's id, once somebody asked
    lang: str
    clock: ClockReading | None = None
    manual: frozenset[int] = frozenset()  # people who answer forced questions themselves
    names: Sequence[str | None] = ()  # each seat's chosen name (None: none chosen)
    coach_offered: bool = False  # the creator offered the coach to every person (:mod:`.coach`)
    coach_agreed: frozenset[int] = frozenset()  # the people who agreed to it
    # A guided game's learner seat and its coach's view, worked out by the server from that
    # seat's own observations (:mod:`.tutorial`); None in every other game.
    tutorial: tuple[int, TutorialView] | None = None


def clock_view(table: Table, seat: int | None, shown: int | None) -> ClockView | None:
    """The clock as ``seat`` may know it: its own bank, and the deciding seat's time only when
    its observation shows ``shown`` deciding (in a window, nobody but the seat asked learns who
    is asked, R-INFO-3)."""
    clock = table.clock
    if clock is None:
        return None
    deciding: Deciding | None = None
    if clock.seat is not None and clock.seat == shown:
        deciding = {
            "seat": clock.seat,
            "turn_ms": round(clock.turn_left * 1000),
            "remaining_ms": round(clock.remaining * 1000),
        }
    bank = None if seat is None else round(clock.banks[seat] * 1000)
    return {"turn_s": clock.turn, "bank_ms": bank, "deciding": deciding}


def state_message(
    state: GameState[A, O],
    seat: int | None,
    events: Sequence[Event],
    texts: Texts[A, O],
    table: Table,
    legal: Callable[[A], L],
    forecast: F,
    cards: Mapping[str, C] | None,
    told: Callable[[EventView], E],
) -> StateMessage[O, L, F, C, E]:
    """The state message of ``seat`` (None: a spectator) with ``events``, the news since its
    last message. Only views leave: ``event.view(seat)``, the viewer's observation, the legal
    actions only of the seat to act, sentences rendered from those alone."""
    observation = state.observation(seat)
    shown = observation.get("to_act")  # who decides, as the viewer's observation shows it
    deciding = not state.is_over and seat is not None and shown == seat
    actions = list(state.legal_actions()) if deciding else []
    views: list[EventView] = [event.view(seat) for event in events]
    names = seat_names(len(table.kinds), seat, table.lang, table.names, table.kinds)
    lines = texts.render_indexed(views, names)
    message: StateMessage[O, L, F, C, E] = {
        "type": "state",
        "wire": WIRE_VERSION,
        "seat": seat,
        "names": names,
        "seats": [
            {
                "seat": q,
                "kind": kind,
                "name": table.names[q] if q < len(table.names) else None,
                "connected": q in table.connected,
                "away": q in table.away,
            }
            for q, kind in enumerate(table.kinds)
        ],
        "observation": observation,
        "events": tuple(told(view) for view in views),
        "legal": [legal(action) for action in actions],
        "text": {
            "log": [line for _, line in lines],
            "log_events": [index for index, _ in lines],
            "question": texts.decision_text(seat, observation, names)
            if deciding and seat is not None
            else "",
            "choices": [texts.render_action(a, observation, names) for a in actions],
        },
        "forecast": forecast,
        "clock": clock_view(table, seat, shown if isinstance(shown, int) else None),
        "rematch": {"id": table.rematch} if table.rematch is not None else None,
        "cards": dict(cards) if cards is not None else None,
        "auto": None if seat is None else seat not in table.manual,
        "coach": coach_view(table, seat),
        "tutorial": table.tutorial[1]
        if table.tutorial is not None and seat == table.tutorial[0]
        else None,
    }
    return message


def coach_view(table: Table, seat: int | None) -> CoachView | None:
    """The coach as ``seat`` may know it (None: a spectator): available or why not."""
    if seat is None:
        return None
    offered, agreed = table.coach_offered, table.coach_agreed
    refusal = coach_refusal(table.kinds, seat, offered, agreed)
    return {
        "available": refusal is None,
        "offered": offered,
        "agreed": seat in agreed,
        "reason": None if refusal is None else text(f"server.{refusal}", table.lang),
    }


class LegalAction(TypedDict):
    """What every game's legal action holds (each game's ``ActionParts`` has its parts too)."""

    text: ReadOnly[str]  # the notation: what a client sends back
    verb: ReadOnly[str]


# What the server sends, for any game: each game's own file types it exactly.
WireState = StateMessage[
    Mapping[str, object], LegalAction, object, Mapping[str, object], EventMessage
]


class SeatViews(Protocol):
    """A game's seat views (:class:`GameViews`, made by ``wire/<game>.py``), for any game."""

    def view(
        self,
        state: GameState,
        viewer: int | None,
        events: Sequence[Event],
        table: Table,
        first: bool,
    ) -> WireState: ...


class GameViews(Generic[A, O, L, F, C, E]):
    """The state messages of one game in progress, for any viewer: ``wire/<game>.py`` makes it
    from the game's texts and names its parts (``legal``: an action with its parts;
    ``forecast``: what the board shows beside the public observation; ``cards``: the card
    facts of the game's deck)."""

    def __init__(
        self,
        texts: Texts[A, O],
        legal: Callable[[A], L],
        forecast: Callable[[O], F],
        cards: Callable[[], Mapping[str, C]],
        told: Callable[[EventView], E],
    ) -> None:
        self.texts, self.legal, self._forecast_of, self.cards = texts, legal, forecast, cards
        self.told = told
        self._forecast: tuple[int, F] | None = None

    def forecast(self, state: GameState[A, O]) -> F:
        """The forecast of the public observation (the same for everybody, frozen with it in a
        window), made once per move."""
        made = self._forecast
        if made is None or made[0] != state.move:
            made = self._forecast = (state.move, self._forecast_of(state.observation(None)))
        return made[1]

    def view(
        self,
        state: GameState[A, O],
        viewer: int | None,
        events: Sequence[Event],
        table: Table,
        first: bool,
    ) -> StateMessage[O, L, F, C, E]:
        """The state message of ``viewer`` with ``events``, the news since its last message
        (``first``: a connection's first message, with the card facts)."""
        cards = self.cards() if first else None
        forecast = self.forecast(state)
        return state_message(
            state, viewer, events, self.texts, table, self.legal, forecast, cards, self.told
        )


# What a message says (:func:`stable`): its JSON-ready parts packed into bytes, and its forecast.
Stable = tuple[bytes, object]


def stable(message: StateMessage[O, L, F, C, E]) -> Stable:
    """What a message says apart from its news and the passing of time: two messages of a
    connection with the same form and no events in the second say the same, and the second is
    not sent (each message sent is news, so one that is not would tell the viewer that
    something it may not see happened, such as a hidden answer in a window).

    A connection keeps what its last message said until the next, for as long as it is open;
    kept as the viewer's observation, legal actions and seats themselves, that was a few hundred
    containers per connection, made again at every move, which the cyclic collector walked until
    they died (hundreds of thousands under load, pauses of 50-130 ms). Packed by :mod:`marshal`
    (format 0: no shared references and no interning marks, so that equal parts built by the
    same code pack to equal bytes), it is one bytes object the collector never walks. The
    forecast, a frozen dataclass made once per move for every viewer, is kept as itself."""
    clock = message["clock"]
    timed: object = None
    if clock is not None:
        deciding = clock["deciding"]
        # Who decides, not the time left now (the decision itself is in the observation).
        timed = (clock["bank_ms"], None if deciding is None else deciding["seat"])
    parts = (
        message["seat"],
        message["names"],
        message["seats"],
        message["observation"],
        message["legal"],
        message["text"]["question"],
        timed,
        message["rematch"],
        message["auto"],
        message["coach"],
        message["tutorial"],
    )
    return _packed(parts), message["forecast"]


def _packed(parts: tuple[object, ...]) -> bytes:
    # marshal packs JSON-ready data and raises on anything else (the forecast, a dataclass, is
    # kept apart for that); typeshed's type of what it takes knows no TypedDict.
    return marshal.dumps(parts, 0)  # type: ignore[arg-type]
