"""Nothing leaks through the real server: many games, every seat a person's or a computer
player's, played to their end through ``apokalypse serve`` by clients over WebSockets (each
person's seat by a client with its own seat token, choosing at random among the ``legal``
actions it is sent, plus a spectator per game); every message every connection received, when
it arrived, and every public summary polled while the games ran are then checked against what
that connection (or anybody) may know.

The truth is rebuilt independently once a game is over: its seed is public then (``GET
/api/games/{id}``), its actions are in the server's database, and the engine replays them step
by step. For each message, at the state it was sent in:

- ``observation`` is ``state.observation(seat)`` (None for the spectator), ``events`` exactly the
  views ``event.view(seat).to_json()`` of the events since that connection's previous message,
  ``legal`` the engine's legal actions (notation and parts) for the seat to act and empty for
  everybody else;
- no message holds a raw event's ``secret`` or ``seen_by``, another seat's token, or the seed of
  a game not over yet; a spectator's holds no private field of any seat;
- the sentences (``text``) say no more than the viewer's own views: the log is what those views
  say with every hidden secret blanked out, and names no hidden card more often than they do;
  the question and the wording of the choices come from the viewer's own observation;
- the other fields: ``seat``, ``names`` (who is who, and which is "you": each seat's default
  name or the one its person chose, nothing else), ``seats`` (kinds and chosen names only),
  ``cards`` (the public card facts, in a connection's first message),
  ``forecast`` (that of the public observation), ``clock`` (none without a timer), ``rematch``
  (a token only for a seated viewer; every seat's key opens that very seat of the new game); a
  field the test does not know fails it until it is checked here too.

Table talk: every person names themselves and says a line, the spectator says lines all game
long in the spectators' channel; a player's connection is sent no spectator's line before the
message that shows the game over, and every line any connection is sent is one that was said, by
whom it says, in a channel that viewer may read.

Who is asked in a defence (or block) window is the asked seat's secret, and three channels
besides the messages' content could tell it (issue 20):

- **message presence**: every message a connection receives is news (it has events, or says
  something its previous one did not, apart from the time passing); in a window, a connection
  not asked is sent nothing between the window's opening and its end but what changed for it
  (a seat's connection status). Some games' people take their time (up to ``THINK`` seconds)
  before answering a window's question, so a message sent per hidden answer would arrive
  while they think;
- **summaries**: every ``GET /api/games/{id}`` and ``GET /api/games?ids=`` polled while the
  games ran reports a move some public observation shows, never a true move hidden in a window
  (polled again and again by a watcher of their own, once per message by each game's spectator,
  and by each person asked a window's question before they answer it: the window is open then,
  however fast or slow the machine);
- **clocks** (some games have a timer): a viewer sees its own bank only (None: a spectator), and
  it changes only when that viewer's own decision outside a window ended; the deciding seat's
  clock only where the viewer's observation shows that seat deciding, and in a window without
  a bank.

The clients keep a little inside the server's rate limit, as people do; the games' seeds are the
server's, so each run plays other games. A person asked a window's question they cannot but
decline leaves it to the server, which answers for them after a moment (their setting ``auto``,
on by default): every check above holds for those answers too, so nobody else can tell an
automatic answer from a chosen one (and a test below compares the two in the same game).

Which state a message was sent in is mostly its ``observation.move``. In a defence (or block)
window a player not asked sees the move where the window opened, whoever is asked now: such a
message is checked against the states it may have been sent in, and must match one of them.
The checker's own tests (the last ones here) feed it honest messages and messages with one leak
each, every channel above included, and it must pass the first and fail every other.
"""

from __future__ import annotations

import json
import random
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from apokalypse.engine.events import Event
from apokalypse.engine.protocol import Game, GameState
from apokalypse.engine.record import GameRecord, apply_recorded
from apokalypse.engine.registry import get_game
from apokalypse.games.apokalypse import Config as ApokalypseConfig
from apokalypse.games.apokalypse.cards import CardKind, deck_kinds
from apokalypse.games.apokalypse.forecast import forecast
from apokalypse.games.apokalypse.observation import action_parts as apokalypse_parts
from apokalypse.games.apokerlypse.observation import action_parts as apokerlypse_parts
from apokalypse.i18n import seat_names
from apokalypse.i18n import text as message_text
from apokalypse.i18n.texts import Texts, texts_for
from apokalypse.server.connection import BURST, RATE
from apokalypse.server.store import Store
from apokalypse.wire import WIRE_VERSION

from .inprocess import Running, serving
from .served import TIMEOUT, Server

SEED = 20261124  # the clients' choices; the games' own seeds are the server's
FORBIDDEN_KEYS = frozenset({"secret", "seen_by"})  # a raw event's: never on the wire
# A seat's own fields of an observation: never in a spectator's.
PRIVATE = {
    "apokalypse": ("hand", "ethos", "known", "fronts", "choice"),
    "apokerlypse": ("hand", "choice"),
}
# Every field a state message may have, each checked below: a new one fails this test until it
# is checked here too (a leak test that ignores what it does not know is no leak test).
FIELDS = frozenset(
    {"type", "wire", "seat", "names", "seats", "observation", "events", "legal", "text"}
    | {"cards", "forecast", "clock", "rematch", "auto", "coach", "tutorial"}
)
BLANK = "zz-blanked"  # what a hidden secret reads as in the log the viewer may be shown
# All games together: they take some 20 s, and minutes on a machine that the whole suite and more
# keep busy; the deadline is for a game that hangs.
PLAY_SECONDS = 480.0
# A turn no client runs out of (so nobody is marked away) and a bank that would show draining.
TIMER = (600.0, 30.0)
THINK = 0.3  # seconds at most a thinking person waits before answering a window's question
# How many times a person asked a window's question (with a choice) looks at the game's public
# summary before answering: the window is open then, however fast or slow the machine.
THINK_POLLS = 3
ANSWERS = frozenset({"decline", "allow"})  # the verbs that answer a window's question
POLL_SECONDS = 0.02  # between two rounds of summaries the watcher polls while the games run
# What a connection's seat status is: a message telling only that changed is news (a person's
# chosen name included: it changes every viewer's names).
STATUS = frozenset({"seats", "rematch", "names"})
WHISPER = "the spectator sees every hand"  # the spectator's line, said all game long
WHISPER_EVERY = 40  # state messages the spectator receives between two of its lines
HELLO = {"type": "say", "text": "Hello <b>all</b>"}  # each person's line
# Every field a public summary may have: what anybody may know of a game.
SUMMARY = frozenset({"id", "game", "players", "seats", "lang", "move", "over", "result", "seed"})


@dataclass(frozen=True)
class Plan:
    game: str
    seats: tuple[str, ...]
    lang: str = "en"
    variants: tuple[str, ...] = ()
    rematch: bool = False  # once over, the first person asks for a rematch (if served)
    timer: tuple[float, float] | None = None  # (turn, bank) seconds
    # Seconds at most each person waits before answering a window's question (0: at once, once
    # they looked at the game's summary)
    think: float = 0.0


EXAMPLE = ("example-content",)  # Apokerlypse's card effects: peeks, takes, gifts, swaps
PLANS = (
    Plan("apokalypse", ("human", "heuristic"), rematch=True),
    Plan("apokalypse", ("heuristic", "human"), "de", ("edition-2008",), timer=TIMER, think=THINK),
    Plan("apokalypse", ("heuristic", "human", "human"), think=THINK),
    Plan(
        "apokalypse",
        ("human", "heuristic", "human", "heuristic"),
        "de",
        ("ethos-balanced",),
        timer=TIMER,
        think=THINK,
    ),
    Plan("apokalypse", ("heuristic", "human", "random", "human", "random"), "en", ("good-team",)),
    Plan("apokalypse", ("human", "random", "human", "random", "heuristic", "random"), timer=TIMER),
    Plan("apokerlypse", ("human", "random"), "en", EXAMPLE, rematch=True, think=THINK),
    Plan("apokerlypse", ("human", "human", "heuristic"), "de", EXAMPLE, timer=TIMER, think=THINK),
    Plan("apokerlypse", ("random", "human", "human", "human"), "en", ("short-table",)),
    Plan("apokerlypse", ("human", "heuristic", "human", "random"), "de", EXAMPLE, timer=TIMER),
)


# --- the checker -------------------------------------------------------------------------------


def wire(value: Any) -> Any:
    """A value as a JSON wire carries it (tuples become lists)."""
    return json.loads(json.dumps(value))


