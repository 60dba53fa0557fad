"""Games in play on the server: created, rebuilt from the store, advanced action by action.

Everything here is synchronous (the engine, the computer players, the database): the app runs
it off the event loop (``asyncio.to_thread``), one game at a time under that game's lock, so a
slow computer player holds up its own game only.

A game lives in memory while it is played (:class:`LiveGame`: its :class:`Match` and the log of
its events). After a restart it is rebuilt from its stored record by replay: fresh computer
players, seeded from the game's seed and their seat, are asked again at their seats
(:meth:`Match.catch_up`), so they go on exactly as if nothing had happened.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from apokalypse.bots import make_bot, seat_seed
from apokalypse.bots.guard import guard_all
from apokalypse.engine.errors import ConfigError, IllegalAction, NotationError
from apokalypse.engine.events import Event
from apokalypse.engine.match import MAX_DECISIONS, Match, Player
from apokalypse.engine.protocol import Game, GameState
from apokalypse.engine.record import GameRecord, start
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import SEED_LIMIT
from apokalypse.i18n import check_lang, notation_reason, seat_names, text
from apokalypse.i18n.texts import Texts, texts_for

from .store import Store, StoreError, new_id

HUMAN = "human"
STAND_IN = "heuristic"  # who plays a person's seat while they are away
TOKEN_BYTES = 24  # 32 URL-safe characters: the key of a seat's secret invite link


def message(key: str, lang: str, **values: object) -> str:
    """The server's own refusals (the rules' refusals come from each game's catalog)."""
    return text(f"server.{key}", lang, **values)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def computer_players(kinds: Sequence[str], seed: int, game: str) -> dict[int, Player[Any, Any]]:
    """The computer players of a game's seats (every seat not ``human``), seeded from the game's
    seed and their seat, so a rebuilt game seats exactly the same players. Each is guarded
    (:mod:`apokalypse.bots.guard`): a player that raises or overruns is replaced by the
    heuristic for that move, and the fault logged, instead of stopping the game.

    A seat kind is a player's name (``heuristic``, ``expert`` …), never a budget
    (``ismcts:500``): the server's players are its own choice of strength and cost."""
    for kind in kinds:
        if ":" in kind:
            raise ConfigError(
                f"seat kind {kind!r}: name a computer player without a budget (easy, medium,"
                " hard, expert …)"
            )
    players = {
        seat: make_bot(kind, seat_seed(seed, seat), game)
        for seat, kind in enumerate(kinds)
        if kind != HUMAN
    }

    def stand_in(seat: int) -> Player[Any, Any]:  # seeded apart from every seat's own player
        return make_bot(STAND_IN, seat_seed(seed, seat + 64), game)

    return guard_all(players, stand_in)


class Refused(Exception):
    """An action the server does not apply: ``reason`` in the game's language, ``rule`` the
    rule id when the rules refused it."""

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "refused", "reason": self.reason}
        if self.rule is not None:
            data["rule"] = self.rule
        return data


@dataclass
class NewGame:
    """What ``POST /api/games`` asked for, checked: the record to store and the tokens."""

    record: GameRecord
    state: GameState
    players: dict[int, Player[Any, Any]]
    tokens: dict[int, str]  # seat → token, human seats only


