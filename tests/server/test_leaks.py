"""Nothing leaks through the real server: many games, every seat a person's or a computer
player's, played to their end through ``apokalypse serve`` by clients over WebSockets (each
person's seat by a client with its own seat token, choosing at random among the ``legal``
actions it is sent, plus a spectator per game); every message every connection received is then
checked against what that connection may know.

The truth is rebuilt independently once a game is over: its seed is public then (``GET
/api/games/{id}``), its actions are in the server's database, and the engine replays them step
by step. For each message, at the state it was sent in:

- ``observation`` is ``state.observation(seat)`` (None for the spectator), ``events`` exactly the
  views ``event.view(seat).to_json()`` of the events since that connection's previous message,
  ``legal`` the engine's legal actions for the seat to act and empty for everybody else;
- no message holds a raw event's ``secret`` or ``seen_by``, another seat's token, or the seed of
  a game not over yet; a spectator's holds no private field of any seat;
- the sentences (``text``) say no more than the viewer's own views: the log is what those views
  say with every hidden secret blanked out, and names no hidden card more often than they do;
  the question and the wording of the choices come from the viewer's own observation;
- the other fields: ``seat``, ``names`` (who is who, and which is "you": nothing else), ``seats``
  (kinds only), ``cards`` (the public card facts, in a connection's first message),
  ``forecast`` (that of the public observation), ``clock`` (none without a timer), ``rematch``
  (a token only for a seated viewer; every seat's key opens that very seat of the new game); a
  field the test does not know fails it until it is checked here too.

The clients keep a little inside the server's rate limit, as people do; the games' seeds are the
server's, so each run plays other games.

Which state a message was sent in is mostly its ``observation.move``. In a defence (or block)
window a player not asked sees the move where the window opened, whoever is asked now: such a
message is checked against the states it may have been sent in, and must match one of them.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from apokalypse.engine.events import Event
from apokalypse.engine.protocol import Game, GameState
from apokalypse.engine.record import GameRecord, apply_recorded
from apokalypse.engine.registry import get_game
from apokalypse.games.apokalypse import Config as ApokalypseConfig
from apokalypse.games.apokalypse.cards import CardKind, deck_kinds
from apokalypse.games.apokalypse.forecast import forecast
from apokalypse.i18n import seat_names
from apokalypse.i18n.texts import Texts, texts_for
from apokalypse.server.app import BURST, RATE
from apokalypse.server.store import Store
from apokalypse.wire import WIRE_VERSION

from .test_app import TIMEOUT, Server
from .test_app import server as server  # the same fixture: one real server process

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
    | {"cards", "forecast", "clock", "rematch"}
)
BLANK = "zz-blanked"  # what a hidden secret reads as in the log the viewer may be shown
PLAY_SECONDS = 120.0  # all games together; they take some 20 s


@dataclass(frozen=True)
class Plan:
    game: str
    seats: tuple[str, ...]
    lang: str = "en"
    variants: tuple[str, ...] = ()
    rematch: bool = False  # once over, the first person asks for a rematch (if served)
    timer: tuple[float, float] | None = None  # (turn, bank) seconds


EXAMPLE = ("example-content",)  # Apokerlypse's card effects: peeks, takes, gifts, swaps
PLANS = (
    Plan("apokalypse", ("human", "heuristic"), rematch=True),
    Plan("apokalypse", ("heuristic", "human"), "de", ("edition-2008",)),
    Plan("apokalypse", ("heuristic", "human", "human")),
    Plan("apokalypse", ("human", "heuristic", "human", "heuristic"), "de", ("ethos-balanced",)),
    Plan("apokalypse", ("heuristic", "human", "random", "human", "random"), "en", ("good-team",)),
    Plan("apokalypse", ("human", "random", "human", "random", "heuristic", "random")),
    Plan("apokerlypse", ("human", "random"), "en", EXAMPLE, rematch=True),
    Plan("apokerlypse", ("human", "human", "heuristic"), "de", EXAMPLE),
    Plan("apokerlypse", ("random", "human", "human", "human"), "en", ("short-table",)),
    Plan("apokerlypse", ("human", "heuristic", "human", "random"), "de", EXAMPLE),
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
    timer: bool  # whether people's decisions are timed

    @classmethod
    def of(cls, record: GameRecord, seed: int, kinds: Sequence[str], lang: str) -> Table:
        game = get_game(record.game)
        texts = texts_for(record.game, record.config, lang)
        deck = None
        if record.game == "apokalypse":
            deck = deck_kinds(ApokalypseConfig.from_json(dict(record.config)).deck_text)
        players = game.config_from_json(record.config).players
        timer = record.meta.get("timer") is not None
        cards = texts.cards()
        return cls(game, record.game, players, tuple(kinds), lang, seed, texts, cards, deck, timer)


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

    @property
    def shown(self) -> Any:
        return wire(self.observation)


class Snapshot:
    """One state of a game, as each viewer may know it (computed once, when asked)."""

    def __init__(self, table: Table, state: GameState) -> None:
        self.table = table
        self.state = state
        self.forecast: Any = None
        if table.deck is not None:
            self.forecast = wire(forecast(state.observation(None), table.deck).to_json())
        self.moments: dict[int | None, Moment] = {}

    def moment(self, seat: int | None) -> Moment:
        if seat not in self.moments:
            state = self.state
            deciding = not state.is_over and seat is not None and state.to_act == seat
            actions = list(state.legal_actions()) if deciding else []
            self.moments[seat] = Moment(state.observation(seat), actions, self.forecast)
        return self.moments[seat]


def names_of(table: Table, viewer: Viewer, message: Mapping[str, Any]) -> list[str]:
    """The seat names the viewer's sentences use ("p2 (you)"): what ``names`` must be, where
    the message has them (they tell who is who, and which seat is the viewer's, nothing else)."""
    names = seat_names(table.players, viewer.seat, table.lang)
    assert message.get("names", names) == names, f"names {message['names']} for seat {viewer.seat}"
    return names


def expected_log(
    table: Table, viewer: Viewer, events: Sequence[Event], names: Sequence[str]
) -> list[str]:
    """The log lines the viewer's own views of ``events`` say: rendered from the events with
    every secret the viewer may not see blanked out."""
    lines = table.texts.render_events([blinded(e, viewer.seat) for e in events], viewer.seat, names)
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
    assert set(message["text"]) == {"log", "question", "choices"}, message["text"]
    lines = message["text"]["log"]
    allowed = expected_log(table, viewer, events, names)
    leaked = hidden_cards_named(table, viewer, events, lines, "\n".join(allowed))
    assert not leaked, f"seat {seat}'s log names hidden cards {leaked}: {lines}"
    assert lines == allowed, f"seat {seat}'s log says more (or other) than its views of the events"

    if first:
        assert "cards" in message, "a connection's first message has the card facts"
    if "cards" in message:
        assert message["cards"] == wire(table.cards)

    # The newer fields, where sent.
    if "seat" in message:
        assert message["seat"] == seat
    if "seats" in message:
        assert all(set(s) <= {"seat", "kind", "connected", "away"} for s in message["seats"])
        assert [s["seat"] for s in message["seats"]] == list(range(table.players))
        assert [s["kind"] for s in message["seats"]] == list(table.kinds)
    clock = message.get("clock")
    if clock is not None:
        assert table.timer, "a clock in a game without a timer"
        assert set(clock) == {"seat", "remaining_ms", "bank_ms", "turn_s"}, clock
        assert len(clock["bank_ms"]) == table.players, clock
        # Whose clock runs is whose decision it is, as far as the viewer may know that: in a
        # window only the asked player learns that they are asked.
        assert clock["seat"] == message["observation"]["to_act"], (
            f"seat {seat} was told seat {clock['seat']} is deciding: {message['observation']}"
        )
        assert table.kinds[clock["seat"]] == "human", clock
    if message.get("rematch") is not None:
        rematch = message["rematch"]
        assert isinstance(rematch.get("id"), str), rematch
        assert set(rematch) <= {"id", "token"}, rematch
        if seat is None:
            assert "token" not in rematch, "a spectator was sent a rematch token"


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
    legal = [str(action) for action in moment.actions]
    if message["legal"] != legal:
        return f"seat {seat} was sent legal {message['legal'][:5]}, the engine says {legal[:5]}"
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


# --- playing through the server ----------------------------------------------------------------


@dataclass
class Client:
    """One connection: a seat's (with its token) or the spectator's, and what it received."""

    seat: int | None
    token: str | None
    received: list[dict[str, Any]] = field(default_factory=list)
    error: BaseException | None = None


@dataclass
class Played:
    plan: Plan
    id: str
    tokens: dict[int, str]  # seat → its token, the people's seats
    clients: list[Client]  # the spectator first
    # A message that ends the game's play for every client at once (None: play to the end).
    enough: Callable[[dict[str, Any]], bool] | None = None
    stop: threading.Event = field(default_factory=threading.Event)


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


def play_client(server: Server, played: Played, client: Client, rng: random.Random) -> None:
    """Receive everything until the game is over, answering each decision with a random legal
    action; then, in a rematch game, ask for (the first person) or wait for the rematch."""
    first_person = client.seat is not None and client.seat == min(played.tokens)
    with connect(server.ws(played.id, client.token), open_timeout=TIMEOUT, max_size=None) as ws:

        def receive() -> dict[str, Any]:
            message: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
            client.received.append(message)
            assert message.get("type") == "state", f"seat {client.seat} was sent {message}"
            if played.enough is not None and played.enough(message):
                played.stop.set()
            return message

        acted = -1  # the move this client last acted at: one action per decision
        pace = Pace()
        message = receive()
        while "result" not in message["observation"]:
            if played.stop.is_set():
                return
            move = message["observation"]["move"]
            if message["legal"] and move > acted:
                acted = move
                action = rng.choice(message["legal"])
                pace.take()
                ws.send(json.dumps({"type": "action", "action": action, "move": move}))
            message = receive()
        if played.plan.rematch and "rematch" in message:
            if first_person:
                ws.send(json.dumps({"type": "rematch"}))
            while message.get("rematch") is None:
                message = receive()


def play_all(server: Server, games: Sequence[Played]) -> None:
    """Every client of every game at once, one thread each."""

    def run(played: Played, client: Client, rng: random.Random) -> None:
        try:
            play_client(server, played, client, rng)
        except BaseException as exc:  # reported by the test, with the seat
            client.error = exc

    threads = [
        threading.Thread(
            target=run,
            args=(played, client, random.Random(f"{SEED}/{g}/{client.seat}")),
            daemon=True,  # a client stuck past the deadline does not hold up the test run
        )
        for g, played in enumerate(games)
        for client in played.clients
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + PLAY_SECONDS
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    assert not any(thread.is_alive() for thread in threads), "games still running"
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

    def count(self, viewer: Viewer, message: Mapping[str, Any], events: Sequence[Event]) -> None:
        self.messages += 1
        self.withheld += any(hidden_from(e, viewer.seat) for e in events)
        self.seen += any(e["seen"] for e in message["events"])
        self.deciding += bool(message["legal"])

    def add(self, other: Tally) -> None:
        for name in ("messages", "withheld", "seen", "deciding", "lagging"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def check_game(played: Played, record: GameRecord, seed: int) -> Tally:
    """Replay the game from its public seed and stored actions, checking every message of every
    connection at the state it was sent in; what the messages held."""
    assert record.seed == seed, "the stored seed is the one made public"
    table = Table.of(record, seed, played.plan.seats, played.plan.lang)
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

    log = list(state.opening)
    lengths = [len(log)]  # how many events there were after each move
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
    assert summary["seats"] == [{"seat": q, "kind": k} for q, k in enumerate(played.plan.seats)]
    assert "seed" not in summary and not summary["over"]


def test_no_message_of_many_served_games_tells_a_seat_more_than_it_may_know(
    server: Server,
) -> None:
    games = [start_game(server, plan) for plan in PLANS]
    play_all(server, games)
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
    # Every message was checked, and there were plenty, with secrets withheld and shown.
    assert tally.messages == sum(len(c.received) for played in games for c in played.clients)
    assert tally.messages > 1000 and tally.withheld > 200 and tally.seen > 100, tally
    assert tally.deciding > 300, tally


def test_the_seed_of_a_finished_game_is_public_while_it_is_watched(server: Server) -> None:
    played = start_game(server, Plan("apokerlypse", ("human", "heuristic")))  # a short game
    with connect(server.ws(played.id), open_timeout=TIMEOUT) as watcher:  # looks at the end
        play_all(server, [played])
        summary = httpx.get(f"{server.http}/api/games/{played.id}", timeout=TIMEOUT).json()
        while "result" not in json.loads(watcher.recv(timeout=TIMEOUT))["observation"]:
            pass  # what it was sent, to the end (its close waits for what is queued)
    assert summary["over"], summary
    assert summary.get("seed") == Store.open(server.database_url).load(played.id).seed, summary


def tells_who_decides(message: Mapping[str, Any]) -> bool:
    """Whether the message's clock names a seat deciding that its observation does not show."""
    clock = message.get("clock")
    return clock is not None and clock["seat"] != message["observation"]["to_act"]


def test_the_clock_tells_nobody_who_is_asked_in_a_defence_window(server: Server) -> None:
    plan = Plan("apokalypse", ("human", "human", "human"), timer=(600.0, 0.0))
    played = start_game(server, plan)
    played.enough = tells_who_decides  # the first one is enough
    play_all(server, [played])
    hidden = [  # messages sent while somebody the viewer may not know of decides
        message
        for client in played.clients
        for message in client.received
        if message["observation"]["to_act"] is None and "result" not in message["observation"]
    ]
    assert hidden, "a defence window: somebody was asked whom the others may not know"
    told = [
        (client.seat, message["observation"]["move"], message["clock"]["seat"])
        for client in played.clients
        for message in client.received
        if tells_who_decides(message)
    ]
    assert not told, f"(viewer, move, the seat its clock named) {told[:5]}"


# --- the checker is no rubber stamp ------------------------------------------------------------


def honest_message(
    table: Table, now: Snapshot, seat: int | None, events: Sequence[Event]
) -> tuple[dict[str, Any], Moment]:
    """The message a correct server sends ``seat`` now, built here from the engine."""
    names = seat_names(table.players, seat, table.lang)
    moment = now.moment(seat)
    deciding = bool(moment.actions) and seat is not None
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
        "events": [e.view(seat).to_json() for e in events],
        "legal": [str(a) for a in moment.actions],
        "text": {
            "log": table.texts.render_events(events, seat, names),
            "question": table.texts.decision_text(seat, moment.observation, names)
            if deciding and seat is not None
            else "",
            "choices": [
                table.texts.render_action(a, moment.observation, names) for a in moment.actions
            ],
        },
        "cards": table.cards,
        "forecast": moment.forecast,
        "clock": None,
        "rematch": None,
    }
    return wire(message), moment


def test_the_checker_fails_every_kind_of_leak() -> None:
    """Messages built here, an honest one and others each with one leak: the checker passes the
    first and fails every other, so the test above cannot pass by checking nothing."""
    seats = ("human", "human", "human")
    game = get_game("apokalypse")
    config = game.config_from_options(len(seats), [], None)
    seed = 987654321987
    record = GameRecord(game.name, game.version, config.to_json(), seed)
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
    other = state.to_act  # deciding now
    seat = (other + 1) % len(seats)  # not deciding
    viewer = Viewer(seat, frozenset(t for q, t in tokens.items() if q != seat))
    spectator = Viewer(None, frozenset(tokens.values()))

    def check(viewer: Viewer, message: dict[str, Any], moment: Moment) -> None:
        check_message(table, viewer, message, events, True, [moment])

    now = Snapshot(table, state)
    honest, moment = honest_message(table, now, seat, events)
    check(viewer, honest, moment)  # passes
    watched, public = honest_message(table, now, None, events)
    check(spectator, watched, public)
    deciding, to_act = honest_message(table, now, other, events)
    check(Viewer(other, frozenset(t for q, t in tokens.items() if q != other)), deciding, to_act)
    assert deciding["legal"] and not honest["legal"]

    theirs, _ = honest_message(table, now, other, events)
    leaks: dict[str, tuple[Viewer, dict[str, Any], Moment]] = {}

    def leak(name: str, change: Any, viewer: Viewer = viewer, base: Any = honest) -> None:
        message = json.loads(json.dumps(base))
        change(message)
        leaks[name] = (viewer, message, public if viewer.seat is None else moment)

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
            log=table.texts.render_events(events, other, seat_names(len(seats), seat, "en"))
        ),
    )
    leak("another seat's legal actions", lambda m: m.update(legal=deciding["legal"]))
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
    for name, (who, message, when) in leaks.items():
        with pytest.raises(AssertionError):
            check(who, message, when)
            pytest.fail(f"the checker let through {name}")

    # The log check on its own: it names the cards another seat's log gives away.
    lines = table.texts.render_events(events, other, seat_names(len(seats), seat, "en"))
    allowed = "\n".join(expected_log(table, viewer, events, seat_names(len(seats), seat, "en")))
    assert hidden_cards_named(table, viewer, events, lines, allowed)
    assert not hidden_cards_named(table, viewer, events, honest["text"]["log"], allowed)