def strings_in(value: Any) -> Iterator[str]:
    """Every string inside a JSON-like value (card codes among them)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def blank(value: Any) -> Any:
    """A secret's value with every string replaced by :data:`BLANK` (its shape kept)."""
    if isinstance(value, str):
        return BLANK
    if isinstance(value, Mapping):
        return {key: blank(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [blank(item) for item in value]
    return value


def hidden_from(event: Event, viewer: int | None) -> bool:
    """Whether ``event`` has a secret part ``viewer`` may not see (told by the engine's event,
    not by the message under test)."""
    return event.secret is not None and (viewer is None or viewer not in event.seen_by)


def blinded(event: Event, viewer: int | None) -> Event:
    """``event`` with the secret ``viewer`` may not see replaced by blanks: whatever a log
    rendered from it for ``viewer`` says, it cannot have learnt from that secret."""
    if not hidden_from(event, viewer):
        return event
    assert event.secret is not None
    return event._replace(secret={key: blank(v) for key, v in event.secret.items()})


@dataclass(frozen=True)
class Table:
    """One game's public facts, the same for every viewer."""

    game: Game
    name: str
    players: int
    kinds: tuple[str, ...]  # each seat's: "human" or a computer player
    lang: str
    seed: int
    texts: Texts
    cards: Mapping[str, Any]  # the card facts: code → {name, …}
    deck: Mapping[str, CardKind] | None  # Apokalypse's cards by code (the forecast's input)
    parts: Callable[[Any], Any]  # an action's notation and parts, from the game's action type
    turn: float | None = None  # the timer's seconds per decision (None: people are not timed)
    bank: float | None = None  # and each person's time bank
    chosen: tuple[str | None, ...] = ()  # the name each person chose (at some point)

    @property
    def timer(self) -> bool:
        """Whether people's decisions are timed."""
        return self.turn is not None

    @classmethod
    def of(
        cls,
        record: GameRecord,
        seed: int,
        kinds: Sequence[str],
        lang: str,
        chosen: Sequence[str | None] = (),
    ) -> Table:
        game = get_game(record.game)
        texts = texts_for(record.game, record.config, lang)
        deck = None
        parts: Callable[[Any], Any] = apokerlypse_parts
        if record.game == "apokalypse":
            deck = deck_kinds(ApokalypseConfig.from_json(dict(record.config)).deck_text)
            parts = apokalypse_parts
        players = game.config_from_json(record.config).players
        timer = record.meta.get("timer")
        turn, bank = (float(timer["turn"]), float(timer["bank"])) if timer else (None, None)
        cards = texts.cards()
        return cls(
            game,
            record.game,
            players,
            tuple(kinds),
            lang,
            seed,
            texts,
            cards,
            deck,
            parts,
            turn,
            bank,
            tuple(chosen),
        )


@dataclass(frozen=True)
class Viewer:
    seat: int | None  # None: the spectator
    foreign: frozenset[str]  # strings never to be sent to this viewer: other seats' tokens


@dataclass(frozen=True)
class Moment:
    """What a viewer may know in one state of the game."""

    observation: Any  # state.observation(seat), as the engine made it
    actions: Sequence[Any]  # the legal actions when the viewer decides, else none
    forecast: Any  # Apokalypse: the forecast of the public observation (as JSON); else None
    window: bool  # in a window: somebody decides whom the public observation does not show

    @property
    def shown(self) -> Any:
        return wire(self.observation)


class Snapshot:
    """One state of a game, as each viewer may know it (computed once, when asked)."""

    def __init__(self, table: Table, state: GameState) -> None:
        self.table = table
        self.state = state
        public = state.observation(None)
        self.window = public["to_act"] is None and not state.is_over
        self.forecast: Any = None
        if table.deck is not None:
            self.forecast = wire(forecast(public, table.deck).to_json())
        self.moments: dict[int | None, Moment] = {}

    def moment(self, seat: int | None) -> Moment:
        if seat not in self.moments:
            state = self.state
            deciding = not state.is_over and seat is not None and state.to_act == seat
            actions = list(state.legal_actions()) if deciding else []
            observation = state.observation(seat)
            self.moments[seat] = Moment(observation, actions, self.forecast, self.window)
        return self.moments[seat]


def names_of(table: Table, viewer: Viewer, message: Mapping[str, Any]) -> list[str]:
    """The seat names the viewer's sentences use ("p2 (you)"): what ``names`` must be, where
    the message has them (they tell who is who, and which seat is the viewer's, nothing else):
    each seat's is its default name or, once its person chose one, that one."""
    kinds = table.kinds
    plain = seat_names(table.players, viewer.seat, table.lang, (), kinds)
    chosen = seat_names(table.players, viewer.seat, table.lang, table.chosen, kinds)
    names: list[str] = message.get("names", plain)
    assert len(names) == table.players and all(
        name in (plain[q], chosen[q]) for q, name in enumerate(names)
    ), f"names {names} for seat {viewer.seat}"
    if "seats" in message:  # the same choice as the seats' statuses say
        said = [s.get("name") for s in message["seats"]]
        assert [name == chosen[q] != plain[q] for q, name in enumerate(names)] == [
            said[q] is not None and said[q] == table.chosen[q] for q in range(table.players)
        ], (names, said)
    return names


def expected_log(
    table: Table, viewer: Viewer, events: Sequence[Event], names: Sequence[str]
) -> list[str]:
    """The log lines the viewer's own views of ``events`` say: rendered from the events with
    every secret the viewer may not see blanked out."""
    views = [blinded(e, viewer.seat).view(viewer.seat) for e in events]
    lines = table.texts.render_events(views, names)
    assert not any(BLANK in line for line in lines), ("the renderer read a secret", lines)
    return lines


def hidden_cards_named(
    table: Table,
    viewer: Viewer,
    events: Sequence[Event],
    lines: Sequence[str],
    allowed: str,
) -> list[str]:
    """The cards of secrets hidden from the viewer that ``lines`` name more often than
    ``allowed`` (the log of the viewer's own views of ``events``, :func:`expected_log`) does: a
    card's name may be there legitimately (the viewer was dealt one too, one lies face up …)."""
    hidden = {
        code
        for event in events
        if hidden_from(event, viewer.seat)
        for code in strings_in(event.secret)
        if code in table.cards
    }
    if not hidden:
        return []
    sent = "\n".join(lines)
    leaked = []
    for code in sorted(hidden):
        name = table.cards[code]["name"]
        if sent.count(name) > allowed.count(name):
            leaked.append(name)
    return leaked


def check_clock(table: Table, viewer: Viewer, message: Mapping[str, Any]) -> None:
    """The clock as far as it needs no state: the viewer's own bank (none for a spectator), and
    a decision's clock only where the viewer's observation shows whose decision it is (in a
    window only the seat asked learns that it is asked; a clock naming it would tell the
    others). Whether a bank changed only with its seat's own decision: :func:`presence_problem`."""
    seat = viewer.seat
    clock = message.get("clock")
    if not table.timer:
        assert clock is None, f"a clock in a game without a timer: {clock}"
        return
    assert isinstance(clock, Mapping) and set(clock) == {"turn_s", "bank_ms", "deciding"}, clock
    assert table.turn is not None and table.bank is not None
    assert clock["turn_s"] == table.turn, clock
    bank = clock["bank_ms"]
    if seat is None:
        assert bank is None, f"a spectator was sent a time bank: {clock}"
    else:
        assert isinstance(bank, int) and 0 <= bank <= round(table.bank * 1000), clock
    shown = message["observation"]["to_act"]
    deciding = clock["deciding"]
    if deciding is not None:
        assert set(deciding) == {"seat", "turn_ms", "remaining_ms"}, deciding
        assert deciding["seat"] == shown, (
            f"seat {seat} was told seat {deciding['seat']} is deciding; its observation shows"
            f" {shown} (move {message['observation']['move']})"
        )
        assert 0 <= deciding["turn_ms"] <= deciding["remaining_ms"], deciding
        assert deciding["turn_ms"] <= round(table.turn * 1000), deciding
    # A person deciding, as the viewer's observation shows it: whose clock runs.
    person = shown is not None and table.kinds[shown] == "human"
    timed = person and not any(s["seat"] == shown and s["away"] for s in message["seats"])
    assert (deciding is not None) == timed, (
        f"seat {seat}'s clock shows {deciding} where its observation shows {shown} deciding"
    )


def check_public_parts(
    table: Table,
    viewer: Viewer,
    message: Mapping[str, Any],
    events: Sequence[Event],
    first: bool,
) -> None:
    """What does not depend on which state the message was sent in: keys, tokens, seed, the
    events and the log, the card facts and the newer fields."""
    text = json.dumps(message)
    assert message.get("type") == "state" and message.get("wire") == WIRE_VERSION, text[:300]
    unknown = set(message) - FIELDS
    assert not unknown, f"fields this test does not check yet: {sorted(unknown)}"
    found = [key for key in FORBIDDEN_KEYS if f'"{key}":' in text]  # keys, as JSON writes them
    assert not found, f"raw event fields {sorted(found)} sent: {text[:300]}"
    for token in viewer.foreign:
        assert token not in text, f"another seat's token sent to seat {viewer.seat}"
    over = "result" in message["observation"]
    if not over:
        assert '"seed":' not in text, f"the seed sent before the end: {text[:300]}"
        assert str(table.seed) not in text, "the seed sent before the end"

    seat = viewer.seat
    assert message["events"] == wire([e.view(seat).to_json() for e in events]), (
        f"seat {seat} was sent other events than its views of those since its last message"
    )
    if seat is None:
        assert not any(e["seen"] for e in message["events"]), "a spectator saw a secret"
        private = set(message["observation"]) & set(PRIVATE[table.name])
        assert not private, f"a spectator was sent private fields {sorted(private)}"

    names = names_of(table, viewer, message)
    assert set(message["text"]) == {"log", "log_events", "question", "choices"}, message["text"]
    lines = message["text"]["log"]
    # each line points at an event of this message, in order (a line tells nothing more)
    pointers = message["text"]["log_events"]
    assert len(pointers) == len(lines), message["text"]
    assert pointers == sorted(pointers) and all(0 <= i < len(events) for i in pointers), pointers
    allowed = expected_log(table, viewer, events, names)
    leaked = hidden_cards_named(table, viewer, events, lines, "\n".join(allowed))
    assert not leaked, f"seat {seat}'s log names hidden cards {leaked}: {lines}"
    assert lines == allowed, f"seat {seat}'s log says more (or other) than its views of the events"

    if first:  # a connection's first message has the card facts, every later one None
        assert message["cards"] == wire(table.cards), "the first message's card facts"
    else:
        assert message["cards"] is None, "card facts after the first message"

    # The newer fields, where sent.
    if "seat" in message:
        assert message["seat"] == seat
    if "seats" in message:
        assert all(
            set(s) <= {"seat", "kind", "name", "connected", "away"} for s in message["seats"]
        )
        assert [s["seat"] for s in message["seats"]] == list(range(table.players))
        assert [s["kind"] for s in message["seats"]] == list(table.kinds)
    check_clock(table, viewer, message)
    # The viewer's own "answer for me" setting (on: these clients never turn it off).
    assert message["auto"] == (None if seat is None else True), message["auto"]
    assert message["coach"] == expected_coach(table, seat), message["coach"]
    # A guided game's coach is its learner's alone, and none of these games is a guided game
    # (tests/server/test_tutorial.py follows one).
    assert message["tutorial"] is None, message["tutorial"]
    if message.get("rematch") is not None:
        rematch = message["rematch"]
        assert isinstance(rematch.get("id"), str), rematch
        assert set(rematch) <= {"id", "token"}, rematch
        if seat is None:
            assert "token" not in rematch, "a spectator was sent a rematch token"


def expected_coach(table: Table, seat: int | None) -> dict[str, Any] | None:
    """The coach as a seat of these games may know it (none was made with the coach for
    everyone): available only where no other person plays; never to a spectator."""
    if seat is None:
        return None
    alone = all(kind != "human" for q, kind in enumerate(table.kinds) if q != seat)
    reason = None if alone else message_text("server.coach-not-offered", table.lang)
    return {"available": alone, "offered": False, "agreed": False, "reason": reason}


def moment_problem(
    table: Table, viewer: Viewer, message: Mapping[str, Any], moment: Moment
) -> str | None:
    """Why the message cannot have been sent to the viewer in this state (None: it can)."""
    seat = viewer.seat
    observation = message["observation"]
    shown = moment.shown
    if observation != shown:
        differ = sorted(
            k for k in set(observation) | set(shown) if observation.get(k) != shown.get(k)
        )
        return f"seat {seat}'s observation differs from state.observation({seat}) in {differ}"
    legal = wire([table.parts(action) for action in moment.actions])
    if message["legal"] != legal:
        return f"seat {seat} was sent legal {message['legal'][:5]}, the engine says {legal[:5]}"
    if any(
        parts["text"] != str(action) for parts, action in zip(legal, moment.actions, strict=True)
    ):
        return f"seat {seat}'s legal actions are not in the engine's notation"
    names = names_of(table, viewer, message)
    texts = table.texts
    question = (
        texts.decision_text(seat, moment.observation, names) if legal and seat is not None else ""
    )
    if message["text"]["question"] != question:
        return f"seat {seat}'s question is not its own decision's: {message['text']['question']!r}"
    choices = [texts.render_action(a, moment.observation, names) for a in moment.actions]
    if message["text"]["choices"] != choices:
        return f"seat {seat}'s choices are not worded from its own observation"
    if "forecast" in message and message["forecast"] != moment.forecast:
        return "the forecast is not the one of the public observation"
    clock = message.get("clock")
    deciding = clock["deciding"] if clock else None
    if deciding is not None and moment.window and deciding["remaining_ms"] != deciding["turn_ms"]:
        # Checked for the seat asked (nobody else is shown a window's decision).
        return f"seat {seat}'s decision in a window draws on a time bank: {deciding}"
    return None


def check_message(
    table: Table,
    viewer: Viewer,
    message: Mapping[str, Any],
    events: Sequence[Event],
    first: bool,
    moments: Sequence[Moment],
) -> None:
    """Everything about one message: it may have been sent in any of ``moments`` (the states
    whose observation for the viewer shows the message's move) and must fit one of them."""
    check_public_parts(table, viewer, message, events, first)
    problems = [moment_problem(table, viewer, message, moment) for moment in moments]
    assert None in problems, problems[0] if problems else "no state of the game shows this move"


# --- message presence and clocks: a connection's messages one after another ------------------


def said(message: Mapping[str, Any]) -> dict[str, Any]:
    """What a message says apart from its news (its events, the log rendered from them and the
    card facts of a connection's first message) and the passing of time (the deciding seat's
    time left): two messages that say the same tell nothing new."""
    kept = {key: value for key, value in message.items() if key not in ("events", "cards")}
    kept["text"] = {
        key: value for key, value in message["text"].items() if key not in ("log", "log_events")
    }
    clock = message.get("clock")
    if isinstance(clock, Mapping) and isinstance(clock.get("deciding"), Mapping):
        kept["clock"] = {**clock, "deciding": clock["deciding"].get("seat")}
    return kept


def whats_new(before: Mapping[str, Any], message: Mapping[str, Any]) -> set[str]:
    """The fields in which what ``message`` says (:func:`said`) differs from ``before``."""
    old, new = said(before), said(message)
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def status_only(before: Mapping[str, Any], message: Mapping[str, Any]) -> bool:
    """Whether ``message`` tells nothing but a change of the seats' status (connected, away)
    or of the rematch since ``before``: no events, the same view of the game (a seat marked
    away stops its clock, so the clock may change with it)."""
    new = whats_new(before, message)
    worded = {"text"} if "names" in new else set()  # the question and choices name seats
    if message["events"] or not new & STATUS or not new <= STATUS | {"clock"} | worded:
        return False
    return "clock" not in new or before["seats"] != message["seats"]


def shows_window(message: Mapping[str, Any], frozen: int) -> bool:
    """Whether the message shows a window that opened at public move ``frozen`` (somebody
    decides whom the viewer may not know of)."""
    observation = message["observation"]
    return (
        observation["move"] == frozen
        and observation["to_act"] is None
        and "result" not in observation
    )


def presence_problem(
    table: Table, viewer: Viewer, client: Client, k: int, windowed: bool
) -> str | None:
    """Why a connection's ``k``-th message (k > 0), after its previous one, tells more than its
    content (None: it does not). Every message is news: it has events, or says something the
    connection's previous one did not; one that is not tells by its mere arrival that
    something happened the viewer may not see (in a window, that somebody not shown
    answered). A message with no events and the same view as the previous one may tell only a
    seat's status. A seat's time bank changes only when that seat's own decision outside a
    window ended: one that changes otherwise is another seat's, or counts a window's
    thinking. ``windowed``: whether the previous message was sent in a window."""
    before, message, seat = client.received[k - 1], client.received[k], viewer.seat
    where = (
        f"seat {seat}'s message {k} (move {message['observation']['move']},"
        f" {client.arrived[k] - client.arrived[0]:.2f} s after its first)"
    )
    new = whats_new(before, message)
    if not message["events"] and not new:
        return f"{where} says nothing new: its mere arrival is news"
    same = not message["events"] and message["observation"] == before["observation"]
    if same and not status_only(before, message):
        return f"{where} tells {sorted(new)} changed, its view of the game the same"
    if table.timer and seat is not None:
        old, bank = before["clock"]["bank_ms"], message["clock"]["bank_ms"]
        own = before["observation"]["to_act"] == seat and not windowed
        if bank != old and not (own and bank < old):
            return f"{where}: its bank went from {old} to {bank} ms while others decided"
    return None


# --- playing through the server ----------------------------------------------------------------


@dataclass
class Client:
    """One connection: a seat's (with its token) or the spectator's, and what it received."""

    seat: int | None
    token: str | None
    received: list[dict[str, Any]] = field(default_factory=list)
    arrived: list[float] = field(default_factory=list)  # time.monotonic() of each message
    error: BaseException | None = None
    # Each talk message, after how many state messages it came: apart from ``received``, whose
    # every message is a state message checked against the game.
    talk: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    left: int = 0  # forced questions it left to the server
    # The public summaries it polled, in order: the spectator one per message, a person
    # THINK_POLLS while asked a window's question (the window open then: it waits for them).
    summaries: list[dict[str, Any]] = field(default_factory=list)
    thought: list[int] = field(default_factory=list)  # the moves of those window questions


@dataclass
class Played:
    plan: Plan
    id: str
    tokens: dict[int, str]  # seat → its token, the people's seats
    clients: list[Client]  # the spectator first
    # A message that ends the game's play for every client at once (None: play to the end).
    enough: Callable[[dict[str, Any]], bool] | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    summaries: list[dict[str, Any]] = field(default_factory=list)  # the watcher's, in order

    @property
    def names(self) -> dict[int, str]:
        """The name each person chooses: markup that must stay text, and a character NFC
        composes."""
        return {seat: f"<i>Zoe\u0308 {seat + 1}</i>" for seat in self.tokens}

    @property
    def shown(self) -> dict[int, str]:
        """Those names as everybody is shown them (NFC)."""
        return {seat: unicodedata.normalize("NFC", name) for seat, name in self.names.items()}

    def chosen(self) -> list[str | None]:
        return [self.shown.get(q) for q in range(len(self.plan.seats))]


def start_game(server: Server, plan: Plan) -> Played:
    body = {
        "game": plan.game,
        "players": len(plan.seats),
        "seats": list(plan.seats),
        "variants": list(plan.variants),
        "lang": plan.lang,
    }
    if plan.timer is not None:
        body["timer"] = {"turn": plan.timer[0], "bank": plan.timer[1]}
    response = httpx.post(f"{server.http}/api/games", json=body, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    created = response.json()
    tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
    assert sorted(tokens) == [q for q, kind in enumerate(plan.seats) if kind == "human"]
    summary = httpx.get(f"{server.http}/api/games/{created['id']}", timeout=TIMEOUT).json()
    listed = httpx.get(f"{server.http}/api/games", params={"ids": created["id"]}, timeout=TIMEOUT)
    for public in [summary, *listed.json()["games"]]:  # nothing but what anybody may know
        assert public["id"] == created["id"] and not public["over"], public
        assert "seed" not in public, public
        assert not any(token in json.dumps(public) for token in tokens.values()), public
    clients = [Client(None, None), *(Client(seat, token) for seat, token in tokens.items())]
    return Played(plan, created["id"], tokens, clients)


class Pace:
    """A client's own token bucket, a little inside the server's rate limit (``RATE`` messages a
    second, ``BURST`` at once): a computer answers at once, and the server drops what a person
    could never send so fast. Waits only when the bucket is empty."""

    def __init__(self) -> None:
        self.rate = RATE * 0.9
        self.allowance = self.burst = BURST - 2
        self.checked = time.monotonic()

    def take(self) -> None:
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.checked) * self.rate)
        self.checked = now
        if self.allowance < 1:
            time.sleep((1 - self.allowance) / self.rate)  # throttling, not synchronisation
            self.allowance, self.checked = 1.0, time.monotonic()
        self.allowance -= 1


def forced(message: Mapping[str, Any]) -> bool:
    """Whether the message asks its seat a window's question it cannot but decline, which the
    server answers for it (its setting ``auto`` on): a person leaves it to the server."""
    legal = message["legal"]
    return bool(message["auto"]) and len(legal) == 1 and legal[0]["verb"] in ANSWERS


def play_client(server: Server, played: Played, client: Client, rng: random.Random) -> None:
    """Receive everything until the game is over, answering each decision with a random legal
    action; then, in a rematch game, ask for (the first person) or wait for the rematch."""
    first_person = client.seat is not None and client.seat == min(played.tokens)
    with (
        connect(server.ws(played.id, client.token), open_timeout=TIMEOUT, max_size=None) as ws,
        httpx.Client(base_url=server.http, timeout=TIMEOUT) as http,
    ):

        def look() -> None:  # the game's public summary, as anybody may ask it
            response = http.get(f"/api/games/{played.id}")
            assert response.status_code == 200, response.text
            client.summaries.append(response.json())

        def receive() -> dict[str, Any]:
            message: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
            while message.get("type") == "talk":
                client.talk.append((len(client.received), message))
                message = json.loads(ws.recv(timeout=TIMEOUT))
            client.arrived.append(time.monotonic())
            client.received.append(message)
            assert message.get("type") == "state", f"seat {client.seat} was sent {message}"
            if played.enough is not None and played.enough(message):
                played.stop.set()
            return message

        acted = -1  # the move this client last acted at: one action per decision
        pace = Pace()
        message = receive()
        if client.seat is not None:  # each person names themselves and says hello
            for said in ({"type": "name", "name": played.names[client.seat]}, HELLO):
                pace.take()
                ws.send(json.dumps(said))
        while "result" not in message["observation"]:
            if played.stop.is_set():
                return
            if client.seat is None:
                look()  # the spectator looks at the summary at every message
                if len(client.received) % WHISPER_EVERY == 1:
                    pace.take()  # the spectator tries to tell the players what it sees
                    ws.send(json.dumps({"type": "say", "text": WHISPER}))
            move = message["observation"]["move"]
            if forced(message):  # left to the server, which answers for the person
                client.left += move > acted
                acted = move
                message = receive()
                continue
            if message["legal"] and move > acted:
                acted = move
                action = rng.choice(message["legal"])["text"]
                if any(a["verb"] in ANSWERS for a in message["legal"]):
                    # Asked a window's question: the window waits for this person, who looks at
                    # the game meanwhile (its summary must show where the window opened) and,
                    # in some games, takes their time.
                    client.thought.append(move)
                    for _ in range(THINK_POLLS):
                        look()
                    if played.plan.think:
                        time.sleep(rng.uniform(0.0, played.plan.think))
                pace.take()
                ws.send(json.dumps({"type": "action", "action": action, "move": move}))
            message = receive()
        if played.plan.rematch and "rematch" in message:
            if first_person:
                ws.send(json.dumps({"type": "rematch"}))
            while message.get("rematch") is None:
                message = receive()


def poll_summaries(server: Server, games: Sequence[Played], done: threading.Event) -> None:
    """What anybody may ask of the games while they run: each one's summary (``GET
    /api/games/{id}``) and all of them at once (``GET /api/games?ids=``), again and again."""
    by_id = {played.id: played for played in games}
    ids = ",".join(by_id)
    with httpx.Client(base_url=server.http, timeout=TIMEOUT) as http:
        while not done.is_set():
            for played in games:
                response = http.get(f"/api/games/{played.id}")
                assert response.status_code == 200, response.text
                played.summaries.append(response.json())
            listed = http.get("/api/games", params={"ids": ids})
            assert listed.status_code == 200, listed.text
            for summary in listed.json()["games"]:
                by_id[summary["id"]].summaries.append(summary)
            done.wait(POLL_SECONDS)  # pacing: the games go on meanwhile


def play_all(server: Server, games: Sequence[Played], poll: bool = False) -> None:
    """Every client of every game at once, one thread each; with ``poll``, a thread polling
    their public summaries meanwhile."""

    def run(played: Played, client: Client, rng: random.Random) -> None:
        try:
            play_client(server, played, client, rng)
        except BaseException as exc:  # reported by the test, with the seat
            client.error = exc

    done = threading.Event()
    polled: list[BaseException] = []

    def poller() -> None:
        try:
            poll_summaries(server, games, done)
        except BaseException as exc:
            polled.append(exc)

    threads = [
        threading.Thread(
            target=run,
            args=(played, client, random.Random(f"{SEED}/{g}/{client.seat}")),
            daemon=True,  # a client stuck past the deadline does not hold up the test run
        )
        for g, played in enumerate(games)
        for client in played.clients
    ]
    watcher = threading.Thread(target=poller, daemon=True)
    for thread in threads:
        thread.start()
    if poll:
        watcher.start()
    deadline = time.monotonic() + PLAY_SECONDS
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    done.set()
    if poll:
        watcher.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "games still running"
    assert not polled, f"polling the summaries failed: {polled[0]!r}"
    for g, played in enumerate(games):
        for client in played.clients:
            assert client.error is None, (g, played.plan, client.seat, repr(client.error))


# --- the truth, replayed -----------------------------------------------------------------------


def owned_tokens(played: Played) -> dict[str, int]:
    """Every token a game's connections got, by the seat it opens: the invite keys, and the
    rematch keys each seat was sent (checked to open that seat by the rematch check)."""
    owners = {token: seat for seat, token in played.tokens.items()}
    for client in played.clients:
        for message in client.received:
            rematch = message.get("rematch")
            if client.seat is not None and rematch and isinstance(rematch.get("token"), str):
                owners.setdefault(rematch["token"], client.seat)
    return owners


@dataclass
class Tally:
    """What the checked messages held: proof that the checks had something to check."""

    messages: int = 0
    withheld: int = 0  # messages with events whose secret the viewer may not see
    seen: int = 0  # messages with events whose secret the viewer sees
    deciding: int = 0  # messages with legal actions
    lagging: int = 0  # messages sent in a window, showing where it opened
    clocks: int = 0  # messages with a clock showing a decision
    windows: int = 0  # (window of two or more questions, connection never asked in it) checked
    quiet: float = 0.0  # seconds those connections waited, from a window's opening to its end
    pondered: int = 0  # questions of such windows a person looked at the summary while asked
    summaries: int = 0  # public summaries of running games polled while they ran
    frozen: int = 0  # of them, polled in a window of two or more questions
    looked: int = 0  # of them, polled by the spectators, one per message
    talk: int = 0  # lines of table talk sent
    whispers: int = 0  # of them, spectators' lines sent to a player (once the game was over)

    def count(self, viewer: Viewer, message: Mapping[str, Any], events: Sequence[Event]) -> None:
        self.messages += 1
        self.withheld += any(hidden_from(e, viewer.seat) for e in events)
        self.seen += any(e["seen"] for e in message["events"])
        self.deciding += bool(message["legal"])
        self.clocks += bool(message.get("clock") and message["clock"]["deciding"])

    def add(self, other: Tally) -> None:
        for name in ("messages", "withheld", "seen", "deciding", "lagging", "clocks"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        names = ("windows", "quiet", "pondered", "summaries", "frozen", "looked", "talk")
        for name in (*names, "whispers"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Truth:
    """The replayed game as anybody may know it, state by state (by true move)."""

    public: list[int] = field(default_factory=list)  # the public observation's move
    windowed: list[bool] = field(default_factory=list)  # somebody decides, the public not shown
    deciders: list[int | None] = field(default_factory=list)  # who decides (None: over)

    def add(self, state: GameState) -> None:
        public = state.observation(None)
        self.public.append(public["move"])
        self.windowed.append(public["to_act"] is None and not state.is_over)
        self.deciders.append(None if state.is_over else state.to_act)

    def windows(self) -> list[tuple[int, int]]:
        """Each window's states: from the one where it opened to the one where it ended."""
        found, start = [], None
        for move, windowed in enumerate([*self.windowed, False]):
            if windowed and start is None:
                start = move
            elif not windowed and start is not None:
                found.append((start, move))
                start = None
        return found


def check_windows(played: Played, truth: Truth) -> Tally:
    """Message presence in every window of the game: a connection never asked in it is sent
    the window's opening (its events) and then nothing until it ends but a seat's status. Its
    time without a message from the opening to the end is counted (the people took theirs),
    and the questions of such windows that a person asked thought over."""
    tally = Tally()
    for start, end in truth.windows():
        frozen = truth.public[start]
        asked = {q for q in truth.deciders[start:end] if q is not None}
        if end - start >= 2:
            tally.pondered += sum(
                start <= move < end for client in played.clients for move in client.thought
            )
        for client in played.clients:
            if client.seat in asked:
                continue
            received = client.received
            shown = [k for k, message in enumerate(received) if shows_window(message, frozen)]
            if not shown:
                continue  # connected after it (a connection's first message may be inside)
            assert shown == list(range(shown[0], shown[-1] + 1)), (client.seat, frozen, shown)
            for k in shown[1:]:
                assert status_only(received[k - 1], received[k]), (
                    f"seat {client.seat} was sent message {k}"
                    f" {client.arrived[k] - client.arrived[shown[0]]:.2f} s into the window that"
                    f" opened at move {frozen} (seats {sorted(asked)} asked), telling"
                    f" {sorted(whats_new(received[k - 1], received[k]))} and no seat's status"
                )
            if end - start >= 2:
                tally.windows += 1
                after = shown[-1] + 1
                if after < len(received):
                    tally.quiet += client.arrived[after] - client.arrived[shown[0]]
    return tally


def check_summaries(played: Played, actions: int, seed: int) -> dict[int, int]:
    """The public summaries polled while the game ran (``actions``: how many the game took):
    nothing but what anybody may know, no token, the seed only once the game is over, the
    moves never going back in the order each poller asked them. How many of a running game
    reported each move: the replay checks that each is a move some public observation showed
    (frozen in a window like it), never a true move hidden in a window."""
    running: dict[int, int] = {}
    for summaries in (played.summaries, *(client.summaries for client in played.clients)):
        check_polled(played, summaries, actions, seed, running)
    return running


def check_polled(
    played: Played,
    summaries: Sequence[dict[str, Any]],
    actions: int,
    seed: int,
    running: dict[int, int],
) -> None:
    """One poller's summaries, in the order it asked them (see :func:`check_summaries`); each
    of a running game counted in ``running`` by the move it reports."""
    last = 0
    for summary in summaries:
        text = json.dumps(summary)
        assert summary["id"] == played.id and set(summary) <= SUMMARY, summary
        seats = summary["seats"]
        assert [(s["seat"], s["kind"]) for s in seats] == list(enumerate(played.plan.seats))
        assert all(s.get("name") in (None, played.shown.get(s["seat"])) for s in seats), seats
        assert not any(token in text for token in played.tokens.values()), summary
        move = summary["move"]
        assert isinstance(move, int) and last <= move <= actions, f"move {move}? {text}"
        last = move
        if summary["over"]:
            assert move == actions and summary.get("seed") == seed, summary
        else:
            assert "seed" not in summary and str(seed) not in text, f"a running game's seed {text}"
            running[move] = running.get(move, 0) + 1


def check_game(played: Played, record: GameRecord, seed: int) -> Tally:
    """Replay the game from its public seed and stored actions, checking every message of every
    connection at the state it was sent in; what the messages held."""
    assert record.seed == seed, "the stored seed is the one made public"
    table = Table.of(record, seed, played.plan.seats, played.plan.lang, played.chosen())
    config = table.game.config_from_json(record.config)
    state = table.game.new_game(config, seed)  # from the public seed, not from the store's
    owners = owned_tokens(played)
    viewers = [
        Viewer(c.seat, frozenset(t for t, owner in owners.items() if owner != c.seat))
        for c in played.clients
    ]

    for client in played.clients:
        assert client.received, f"seat {client.seat} was sent nothing"
        assert all(m["observation"]["move"] <= len(record.actions) for m in client.received)
    polled = check_summaries(played, len(record.actions), seed)

    log = list(state.opening)
    lengths = [len(log)]  # how many events there were after each move
    truth = Truth()
    truth.add(state)
    # Each connection's messages in order, each fitted to the first state (at or after the
    # previous message's) it may have been sent in.
    fits: list[list[int]] = [[] for _ in played.clients]
    met: set[tuple[int, int]] = set()  # messages whose state-free parts are checked
    problems: dict[tuple[int, int], str] = {}  # why a message fits no state so far
    width = table.players  # how far a window's public move may lag behind (the declines)
    tally = Tally()
    for move in range(len(record.actions) + 1):
        if move > 0:
            log += apply_recorded(table.game, state, move, record.actions[move - 1])
            lengths.append(len(log))
            truth.add(state)
        if move in polled:  # the public move of a running game, as summaries report it
            assert truth.public[move] == move, (
                f"a summary of a running game reports move {move}, a true move hidden in a"
                f" window (its public observation shows move {truth.public[move]})"
            )
        now: Snapshot | None = None  # this state as each viewer knows it, when first asked
        for c, client in enumerate(played.clients):
            viewer, fitted = viewers[c], fits[c]
            while len(fitted) < len(client.received):
                k = len(fitted)
                message = client.received[k]
                shown: int = message["observation"]["move"]
                if shown > move:
                    break
                if (c, k) not in met:  # what needs no state, checked once
                    start = lengths[client.received[k - 1]["observation"]["move"]] if k else 0
                    assert start <= lengths[shown], f"seat {viewer.seat}: events went back"
                    events = log[start : lengths[shown]]
                    check_public_parts(table, viewer, message, events, k == 0)
                    tally.count(viewer, message, events)
                    met.add((c, k))
                if now is None:
                    now = Snapshot(table, state)
                moment = now.moment(viewer.seat)
                if moment.observation["move"] == shown:
                    problem = moment_problem(table, viewer, message, moment)
                    if problem is None:
                        fitted.append(move)
                        tally.lagging += move > shown
                        if k:  # what it tells by its arrival, and by its clock's bank
                            windowed = truth.windowed[fitted[k - 1]]
                            problem = presence_problem(table, viewer, client, k, windowed)
                            assert problem is None, problem
                        continue
                    problems.setdefault((c, k), f"{problem} (at move {move})")
                # No later state can show this move: the message fits none.
                assert move < shown + width, problems.get((c, k), f"no state shows move {shown}")
                break
    for c, client in enumerate(played.clients):
        k = len(fits[c])
        assert k == len(client.received), problems.get((c, k), f"seat {client.seat}: no fit")
        assert fits[c][-1] == len(record.actions), f"seat {client.seat} did not see the end"
    assert state.is_over
    tally.add(check_windows(played, truth))
    tally.add(check_talk(played))
    frozen = {truth.public[start] for start, end in truth.windows() if end - start >= 2}
    tally.summaries += sum(polled.values())
    tally.frozen += sum(polled.get(move, 0) for move in frozen)
    spectator = played.clients[0]
    assert spectator.seat is None
    tally.looked += sum(not summary["over"] for summary in spectator.summaries)
    return tally


def check_talk(played: Played) -> Tally:
    """Every line a connection was sent was said, by whom it says, in a channel the viewer may
    read then: a player's connection is sent no spectator's line before the message that shows
    the game over; each line at most once, in order."""
    tally = Tally()
    speakers = {None: (message_text("names.spectator", played.plan.lang), WHISPER)} | {
        seat: (name, HELLO["text"]) for seat, name in played.shown.items()
    }
    for client in played.clients:
        lines: list[dict[str, Any]] = []
        for after, message in client.talk:
            assert set(message) == {"type", "wire", "lines"} and message["wire"] == WIRE_VERSION
            for line in message["lines"]:
                assert set(line) == {"n", "channel", "seat", "name", "text", "at"}, line
                assert line["channel"] == ("players" if line["seat"] is not None else "spectators")
                assert (line["name"], line["text"]) == speakers[line["seat"]], line
                if client.seat is not None and line["channel"] == "spectators":
                    shown = client.received[after - 1]["observation"] if after else {}
                    assert "result" in shown or shown.get("step") == "over", (
                        f"seat {client.seat} was sent a spectator's line while the game ran"
                    )
                    tally.whispers += 1
                lines.append(line)
        for channel in ("players", "spectators"):  # each once, in order
            numbers = [line["n"] for line in lines if line["channel"] == channel]
            assert numbers == list(range(1, len(numbers) + 1)), (client.seat, channel, numbers)
        tally.talk += len(lines)
    return tally


def check_rematch(server: Server, played: Played) -> None:
    """One rematch for everybody: the same new game, nobody's token to the spectator; each
    seat's key (a new one where sent, else its invite key) opens that very seat of it."""
    last = [client.received[-1] for client in played.clients]
    if not all("rematch" in message for message in last):
        return  # not served (yet)
    rematches = [message["rematch"] for message in last]
    assert all(r is not None for r in rematches), rematches
    assert len({r["id"] for r in rematches}) == 1 and rematches[0]["id"] != played.id
    assert "token" not in rematches[0], "a rematch token for the spectator"
    new_id = rematches[0]["id"]
    for client, rematch in zip(played.clients[1:], rematches[1:], strict=True):
        assert client.seat is not None and client.token is not None
        token = rematch.get("token", client.token)
        with connect(server.ws(new_id, token), open_timeout=TIMEOUT, max_size=None) as ws:
            first = json.loads(ws.recv(timeout=TIMEOUT))
        assert first["observation"]["seat"] == client.seat, "a seat's key opens its own seat"
    summary = httpx.get(f"{server.http}/api/games/{new_id}", timeout=TIMEOUT).json()
    assert summary["seats"] == [  # the same people, by the names they chose
        {"seat": q, "kind": k, "name": played.shown.get(q)} for q, k in enumerate(played.plan.seats)
    ]
    assert "seed" not in summary and not summary["over"]


@pytest.mark.long(64)
def test_no_message_of_many_served_games_tells_a_seat_more_than_it_may_know(
    server: Server,
) -> None:
    games = [start_game(server, plan) for plan in PLANS]
    play_all(server, games, poll=True)
    store = Store.open(server.database_url)
    tally = Tally()
    for played in games:
        summary = httpx.get(f"{server.http}/api/games/{played.id}", timeout=TIMEOUT).json()
        record = store.load(played.id)
        assert summary["over"] and summary.get("seed", record.seed) == record.seed, summary
        # (The seed is public now; where the summary leaves it out, a test below says so.)
        tally.add(check_game(played, record, summary.get("seed", record.seed)))
        if played.plan.rematch:
            check_rematch(server, played)
        for client in played.clients:  # every person's line reached every connection
            heard = {line["seat"] for _, message in client.talk for line in message["lines"]}
            assert set(played.tokens) <= heard, (played.plan, client.seat, heard)
    # Every message was checked, and there were plenty, with secrets withheld and shown.
    assert tally.messages == sum(len(c.received) for played in games for c in played.clients)
    assert tally.messages > 1000 and tally.withheld > 200 and tally.seen > 100, tally
    assert tally.deciding > 300, tally
    # The channels that could tell who is asked in a window had plenty to tell: windows of
    # several questions that connections not asked watched for seconds in all while people
    # thought (a busy machine only makes them longer), clocks of timed decisions, and summaries
    # polled while such windows were open. Counted, not left to the machine's speed: every
    # spectator looked at the summary at each message, and every person asked a question of
    # such a window looked THINK_POLLS times before answering, each look finding it frozen.
    assert tally.windows > 30 and tally.quiet > 5.0, tally  # some 80 and 15 s
    assert tally.summaries >= tally.looked > 1000, tally  # some 2000 looked
    assert tally.frozen >= THINK_POLLS * tally.pondered >= 3 * THINK_POLLS, tally  # some 10 asked
    assert tally.clocks > 300, tally  # some 1300
    # Table talk: every person's line reached everybody, and the spectator's reached the
    # players only once the game was over (where they still listened: the rematch games).
    assert tally.talk > 50 and tally.whispers > 0, tally
    # The server answered for the people who could not but decline, many times.
    left = sum(client.left for played in games for client in played.clients)
    assert left > 20, left  # some 50


def test_the_seed_of_a_finished_game_is_public_while_it_is_watched(server: Server) -> None:
    played = start_game(server, Plan("apokerlypse", ("human", "heuristic")))  # a short game
    with connect(server.ws(played.id), open_timeout=TIMEOUT) as watcher:  # looks at the end
        play_all(server, [played])
        summary = httpx.get(f"{server.http}/api/games/{played.id}", timeout=TIMEOUT).json()
        while "result" not in json.loads(watcher.recv(timeout=TIMEOUT)).get("observation", {}):
            pass  # what it was sent (state and talk), to the end (its close waits for the queue)
    assert summary["over"], summary
    assert summary.get("seed") == Store.open(server.database_url).load(played.id).seed, summary


# --- a window's question left unanswered --------------------------------------------------------


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    """A server in this process, with its hub at hand: a test that times a person's turn moves
    the hub's clock (:meth:`Running.still_clock`) instead of waiting for the machine's."""
    with serving(f"sqlite:///{tmp_path / 'db.sqlite3'}") as served:
        yield served


WINDOW_TIMER = {"turn": 0.5, "bank": 5.0}  # a question left unanswered runs out in half a second
ME = 2  # the person's seat, after two computer players: the one asked in their windows


def window_question(message: Mapping[str, Any]) -> bool:
    """Whether the message asks its seat a window's question (decline / allow or answer)."""
    return any(action["verb"] in ANSWERS for action in message["legal"])


def play_up_to_a_window_question(
    ws: ClientConnection,
    seen: list[dict[str, Any]],
    rng: random.Random,
    message: dict[str, Any] | None = None,
) -> bool:
    """Play every decision at once, at random, from ``message`` (None: the next one) up to
    the first window question (the last of ``seen``); False when the game ended without one."""
    message = receive(ws, seen) if message is None else message
    while "result" not in message["observation"]:
        assert not message["seats"][ME]["away"], "prompt answers never run out of time"
        if window_question(message):
            return True
        if message["legal"]:
            answer(ws, message, rng)
        message = receive(ws, seen)
    return False


def answer(ws: ClientConnection, message: Mapping[str, Any], rng: random.Random) -> None:
    """Send one of the legal actions, at random."""
    choice = rng.choice(message["legal"])["text"]
    ws.send(json.dumps({"action": choice, "move": message["observation"]["move"]}))


def receive(ws: ClientConnection, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """The next message of a connection, a state message, kept in ``seen``."""
    message: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
    assert message.get("type") == "state", f"sent {message}"
    seen.append(message)
    return message


@pytest.mark.parametrize(
    ("game", "variants"), [("apokalypse", []), ("apokerlypse", ["example-content"])]
)
def test_a_window_question_left_unanswered_is_answered_for_and_the_seat_kept(
    running: Running, game: str, variants: list[str]
) -> None:
    """Only the seat asked in a defence (block) window learns that it is asked (R-INFO-3), so
    a question it leaves unanswered must tell nobody who it was: when the turn's time runs out
    a computer player answers that one question for the person, who keeps the seat (not marked
    away) and the whole time bank (one drawn on would tell everybody later who was asked and
    how long they thought), and goes on playing their own decisions. The turn's time passes on
    the hub's clock, moved here: prompt answers take none of it, however busy the machine."""
    ticks = running.still_clock()
    rng = random.Random(f"windows/{game}")
    seats = ["random", "random", "human"]
    for _ in range(5):  # random players attack (or play effects) within a few dozen moves
        body = {"game": game, "players": 3, "seats": seats, "variants": variants}
        response = httpx.post(
            f"{running.http}/api/games", json={**body, "timer": WINDOW_TIMER}, timeout=TIMEOUT
        )
        assert response.status_code == 200, response.text
        created = response.json()
        seen: list[dict[str, Any]] = []
        url = running.ws(created["id"], created["seats"][ME]["token"])
        with connect(url, open_timeout=TIMEOUT) as ws:
            # Every question left to the timer, a forced one too (the server would answer that
            # one for me at once otherwise).
            assert receive(ws, seen)["auto"] is True
            ws.send(json.dumps({"type": "auto", "on": False}))
            while (toggled := receive(ws, seen))["auto"] is not False:
                pass  # the computers' moves before it: my own view tells me it is off
            if not play_up_to_a_window_question(ws, seen, rng, toggled):
                continue
            question = seen[-1]
            clock = question["clock"]
            deciding = clock["deciding"]
            assert deciding["seat"] == ME and clock["bank_ms"] is not None, clock
            # A window's question has the turn's time only: no bank behind it.
            turn = WINDOW_TIMER["turn"]
            assert deciding["remaining_ms"] == deciding["turn_ms"] == turn * 1000, clock
            bank = clock["bank_ms"]

            # I answer nothing: not before the turn's time is up (the timer looks at the clock
            # every tenth of a second meanwhile) …
            ticks.advance(turn * 0.8)
            with pytest.raises(TimeoutError):
                ws.recv(timeout=1.0)
            # … and once it is, a computer player answers for me.
            ticks.advance(turn * 0.4)
            answered = receive(ws, seen)
            shown = answered["observation"]
            assert shown["to_act"] != ME or shown["move"] > question["observation"]["move"], (
                "the question was answered: I am not asked it any more"
            )
            assert not answered["seats"][ME]["away"], "the person keeps the seat"
            assert answered["clock"]["bank_ms"] == bank, "the bank is not drawn on in a window"

            # And I play on: my next decision of my own turn is mine, and my answer taken.
            message = answered
            while "result" not in message["observation"]:
                if message["legal"] and not window_question(message):
                    break
                if message["legal"]:
                    answer(ws, message, rng)
                message = receive(ws, seen)
            if "result" not in message["observation"]:
                assert message["clock"]["deciding"]["seat"] == ME, message["clock"]
                answer(ws, message, rng)
                after = receive(ws, seen)
                assert after["observation"]["move"] > message["observation"]["move"]
        assert not any(m["seats"][ME]["away"] for m in seen), "the seat was never marked away"
        return
    raise AssertionError("no window question in 5 games")


def answer_promptly(url: str, seen: list[dict[str, Any]], stop: threading.Event) -> None:
    """A person who answers every decision at once, at random (in a thread of its own), and
    keeps what it is sent."""
    rng = random.Random(url)
    with connect(url, open_timeout=TIMEOUT) as ws:
        while not stop.is_set():
            try:
                message = json.loads(ws.recv(timeout=0.1))
            except TimeoutError:
                continue
            seen.append(message)
            if message["type"] == "state" and message["legal"]:
                answer(ws, message, rng)


def test_each_person_is_shown_their_own_time_bank(running: Running) -> None:
    """A person who thinks past the turn's time pays the rest from their bank, and is shown it
    shrinking; the other person, prompt, is shown their own bank, full, all along: never the
    other's (a bank shown to others would tell them how long its seat thought, in a window who
    was asked). The time passes on the hub's clock, moved here while the slow person thinks:
    what each decision costs is known to the millisecond, however busy the machine."""
    ticks = running.still_clock()
    timer, slow = {"turn": 1.0, "bank": 5.0}, 2  # two decisions 0.5 s past the turn's time
    body = {"game": "apokalypse", "players": 2, "seats": ["human", "human"], "timer": timer}
    response = httpx.post(f"{running.http}/api/games", json=body, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    created = response.json()
    tokens = [seat["token"] for seat in created["seats"]]
    stop = threading.Event()
    prompt: list[dict[str, Any]] = []
    friend = threading.Thread(
        target=answer_promptly, args=(running.ws(created["id"], tokens[1]), prompt, stop)
    )
    friend.start()
    rng = random.Random(2)
    seen: list[dict[str, Any]] = []
    try:
        with connect(running.ws(created["id"], tokens[0]), open_timeout=TIMEOUT) as ws:
            message = receive(ws, seen)
            thought = 0
            answered: set[int] = set()  # each decision once: a message about the seats (the
            # friend connecting) may show the same decision again
            while thought < slow and "result" not in message["observation"]:
                move = message["observation"]["move"]
                if message["legal"] and move not in answered:
                    if not window_question(message):  # (a window's question has no bank)
                        ticks.advance(timer["turn"] + 0.5)  # a person thinking past the turn
                        thought += 1
                    answer(ws, message, rng)
                    answered.add(move)
                message = receive(ws, seen)
    finally:
        stop.set()
        friend.join(TIMEOUT)
    assert thought == slow, "the game ended too soon"
    mine = [m["clock"]["bank_ms"] for m in seen]
    full = round(timer["bank"] * 1000)
    # Each slow decision cost its half second past the turn, no more, no less.
    assert mine[0] == full and mine[-1] == full - slow * 500, mine
    assert mine == sorted(mine, reverse=True), "my bank only shrinks"
    assert set(mine) == {full - k * 500 for k in range(slow + 1)}, mine
    banks = {m["clock"]["bank_ms"] for m in prompt if m["type"] == "state"}
    assert banks == {full}, f"the prompt person was shown other banks than theirs: {banks}"


# --- the checker is no rubber stamp ------------------------------------------------------------


def honest_clock(
    table: Table, seat: int | None, moment: Moment, banks: Sequence[float]
) -> dict[str, Any] | None:
    """The clock a correct server shows ``seat`` now: its own bank, and the clock of the person
    deciding where its observation shows who that is (no bank in a window). The time left is
    the whole turn: the messages are built here, in no time."""
    if table.turn is None:
        return None
    shown = moment.observation["to_act"]
    deciding = None
    if shown is not None and table.kinds[shown] == "human":
        turn = round(table.turn * 1000)
        bank = 0 if moment.window else round(banks[shown] * 1000)
        deciding = {"seat": shown, "turn_ms": turn, "remaining_ms": turn + bank}
    mine = None if seat is None else round(banks[seat] * 1000)
    return {"turn_s": table.turn, "bank_ms": mine, "deciding": deciding}


def honest_message(
    table: Table,
    now: Snapshot,
    seat: int | None,
    events: Sequence[Event],
    banks: Sequence[float] = (),
) -> tuple[dict[str, Any], Moment]:
    """The message a correct server sends ``seat`` now, built here from the engine; ``banks``:
    each seat's time bank (seconds; full where not given)."""
    names = seat_names(table.players, seat, table.lang)
    moment = now.moment(seat)
    deciding = bool(moment.actions) and seat is not None
    views = [e.view(seat) for e in events]
    lines = table.texts.render_indexed(views, names)
    full = [table.bank or 0.0] * table.players
    message = {
        "type": "state",
        "wire": WIRE_VERSION,
        "seat": seat,
        "names": names,
        "seats": [
            {"seat": q, "kind": kind, "connected": True, "away": False}
            for q, kind in enumerate(table.kinds)
        ],
        "observation": moment.observation,
        "events": [view.to_json() for view in views],
        "legal": [table.parts(a) for a in moment.actions],
        "text": {
            "log": [line for _, line in lines],
            "log_events": [index for index, _ in lines],
            "question": table.texts.decision_text(seat, moment.observation, names)
            if deciding and seat is not None
            else "",
            "choices": [
                table.texts.render_action(a, moment.observation, names) for a in moment.actions
            ],
        },
        "cards": table.cards,
        "forecast": moment.forecast,
        "clock": honest_clock(table, seat, moment, banks or full),
        "rematch": None,
        "auto": None if seat is None else True,
        "coach": expected_coach(table, seat),
        "tutorial": None,
    }
    return wire(message), moment


def in_window(state: GameState) -> bool:
    """Whether somebody decides whom the public observation does not show."""
    return not state.is_over and state.observation(None)["to_act"] is None


def test_the_checker_fails_every_kind_of_leak() -> None:
    """Messages built here, an honest one and others each with one leak: the checker passes the
    first and fails every other, so the test above cannot pass by checking nothing."""
    seats = ("human", "human", "human")
    game = get_game("apokalypse")
    config = game.config_from_options(len(seats), [], None)
    seed = 987654321987
    timer = {"turn": TIMER[0], "bank": TIMER[1]}
    record = GameRecord(game.name, game.version, config.to_json(), seed, meta={"timer": timer})
    table = Table.of(record, seed, seats, "en")
    state = game.new_game(config, seed)
    events = list(state.opening)
    rng = random.Random(seed)

    def others_cards() -> bool:  # a card the seat after the one to act may not see, that one may
        seat = (state.to_act + 1) % len(seats)
        return any(hidden_from(e, seat) and state.to_act in e.seen_by for e in events)

    while not others_cards():  # the first deal
        events += state.apply(rng.choice(list(state.legal_actions())))
    tokens = {q: f"token-of-seat-{q}-{'x' * 24}" for q in range(len(seats))}

    def viewer_of(seat: int | None) -> Viewer:
        return Viewer(seat, frozenset(t for q, t in tokens.items() if q != seat))

    other = state.to_act  # deciding now
    seat = (other + 1) % len(seats)  # not deciding
    viewer, spectator = viewer_of(seat), viewer_of(None)

    def check(viewer: Viewer, message: dict[str, Any], moment: Moment) -> None:
        check_message(table, viewer, message, events, True, [moment])

    now = Snapshot(table, state)
    honest, moment = honest_message(table, now, seat, events)
    check(viewer, honest, moment)  # passes
    watched, public = honest_message(table, now, None, events)
    check(spectator, watched, public)
    deciding, to_act = honest_message(table, now, other, events)
    check(viewer_of(other), deciding, to_act)
    assert deciding["legal"] and not honest["legal"]
    assert honest["clock"]["deciding"]["seat"] == other, "a public decision's clock is public"

    theirs, _ = honest_message(table, now, other, events)
    leaks: dict[str, tuple[Viewer, dict[str, Any], Moment]] = {}

    def leak(
        name: str, change: Any, viewer: Viewer = viewer, base: Any = honest, when: Any = None
    ) -> None:
        message = json.loads(json.dumps(base))
        change(message)
        leaks[name] = (viewer, message, when or (public if viewer.seat is None else moment))

    leak(
        "another seat's hand", lambda m: m["observation"].update(hand=theirs["observation"]["hand"])
    )
    leak("a raw event", lambda m: m["events"].__setitem__(0, wire(events[0].digest_form())))
    leak("another seat's events", lambda m: m.update(events=theirs["events"]))
    secret = next(i for i, e in enumerate(events) if hidden_from(e, seat) and other in e.seen_by)
    leak(
        "a secret in an event view",
        lambda m: m["events"].__setitem__(secret, wire(events[secret].view(other).to_json())),
    )
    leak(
        "another seat's log",
        lambda m: m["text"].update(
            log=table.texts.render_events(
                [e.view(other) for e in events], seat_names(len(seats), seat, "en")
            )
        ),
    )
    leak("another seat's legal actions", lambda m: m.update(legal=deciding["legal"]))
    leak(
        "a legal action's parts not the action's",
        lambda m: m["legal"][0].update(verb="pass" if m["legal"][0]["verb"] != "pass" else "back"),
        viewer_of(other),
        deciding,
        to_act,
    )
    leak("another seat's token", lambda m: m["text"].update(question=tokens[other]))
    leak("the seed", lambda m: m["observation"].update(seed=seed))
    leak("a new field", lambda m: m.update(hands=[theirs["observation"]["hand"]]))
    leak(
        "a card in a name",
        lambda m: m["names"].__setitem__(other, theirs["observation"]["hand"][0]),
    )
    leak("the seed, in passing", lambda m: m["text"]["log"].append(f"game {seed}"))
    leak("a forecast other than the public one's", lambda m: m.update(forecast={"horseman": 9}))
    leak(
        "a spectator's hand",
        lambda m: m["observation"].update(hand=theirs["observation"]["hand"]),
        spectator,
        watched,
    )
    leak(
        "a spectator's seen event", lambda m: m.update(events=theirs["events"]), spectator, watched
    )
    leak(
        "a spectator's rematch token",
        lambda m: m.update(rematch={"id": "x", "token": "y"}),
        spectator,
        watched,
    )
    # Clocks: only the viewer's own bank, a decision's clock only where it shows who decides.
    leak("a spectator's time bank", lambda m: m["clock"].update(bank_ms=25_000), spectator, watched)
    leak("every seat's bank", lambda m: m["clock"].update(bank_ms=[30_000] * len(seats)), viewer)
    leak(
        "a clock naming a seat not deciding",
        lambda m: m["clock"]["deciding"].update(seat=seat),
    )
    for name, (who, message, when) in leaks.items():
        with pytest.raises(AssertionError):
            check(who, message, when)
            pytest.fail(f"the checker let through {name}")

    # The log check on its own: it names the cards another seat's log gives away.
    names = seat_names(len(seats), seat, "en")
    lines = table.texts.render_events([e.view(other) for e in events], names)
    allowed = "\n".join(expected_log(table, viewer, events, names))
    assert hidden_cards_named(table, viewer, events, lines, allowed)
    assert not hidden_cards_named(table, viewer, events, honest["text"]["log"], allowed)

    # In a window only the seat asked learns that it is asked: its clock, shown to anybody
    # else (or with a bank: a bank drawn on would tell everybody later), tells who it is.
    while not in_window(state):
        assert not state.is_over, "a game without a window"
        events += state.apply(rng.choice(list(state.legal_actions())))
    asked = state.to_act
    seat = next(q for q in range(len(seats)) if q != asked)
    viewer = viewer_of(seat)
    now = Snapshot(table, state)
    honest, moment = honest_message(table, now, seat, events)
    watched, public = honest_message(table, now, None, events)
    questioned, to_act = honest_message(table, now, asked, events)
    for who, message, when in ((viewer, honest, moment), (spectator, watched, public)):
        check(who, message, when)
        assert message["clock"]["deciding"] is None and message["observation"]["to_act"] is None
    check(viewer_of(asked), questioned, to_act)
    assert questioned["clock"]["deciding"]["seat"] == asked
    leaks.clear()
    asked_clock = questioned["clock"]["deciding"]
    leak("the asked seat's clock", lambda m: m["clock"].update(deciding=asked_clock))
    leak(
        "the asked seat's clock, to a spectator",
        lambda m: m["clock"].update(deciding=asked_clock),
        spectator,
        watched,
    )
    leak(
        "a window's decision drawing on the bank",
        lambda m: m["clock"]["deciding"].update(remaining_ms=asked_clock["turn_ms"] + 30_000),
        viewer_of(asked),
        questioned,
        to_act,
    )
    for name, (who, message, when) in leaks.items():
        with pytest.raises(AssertionError):
            check(who, message, when)
            pytest.fail(f"the checker let through {name}")


def served_here(name: str, players: int, seed: int) -> tuple[Played, GameRecord]:
    """A random timed game with every message a correct server would send (a message to a
    connection whenever its view changed; each person's decisions outside windows drawing on
    their bank now and then) and a summary polled in every state, built here from the engine:
    the game-level checker's input without a server."""
    game = get_game(name)
    config = game.config_from_options(players, list(EXAMPLE) if name == "apokerlypse" else [], None)
    timer = {"turn": TIMER[0], "bank": TIMER[1]}
    record = GameRecord(game.name, game.version, config.to_json(), seed, meta={"timer": timer})
    seats = ("human",) * players
    table = Table.of(record, seed, seats, "en")
    state = game.new_game(config, seed)
    tokens = {q: f"token-{q}-{'x' * 26}" for q in range(players)}
    clients = [Client(None, None), *(Client(q, token) for q, token in tokens.items())]
    played = Played(Plan(name, seats, timer=TIMER), "here", tokens, clients)
    log = list(state.opening)
    sent = [0] * len(clients)
    banks = [TIMER[1]] * players
    rng = random.Random(seed)
    while True:
        now = Snapshot(table, state)
        for c, client in enumerate(clients):
            message, _ = honest_message(table, now, client.seat, log[sent[c] :], banks)
            if client.received:
                message["cards"] = None  # the facts are in a connection's first message only
                if not message["events"] and said(message) == said(client.received[-1]):
                    continue  # nothing new for this viewer: nothing sent
            client.received.append(message)
            client.arrived.append(float(len(record.actions)))  # a second a move
            sent[c] = len(log)
        public = state.observation(None)
        summary = {
            "id": played.id,
            "game": name,
            "players": players,
            "seats": [{"seat": q, "kind": kind} for q, kind in enumerate(seats)],
            "lang": "en",
            "move": public["move"],
            "over": state.is_over,
            "result": None,
        }
        if state.is_over:
            summary["seed"] = seed
        played.summaries.append(wire(summary))
        if state.is_over:
            break
        decider, window = state.to_act, now.window
        action = rng.choice(list(state.legal_actions()))
        record.actions.append(str(action))
        log += state.apply(action)
        if not window:  # a window's decision never draws on the bank
            banks[decider] = max(0.0, banks[decider] - rng.choice((0.0, 0.0, 0.7)))
    talk_here(played)
    return played, record


def talk_here(played: Played) -> None:
    """The table talk a correct server sends: each person's line to everybody at once, the
    spectator's line to the spectator at once and to the players after the game's last
    message."""

    def talk(*lines: dict[str, Any]) -> dict[str, Any]:
        return {"type": "talk", "wire": WIRE_VERSION, "lines": list(lines)}

    hellos = [
        {"n": n, "channel": "players", "seat": q, "name": name, "text": HELLO["text"], "at": n}
        for n, (q, name) in enumerate(played.shown.items(), 1)
    ]
    whisper = {"n": 1, "channel": "spectators", "seat": None, "name": "Spectator"}
    whisper |= {"text": WHISPER, "at": 0}
    for client in played.clients:
        client.talk.append((1, talk(*hellos)))
        if client.seat is None:
            client.talk.append((1, talk(whisper)))
        else:
            client.talk.append((len(client.received), talk(whisper)))


def whisper_to_a_player(played: Played) -> None:
    """The spectator's line reaches a player while the game runs."""
    player = played.clients[1]
    player.talk = [(after if after == 1 else 2, message) for after, message in player.talk]


def another_speakers_name(played: Played) -> None:
    """A person's line under another person's name."""
    after, message = played.clients[2].talk[0]
    lines = [{**line, "name": line["name"] + "!"} for line in message["lines"]]
    played.clients[2].talk[0] = (after, {**message, "lines": lines})


def copied(played: Played) -> Played:
    """A copy of what a game's connections received and its summaries, to spoil: the lists
    copied, each message to change copied by :func:`own`."""
    clients = [
        Client(c.seat, c.token, list(c.received), list(c.arrived), talk=list(c.talk))
        for c in played.clients
    ]
    return replace(played, clients=clients, summaries=list(played.summaries))


def own(messages: list[dict[str, Any]], k: int) -> dict[str, Any]:
    """The ``k``-th of a spoilt copy's messages, copied itself to be changed."""
    messages[k] = json.loads(json.dumps(messages[k]))
    return messages[k]


def window_message(client: Client) -> int:
    """The index of a message the client was sent in a window it is not asked in."""
    return next(
        k
        for k, message in enumerate(client.received)
        if message["observation"]["to_act"] is None and "result" not in message["observation"]
    )


def an_unchanged_message(played: Played) -> None:
    """The spectator is sent, in a window, a message that tells nothing new (as when every
    hidden answer pushed a message to everybody)."""
    spectator = played.clients[0]
    k = window_message(spectator)
    again = {**spectator.received[k], "events": []}
    again["text"] = {**again["text"], "log": [], "log_events": []}
    again["cards"] = None
    spectator.received.insert(k + 1, again)
    spectator.arrived.insert(k + 1, spectator.arrived[k] + 0.5)


def another_seats_bank(played: Played) -> None:
    """A seat is shown another seat's bank while neither decides: it changes under its eyes."""
    mine, theirs = played.clients[1], played.clients[2]
    for k in range(1, len(mine.received)):
        if mine.received[k - 1]["observation"]["to_act"] == mine.seat:
            continue
        when = mine.arrived[k]
        bank = [
            m["clock"]["bank_ms"]
            for m, t in zip(theirs.received, theirs.arrived, strict=True)
            if t <= when
        ]
        if bank and bank[-1] != mine.received[k]["clock"]["bank_ms"]:
            own(mine.received, k)["clock"]["bank_ms"] = bank[-1]
            return
    raise AssertionError("the two seats' banks never differed")


def the_asked_seats_clock(played: Played) -> None:
    """The spectator is shown, in a window, the clock of the seat asked."""
    spectator = played.clients[0]
    clock = own(spectator.received, window_message(spectator))["clock"]
    clock["deciding"] = {"seat": 1, "turn_ms": 600_000, "remaining_ms": 600_000}


def a_true_move_in_a_window(played: Played) -> None:
    """A summary reports the true move in a window (its answers counted), where the public one
    stays where the window opened. (A summary was polled in every state: the i-th in the
    state after i moves.)"""
    state = next(i for i, summary in enumerate(played.summaries) if summary["move"] < i)
    played.summaries[state] = {**played.summaries[state], "move": state}


@pytest.mark.long(26)
@pytest.mark.parametrize(("name", "seed"), [("apokalypse", 20261126), ("apokerlypse", 20261124)])
def test_the_game_checker_passes_an_honest_server_and_fails_one_leak(name: str, seed: int) -> None:
    """The whole replay and fitting machinery, on messages built here: a correct stream passes,
    windows included (messages showing the move where a window opened, nothing sent to those
    not asked while it is open); the same stream with one leak fails, by message content, by
    message presence, by the clock or by a summary."""
    played, record = served_here(name, 3, seed)  # a short game, with windows
    tally = check_game(played, record, record.seed)
    assert tally.lagging > 0 and tally.withheld > 0, tally
    assert tally.windows > 0 and tally.frozen > 0 and tally.clocks > 0, tally
    mine, theirs = played.clients[1].received, played.clients[2].received
    middle = (
        next(  # a message after the first quarter with events the other seat's views differ from
            k
            for k in range(len(mine) // 4, min(len(mine), len(theirs)))
            if mine[k]["events"] and mine[k]["events"] != theirs[k]["events"]
        )
    )

    def content(change: Callable[[dict[str, Any], dict[str, Any]], Any]) -> Any:
        return lambda p: change(own(p.clients[1].received, middle), p.clients[2].received[middle])

    leaks: dict[str, Callable[[Played], Any]] = {
        "another seat's observation": content(
            lambda mine, theirs: mine.update(
                observation={**theirs["observation"], "seat": mine["observation"]["seat"]}
            )
        ),
        "another seat's events": content(lambda mine, theirs: mine.update(events=theirs["events"])),
        "an event twice": content(lambda mine, theirs: mine["events"].append(mine["events"][-1])),
        "an event less": content(lambda mine, theirs: mine["events"].pop()),
        "an unchanged message in a window": an_unchanged_message,
        "another seat's bank": another_seats_bank,
        "the asked seat's clock in a window": the_asked_seats_clock,
        "a summary with a true move in a window": a_true_move_in_a_window,
        "a spectator's line to a player while the game runs": whisper_to_a_player,
        "a line under another name": another_speakers_name,
    }
    for leak, change in leaks.items():
        spoilt = copied(played)
        change(spoilt)
        with pytest.raises(AssertionError):
            check_game(spoilt, record, record.seed)
            pytest.fail(f"the game checker let through {leak}")