def new_game(
    name: str,
    players: int,
    seats: Sequence[str],
    variants: Sequence[str],
    lang: str,
    timer: tuple[float, float] | None = None,
) -> NewGame:
    """A fresh game; bad input is a :class:`ConfigError` naming what is wrong. ``timer``:
    (seconds per decision, seconds of time bank per person), or None for no clock."""
    game = get_game(name.strip().lower())
    lang = check_lang(lang)
    config = game.config_from_options(players, list(variants), None)
    if len(seats) != config.players:
        raise ConfigError(
            f"seats lists {len(seats)} seats for a {config.players}-player game: name one kind"
            f" per seat ({HUMAN!r} or a computer player)"
        )
    kinds = [kind.strip().lower() for kind in seats]
    seed = secrets.randbelow(SEED_LIMIT)  # all 64 bits: unguessable
    bots = computer_players(kinds, seed, game.name)
    tokens = {
        seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in range(len(kinds)) if seat not in bots
    }
    meta: dict[str, Any] = {
        "seats": kinds,
        "token_sha256": [hash_token(tokens[s]) if s in tokens else None for s in range(len(kinds))],
        "lang": lang,
    }
    if timer is not None:
        meta["timer"] = {"turn": timer[0], "bank": timer[1]}
    state = game.new_game(config, seed)
    record = GameRecord(game.name, game.version, config.to_json(), seed, meta=meta)
    return NewGame(record, state, bots, tokens)


def rematch_of(record: GameRecord, game_id: str) -> NewGame:
    """The rematch of a stored game: the same game, settings and seats, a new deal. Its people
    keep their invite keys (the same token opens the same seat), so nobody is sent a new one."""
    game = get_game(record.game)
    seed = secrets.randbelow(SEED_LIMIT)
    kinds = [str(kind) for kind in record.meta.get("seats", [])]
    state = game.new_game(game.config_from_json(record.config), seed)
    meta = {**record.meta, "rematch_of": game_id}
    rematch = GameRecord(game.name, game.version, dict(record.config), seed, meta=meta)
    return NewGame(rematch, state, computer_players(kinds, seed, game.name), {})


@dataclass
class Clock:
    """A game's turn timer: each decision of a person gets ``turn`` seconds, then draws on that
    person's time bank; when both are spent a computer player takes the seat over (it is
    away) until its person reclaims it. Kept in the memory of the process serving the game:
    after a restart every bank is full again."""

    turn: float
    banks: list[float]  # seconds left in each seat's bank
    seat: int | None = None  # the person deciding now
    move: int = -1  # the move they are deciding at
    started: float = 0.0  # time.monotonic() when that decision began

    def follow(self, seat: int | None, move: int, now: float) -> None:
        """The decision is now ``seat``'s at ``move`` (None: nobody's to time): charge the
        decision that ended to its person's bank and start the new one's clock."""
        if (seat, move) == (self.seat, self.move):
            return
        if self.seat is not None:
            over = now - self.started - self.turn
            self.banks[self.seat] = max(0.0, self.banks[self.seat] - max(0.0, over))
        self.seat, self.move, self.started = seat, move, now

    def remaining(self, now: float) -> float:
        """Seconds the deciding person has left (their turn and their bank)."""
        if self.seat is None:
            return 0.0
        return max(0.0, self.started + self.turn + self.banks[self.seat] - now)