def served_here(name: str, players: int, seed: int) -> tuple[Played, GameRecord]:
    """A random game with every message a correct server would send (a message to every
    connection after every action), built here from the engine: the game-level checker's input
    without a server."""
    game = get_game(name)
    config = game.config_from_options(players, list(EXAMPLE) if name == "apokerlypse" else [], None)
    record = GameRecord(game.name, game.version, config.to_json(), seed)
    seats = ("human",) * players
    table = Table.of(record, seed, seats, "en")
    state = game.new_game(config, seed)
    tokens = {q: f"token-{q}-{'x' * 26}" for q in range(players)}
    clients = [Client(None, None), *(Client(q, token) for q, token in tokens.items())]
    log = list(state.opening)
    sent = [0] * len(clients)
    rng = random.Random(seed)
    while True:
        now = Snapshot(table, state)
        for c, client in enumerate(clients):
            message, _ = honest_message(table, now, client.seat, log[sent[c] :])
            if sent[c]:
                del message["cards"]  # in a connection's first message only
            client.received.append(message)
            sent[c] = len(log)
        if state.is_over:
            break
        action = rng.choice(list(state.legal_actions()))
        record.actions.append(str(action))
        log += state.apply(action)
    return Played(Plan(name, seats), "here", tokens, clients), record


@pytest.mark.parametrize(("name", "seed"), [("apokalypse", 20261126), ("apokerlypse", 20261124)])
def test_the_game_checker_passes_an_honest_server_and_fails_one_leak(name: str, seed: int) -> None:
    """The whole replay and fitting machinery, on messages built here: a correct stream passes,
    windows included (messages showing the move where a window opened); the same stream with
    one message of one seat changed fails."""
    played, record = served_here(name, 3, seed)  # a short game, with windows
    tally = check_game(played, record, record.seed)
    assert tally.lagging > 0 and tally.withheld > 0, tally
    mine, theirs = played.clients[1].received, played.clients[2].received
    middle = next(  # a message after the first quarter where the two seats' views differ
        k for k in range(len(mine) // 4, len(mine)) if mine[k]["events"] != theirs[k]["events"]
    )

    def spoilt(change: Any) -> Played:
        clients = [
            Client(c.seat, c.token, json.loads(json.dumps(c.received))) for c in played.clients
        ]
        change(clients[1].received[middle], clients[2].received[middle])
        return Played(played.plan, played.id, played.tokens, clients)

    leaks = {
        "another seat's observation": lambda mine, theirs: mine.update(
            observation={**theirs["observation"], "seat": mine["observation"]["seat"]}
        ),
        "another seat's events": lambda mine, theirs: mine.update(events=theirs["events"]),
        "an event twice": lambda mine, theirs: mine["events"].append(mine["events"][-1]),
        "an event less": lambda mine, theirs: mine["events"].pop(),
    }
    for leak, change in leaks.items():
        with pytest.raises(AssertionError):
            check_game(spoilt(change), record, record.seed)
            pytest.fail(f"the game checker let through {leak}")