@dataclass
class LiveGame:
    """One game in memory: its match, its stored record's header and every event so far."""

    id: str
    game: Game
    record: GameRecord
    match: Match[Any, Any]
    log: list[Event] = field(default_factory=list)
    away: set[int] = field(default_factory=set)  # people's seats a computer plays for now
    rematch: str | None = None  # the id of this game's rematch, once somebody asked
    clock: Clock | None = None
    stand_ins: dict[int, Player[Any, Any]] = field(default_factory=dict)
    _forecast: tuple[int, dict[str, Any] | None] | None = None  # (move, forecast)
    heard: bool = False  # the last change was made by another process (see deadline)

    def __post_init__(self) -> None:
        timer = self.record.meta.get("timer")
        if isinstance(timer, dict):
            banks = [float(timer["bank"])] * len(self.kinds)
            self.clock = Clock(float(timer["turn"]), banks)

    @property
    def state(self) -> GameState:
        return self.match.state

    @property
    def kinds(self) -> list[str]:
        return [str(kind) for kind in self.record.meta.get("seats", [])]

    @property
    def lang(self) -> str:
        return str(self.record.meta.get("lang", "en"))

    def seat_of(self, token: str) -> int | None:
        """The human seat whose token this is; None for any other."""
        digest = hash_token(token)
        for seat, stored in enumerate(self.record.meta.get("token_sha256", [])):
            if isinstance(stored, str) and hmac.compare_digest(stored, digest):
                return seat
        return None

    def summary(self) -> dict[str, Any]:
        """What anybody may know of the game (no tokens; the seed once it is over)."""
        state = self.state
        result = state.result
        data = stored_summary(self.id, self.record, state.move)
        data["over"] = state.is_over
        data["result"] = result.to_json() if result is not None else None
        if state.is_over:
            data["seed"] = self.record.seed  # only now: it rebuilds every hand and the deck
        else:
            data.pop("seed", None)
        return data

    def seats(self, connected: frozenset[int]) -> list[dict[str, Any]]:
        """Each seat's kind, whether its person is connected (to this process) and away."""
        return [
            {"seat": q, "kind": kind, "connected": q in connected, "away": q in self.away}
            for q, kind in enumerate(self.kinds)
        ]

    def clock_view(self, now: float, shown: int | None) -> dict[str, Any] | None:
        """The clock of the person deciding, for a viewer whose observation shows ``shown``
        deciding (None: nobody, as in a defence window for those not asked)."""
        clock = self.clock
        if clock is None or clock.seat is None or clock.seat != shown:
            return None
        return {
            "seat": clock.seat,
            "remaining_ms": round(clock.remaining(now) * 1000),
            "bank_ms": [round(bank * 1000) for bank in clock.banks],
            "turn_s": clock.turn,
        }

    def view(
        self, seat: int | None, since: int, connected: frozenset[int] = frozenset()
    ) -> dict[str, Any]:
        """The state message for ``seat`` (None: a spectator), with the events from ``since``,
        and the same sentences the terminal shows: the log lines of those events, the question
        and each legal action's wording, in the game's language; the seats' statuses, the
        forecast (from the public view, the same for everybody), the clock, the rematch."""
        state = self.state
        deciding = not state.is_over and seat is not None and state.to_act == seat
        observation = state.observation(seat)
        legal = list(state.legal_actions()) if deciding else []
        events = self.log[since:]
        texts = self.texts
        names = seat_names(len(self.kinds), seat, self.lang)
        data: dict[str, Any] = {
            "type": "state",
            "seat": seat,
            "names": names,
            "seats": self.seats(connected),
            "observation": observation,
            "events": [event.view(seat).to_json() for event in events],
            "legal": [str(a) for a in legal],
            "text": {
                "log": texts.render_events(events, seat, names),
                "question": (
                    texts.decision_text(seat, observation, names)
                    if deciding and seat is not None
                    else ""
                ),
                "choices": [texts.render_action(a, observation, names) for a in legal],
            },
            "forecast": self.forecast(),
            # The clock only where the viewer sees who decides: in a defence window nobody
            # but the player asked may learn who that is (R-INFO-3, R-ATTACK-4).
            "clock": self.clock_view(time.monotonic(), observation["to_act"]),
            "rematch": {"id": self.rematch} if self.rematch is not None else None,
        }
        if since == 0:  # a connection's first message: the card facts, once
            data["cards"] = texts.cards()
        return data

    def forecast(self) -> dict[str, Any] | None:
        """The forecast from the public view, the same for every viewer: made once per move."""
        move = self.state.move
        if self._forecast is None or self._forecast[0] != move:
            self._forecast = (move, self.texts.forecast(self.state.observation(None)))
        return self._forecast[1]

    @cached_property
    def texts(self) -> Texts:
        return texts_for(self.record.game, self.record.config, self.lang)

    def check(self, seat: int | None, data: object) -> Any:
        """The action a seat's message asks for, parsed; a :class:`Refused` otherwise."""
        lang = self.lang
        if not isinstance(data, dict):
            raise Refused(message("message", lang))
        action, move = data.get("action"), data.get("move")
        if not isinstance(action, str) or type(move) is not int:
            raise Refused(message("message", lang))
        if seat is None:
            raise Refused(message("spectator", lang))
        state = self.state
        shown = state.observation(seat)["move"]
        if move != shown:
            raise Refused(message("stale", lang, sent=move, move=shown))
        if state.is_over:
            raise Refused(message("over", lang))
        if state.to_act != seat:
            raise Refused(message("not-your-turn", lang))
        try:
            return self.game.parse_action(action)
        except NotationError as exc:
            reason = notation_reason(exc, self.record.game, lang)
            raise Refused(text("ui.error.notation", lang, message=reason)) from None
        except ValueError as exc:  # a parser's own slip: still only a typo
            raise Refused(text("ui.error.notation", lang, message=f"{action!r}: {exc}")) from None

    def play(self, store: Store, action: Any) -> None:
        """Apply a person's action, store it, then let the computer players act (blocking)."""
        try:
            events = self.match.apply(action)
        except IllegalAction as exc:
            raise Refused(self.texts.refusal(exc), exc.rule) from None
        self._commit(store, events)
        self.advance(store)

    def advance(self, store: Store) -> None:
        """Let computer players act while it is their decision (a stand-in at a seat whose
        person is away), storing each action; then start the clock of the person deciding."""
        state = self.state
        while not state.is_over and len(self.match.actions) < MAX_DECISIONS:
            seat = state.to_act
            if self.match.is_computer(seat):
                _, events = self.match.play_turn()
            elif seat in self.away:
                events = self.match.apply(self._stand_in_choice(seat))
            else:
                break
            self._commit(store, events)
        self.follow_clock()

    def follow_clock(self) -> None:
        if self.clock is not None:
            state = self.state
            person = None if state.is_over or state.to_act in self.away else state.to_act
            if person is not None and self.match.is_computer(person):
                person = None
            self.clock.follow(person, state.move, time.monotonic())

    def deadline(self) -> float | None:
        """When (``time.monotonic()``) the deciding person's time runs out; None: no clock."""
        clock = self.clock
        if clock is None or clock.seat is None:
            return None
        return clock.started + clock.turn + clock.banks[clock.seat]

    def _stand_in_choice(self, seat: int) -> Any:
        player = self.stand_ins.get(seat)
        if player is None:  # seeded apart from any seat's own computer player
            seed = seat_seed(self.record.seed, seat + len(self.kinds))
            player = self.stand_ins[seat] = make_bot(STAND_IN, seed, self.record.game)
        observation: Any = {} if player.blind else self.state.observation(seat)
        return player.choose(observation, self.state.legal_actions())

    def set_away(self, store: Store, seat: int | None, away: bool) -> bool:
        """A person leaves their seat to a computer player (``away``) or takes it back; False
        when that changes nothing. Stores it, and lets the stand-in act if it is its turn."""
        if seat is None or self.kinds[seat] != HUMAN or (seat in self.away) == away:
            return False
        seats = self.away | {seat} if away else self.away - {seat}
        store.set_away(self.id, seats)
        self.away = seats
        self.heard = False  # this process made the change: it runs the clock
        self.stand_ins.pop(seat, None)  # a fresh stand-in each time: it saw nothing meanwhile
        self.advance(store)
        return True

    def time_out(self, store: Store, move: int) -> bool:
        """The deciding person's time ran out at ``move``: a computer takes their seat. (The
        store is asked first: where several processes serve the game, each runs the clock, and
        the one that heard of the decision last must find it taken over already.)"""
        changed = self.catch_up_from(store) > 0
        clock = self.clock
        if clock is None or clock.seat is None or self.state.move != move:
            return changed
        if clock.remaining(time.monotonic()) > 0:
            return changed
        return self.set_away(store, clock.seat, True) or changed

    def make_rematch(self, store: Store) -> LiveGame | None:
        """The rematch of this finished game: made here (returned) unless it exists already
        (None; ``self.rematch`` names it either way)."""
        if self.rematch is not None or not self.state.is_over:
            return None
        mine = new_id()
        self.rematch = store.claim_rematch(self.id, mine)
        if self.rematch != mine:  # another process was first: its game, linked to from here
            return None
        return create(store, rematch_of(self.record, self.id), mine)

    def catch_up_from(self, store: Store) -> int:
        """Apply the actions another server process stored after ours (blocking); how many.

        The computer players are only asked again (:meth:`Match.catch_up`), never let act: the
        process that applied a person's action lets them answer. A :class:`StoreError` when the
        stored actions do not begin with ours (memory and database disagree: rebuild)."""
        known = len(self.match.actions)
        # From our last action on (one query, not the whole game): it must be the stored one.
        actions, away, rematch = store.news(self.id, max(known - 1, 0))
        if known:
            if not actions or actions[0] != self.match.actions[-1]:
                raise StoreError(f"game {self.id!r}: the stored actions differ from ours")
            actions = actions[1:]
        for events in self.match.catch_up(self.game, actions):
            self.log.extend(events)
        changed = len(actions) + (away != self.away) + (rematch != self.rematch)
        self.heard = self.heard or changed > 0  # another process made the change
        self.away, self.rematch = away, rematch
        self.follow_clock()
        return changed

    def _commit(self, store: Store, events: list[Event]) -> None:
        self.heard = False  # this process made the change: it runs the clock
        self.log.extend(events)
        store.append(self.id, self.state.move, self.match.actions[-1])
        result = self.state.result
        if self.state.is_over and result is not None:
            store.finish(self.id, result.to_json())


def stored_summary(game_id: str, record: GameRecord, move: int) -> dict[str, Any]:
    """What anybody may know of a stored game (no tokens; the seed once it is over)."""
    kinds = [str(kind) for kind in record.meta.get("seats", [])]
    data: dict[str, Any] = {
        "id": game_id,
        "game": record.game,
        "players": len(kinds),
        "seats": [{"seat": seat, "kind": kind} for seat, kind in enumerate(kinds)],
        "lang": str(record.meta.get("lang", "en")),
        "move": move,
        "over": record.result is not None,
        "result": record.result,
    }
    if record.result is not None:
        data["seed"] = record.seed  # only now: it rebuilds every hand and the deck
    return data


def create(store: Store, new: NewGame, game_id: str | None = None) -> LiveGame:
    """Store a new game and start it (computer players whose decision it is act at once)."""
    game_id = store.create(new.record, game_id)
    game = get_game(new.record.game)
    match: Match[Any, Any] = Match(
        new.state, new.players, new.record.start_digest(new.state.opening)
    )
    live = LiveGame(game_id, game, new.record, match)
    live.log.extend(match.start())
    live.advance(store)
    return live


def rebuild(store: Store, game_id: str) -> LiveGame:
    """A stored game as it stood after its last stored action (a :class:`StoreError` for an
    unknown id, a ``RecordError`` for a record that does not replay)."""
    record = store.load(game_id)
    game, state = start(record)
    kinds = [str(kind) for kind in record.meta.get("seats", [])]
    bots = computer_players(kinds, record.seed, record.game)
    match: Match[Any, Any] = Match(state, bots, record.start_digest(state.opening))
    live = LiveGame(game_id, game, record, match)
    stored = store.rematch_and_away(game_id)
    if stored is None:  # deleted since it was loaded
        raise StoreError(f"there is no game {game_id!r}")
    live.rematch, live.away = stored
    live.heard = True  # whoever made the last change, it was not this copy
    live.log.extend(match.start())
    for events in match.catch_up(game, record.actions):
        live.log.extend(events)
    live.advance(store)  # a restart between a person's action and the computers' answers
    return live
