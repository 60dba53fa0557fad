"""A game in play on the server (:class:`LiveGame`), advanced action by action.

Everything here is synchronous (the engine, the computer players, the database): its room
(:mod:`.room`) runs it off the event loop (``asyncio.to_thread``), one input at a time, so a
slow computer player holds up its own game only. How a game comes into memory, made or rebuilt
from the store: :mod:`.making`; its turn timer: :mod:`.clock`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from pydantic import TypeAdapter

from apokalypse.bots import make_bot, seat_seed
from apokalypse.engine.errors import EngineError, IllegalAction, NotationError
from apokalypse.engine.events import Event
from apokalypse.engine.match import MAX_DECISIONS, GameTooLong, Match, Player
from apokalypse.engine.protocol import ActionValue, Game, GameState, refusal
from apokalypse.engine.record import GameRecord
from apokalypse.i18n import notation_reason, text
from apokalypse.i18n.texts import Texts, texts_for
from apokalypse.wire import (
    WIRE_VERSION,
    ActionMessage,
    WhyAnswer,
    WhyMessage,
    seat_views,
    state_adapter,
)
from apokalypse.wire.seat import SeatViews, Table, WireState

from .clock import Clock, Ticks
from .days import Days, Now, limit_of, utc_now
from .refusals import Refused, message
from .store import KEEP, Deadline, Store, StoreError
from .talk import GameTalk
from .tokens import seat_in

HUMAN = "human"
STAND_IN = "heuristic"  # who plays a person's seat while they are away
COACH = "coach"  # the meta key: the creator offered the coach to every person (wire/coach.py)


@dataclass
class LiveGame:
    """One game in memory: its match, its stored record's header and every event so far."""

    id: str
    game: Game
    record: GameRecord
    match: Match
    log: list[Event] = field(default_factory=list)
    away: set[int] = field(default_factory=set)  # people's seats a computer plays for now
    rematch: str | None = None  # the id of this game's rematch, once somebody asked
    clock: Clock | None = None
    stand_ins: dict[int, Player] = field(default_factory=dict)
    _public: tuple[int, Mapping[str, object]] | None = None  # (move, public observation)
    heard: bool = False  # the last change was made by another process (see deadline)
    names: list[str | None] = field(default_factory=list)  # each seat's chosen name
    talk: GameTalk = field(default_factory=GameTalk)  # its table talk (server/talk.py)
    manual: set[int] = field(default_factory=set)  # people who answer forced questions too
    days: Days | None = None  # a turn-based game's deadline (:mod:`.days`)
    now: Now = utc_now  # the time (the hub's: a test may move it)
    ticks: Ticks = time.monotonic  # the seconds the turn timer counts (the hub's clock, as now)
    coached: set[int] = field(default_factory=set)  # people who agreed to the coach

    def __post_init__(self) -> None:
        timer = self.record.meta.get("timer")
        if isinstance(timer, dict):
            banks = [float(timer["bank"])] * len(self.kinds)
            self.clock = Clock(float(timer["turn"]), banks)
        limit = limit_of(self.record.meta)
        if limit is not None:
            self.days = Days(limit)

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
        return seat_in(self.record.meta, token)

    def public(self) -> Mapping[str, object]:
        """The spectator's observation now (what anybody may know), made once per move."""
        move = self.state.move
        if self._public is None or self._public[0] != move:
            self._public = (move, self.state.observation(None))
        return self._public[1]

    def shown_move(self) -> int:
        """The move everybody is shown: frozen where a window opened while it is open."""
        move = self.public()["move"]
        assert isinstance(move, int)
        return move

    def in_window(self) -> bool:
        """Whether somebody is deciding whom the public view does not show (a defence or block
        window: only the seat asked knows it is asked)."""
        return not self.state.is_over and self.public()["to_act"] is None

    def table(self, connected: frozenset[int]) -> Table:
        """What the seat views need of the table now."""
        clock = self.clock.reading(self.ticks()) if self.clock is not None else None
        if self.days is not None:
            clock = self.days.reading(self.now(), len(self.kinds))
        away, manual = frozenset(self.away), frozenset(self.manual)
        return Table(
            self.kinds,
            connected,
            away,
            self.rematch,
            self.lang,
            clock,
            manual,
            self.names,
            self.coach_offered,
            frozenset(self.coached),
        )

    @property
    def coach_offered(self) -> bool:
        return self.record.meta.get(COACH) is True

    def set_coach(self, store: Store, seat: int | None, agree: bool) -> bool:
        """A person agrees to the coach (``agree``) or takes it back; False when that changes
        nothing. A game whose creator did not offer it is refused: the coach is then a game
        against computers' alone."""
        if seat is None:
            raise Refused(message("spectator", self.lang))
        if not self.coach_offered:
            raise Refused(message("coach-not-offered", self.lang))
        if self.kinds[seat] != HUMAN or (seat in self.coached) == agree:
            return False
        seats = self.coached | {seat} if agree else self.coached - {seat}
        store.set_coach(self.id, seats)
        self.coached = seats
        return True

    def view(
        self,
        seat: int | None,
        since: int,
        connected: frozenset[int] = frozenset(),
        first: bool = False,
    ) -> WireState:
        """The state message for ``seat`` (None: a spectator) with the events from ``since``
        (``first``: a connection's first message, with the card facts), as the game's seat view
        makes it (``wire/<game>.py``): nothing else decides what a viewer is sent."""
        table = self.table(connected)
        return self.views.view(self.state, seat, self.log[since:], table, first)

    @cached_property
    def texts(self) -> Texts:
        return texts_for(self.record.game, self.record.config, self.lang)

    @cached_property
    def wire(self) -> TypeAdapter[WireState]:
        """The game's state message type, which serialises what the views make."""
        return state_adapter(self.record.game)

    @cached_property
    def views(self) -> SeatViews:
        return seat_views(self.record.game, self.texts)

    def check(
        self, seat: int | None, request: ActionMessage | WhyMessage, shown: int | None
    ) -> ActionValue:
        """The action a seat's message asks for (or asks about), parsed; a :class:`Refused`
        otherwise. ``shown``: the move of the observation this connection was last sent."""
        lang = self.lang
        if seat is None:
            raise Refused(message("spectator", lang))
        if request.move != shown:
            raise Refused(message("stale", lang, sent=request.move, move=shown))
        state = self.state
        if state.is_over:
            raise Refused(message("over", lang))
        if state.to_act != seat:
            raise Refused(message("not-your-turn", lang))
        try:
            action: ActionValue = self.game.parse_action(request.action)
        except NotationError as exc:
            reason = notation_reason(exc, self.record.game, lang)
            raise Refused(text("ui.error.notation", lang, message=reason)) from None
        except ValueError as exc:  # a parser's own slip: still only a typo
            reason = f"{request.action!r}: {exc}"
            raise Refused(text("ui.error.notation", lang, message=reason)) from None
        return action

    def why(self, seat: int | None, request: WhyMessage, shown: int | None) -> WhyAnswer:
        """Whether the action a seat asks about would be refused now, and why, changing
        nothing: the checks of a real action (:meth:`check`, then the rules on a clone of the
        game, :func:`refusal`), so the answer is the very refusal that action would get, in the
        same words. It says only what a refused action would: a seat that does not decide now
        (in a window: whether it was not asked yet, was asked already or is never asked) is
        told it is not its decision, and the rules are asked only for the seat that decides,
        about its own hand and the table."""
        answer: WhyAnswer = {
            "type": "why",
            "wire": WIRE_VERSION,
            "action": request.action,
            "move": request.move,
            "allowed": False,
            "reason": "",
        }
        try:
            exc = refusal(self.state, self.check(seat, request, shown))
            if exc is not None:
                raise Refused.by_rules(exc, self.texts)
        except Refused as refused:
            answer["reason"] = refused.reason
            if refused.rule is not None:
                answer["rule"] = refused.rule
            return answer
        answer["allowed"] = True
        answer["reason"] = message("why-allowed", self.lang)
        return answer

    def play(self, store: Store, action: ActionValue) -> None:
        """Apply a person's action and store it (blocking). The computer players answer later,
        one decision at a time on their own threads (:meth:`computer_choice`)."""
        try:
            events = self.match.apply(action)
        except IllegalAction as exc:
            raise Refused.by_rules(exc, self.texts) from None
        self._commit(store, events)

    def computer_to_act(self) -> bool:
        """Whether the decision now is a computer's: a computer seat's, or a stand-in's at a
        seat whose person is away."""
        state = self.state
        if state.is_over or len(self.match.actions) >= MAX_DECISIONS:
            return False
        return self.match.is_computer(state.to_act) or state.to_act in self.away

    def computer_choice(self) -> ActionValue:
        """The decision of the computer whose turn it is (blocking; on the computer players'
        own threads). Reads the game and changes nothing of it: the room holds every change
        until :meth:`computer_apply` took this one."""
        if len(self.match.actions) >= MAX_DECISIONS:
            raise GameTooLong(f"no end after {MAX_DECISIONS} decisions")
        seat = self.state.to_act
        if self.match.is_computer(seat):
            chosen: ActionValue = self.match.ask()
            return chosen
        return self._stand_in_choice(seat)

    def computer_step(self, store: Store) -> bool:
        """Let the computer whose decision it is act once, and store it (blocking); False when
        no computer is to act. (The room asks and applies apart: :meth:`computer_choice`.)"""
        if not self.computer_to_act():
            return False
        return self.computer_apply(store, self.state.move, self.computer_choice())

    def computer_apply(self, store: Store, move: int, action: ActionValue) -> bool:
        """Apply and store the computer's decision at ``move`` (:meth:`computer_choice`);
        False when the decision is no longer a computer's there. A choice the rules refuse is a
        bug of that player: an :class:`EngineError` names the seat and the action."""
        if self.state.move != move or not self.computer_to_act():
            return False
        seat = self.state.to_act
        try:
            events = self.match.apply(action)
        except IllegalAction as exc:
            raise EngineError(
                f"the computer player at p{seat + 1} chose {action}, which the rules refuse ({exc})"
            ) from None
        self._commit(store, events)
        return True

    def follow_clock(self) -> None:
        if self.clock is None and self.days is None:
            return
        state = self.state
        person = None if state.is_over or state.to_act in self.away else state.to_act
        if person is not None and self.match.is_computer(person):
            person = None
        if self.clock is not None:
            hidden = person is not None and self.in_window()
            self.clock.follow(person, state.move, self.ticks(), hidden)
        if self.days is not None:
            self.days.follow(person, state.move, self.now())

    def _deadline(self) -> Deadline:
        """The deadline to store with a change: a turn-based game's, else left as it is."""
        return KEEP if self.days is None else self.days.due

    def forced_answer(self) -> ActionValue | None:
        """The one answer a person asked in a window can give (a defence they cannot make:
        decline), when the server gives it for them (unless they turned that off); else None.
        Everybody else is asked in turn too (R-ATTACK-4, R-INFO-3), and this answer goes the
        way a person's does (:meth:`play`): nobody else can tell it from a chosen one."""
        if not self.in_window():
            return None
        seat = self.state.to_act
        if self.kinds[seat] != HUMAN or seat in self.away or seat in self.manual:
            return None
        legal = list(self.state.legal_actions())
        return legal[0] if len(legal) == 1 else None

    def answer_for(self, store: Store, move: int) -> bool:
        """Give the forced answer of the question asked at ``move`` (blocking; the store is
        asked first, as in :meth:`time_out`): False when it was answered meanwhile, or is no
        longer forced."""
        changed = self.catch_up_from(store) > 0
        action = self.forced_answer() if self.state.move == move else None
        if action is None:
            return changed
        self.play(store, action)
        return True

    def set_manual(self, store: Store, seat: int | None, manual: bool) -> bool:
        """A person asks to answer forced questions themselves (``manual``) or leaves them to
        the server again; False when that changes nothing."""
        if seat is None or self.kinds[seat] != HUMAN or (seat in self.manual) == manual:
            return False
        seats = self.manual | {seat} if manual else self.manual - {seat}
        store.set_manual(self.id, seats)
        self.manual = seats
        return True

    def deadline(self) -> float | None:
        """When (by :attr:`ticks`) the deciding person's time runs out; None: no clock."""
        return self.clock.deadline() if self.clock is not None else None

    def _stand_in_choice(self, seat: int) -> ActionValue:
        player = self.stand_ins.get(seat)
        if player is None:  # seeded apart from any seat's own computer player
            seed = seat_seed(self.record.seed, seat + len(self.kinds))
            player = self.stand_ins[seat] = make_bot(STAND_IN, seed, self.record.game)
        observation = {} if player.blind else self.state.observation(seat)
        choice: ActionValue = player.choose(observation, self.state.legal_actions())
        return choice

    def set_away(self, store: Store, seat: int | None, away: bool) -> bool:
        """A person leaves their seat to a computer player (``away``) or takes it back; False
        when that changes nothing. Stores it, and lets the stand-in act if it is its turn."""
        if seat is None or self.kinds[seat] != HUMAN or (seat in self.away) == away:
            return False
        seats = self.away | {seat} if away else self.away - {seat}
        before = self.away
        self.away = seats
        self.follow_clock()  # the stand-in decides from here (Room._kick lets it)
        try:
            store.set_away(self.id, seats, self._deadline())
        except StoreError:
            self.away = before
            raise
        self.heard = False  # this process made the change: it runs the clock
        self.stand_ins.pop(seat, None)  # a fresh stand-in each time: it saw nothing meanwhile
        return True

    def time_out(self, store: Store, move: int) -> bool:
        """The deciding person's time ran out at ``move``: a computer takes their seat. (The
        store is asked first: where several processes serve the game, each runs the clock, and
        the one that heard of the decision last must find it taken over already.)"""
        changed = self.catch_up_from(store) > 0
        clock = self.clock
        if clock is None or clock.seat is None or self.state.move != move:
            return changed
        deadline = clock.deadline()
        if deadline is None or deadline > self.ticks():
            return changed
        return self._take_over(store, clock.seat, clock.hidden) or changed

    def _take_over(self, store: Store, seat: int, window: bool) -> bool:
        """The one takeover when a person's time runs out (:meth:`time_out`, :meth:`overdue`):
        a window's question is answered for them by a stand-in, the seat kept (marking them
        away would name who was asked: :class:`Clock`); else a stand-in takes the seat."""
        if window:
            self.play(store, self._stand_in_choice(seat))
            return True
        return self.set_away(store, seat, True)

    def set_name(self, store: Store, seat: int, name: str) -> bool:
        """The person at ``seat`` is called ``name`` from now on (kept in the store); False
        when that changes nothing."""
        names = self.names + [None] * (len(self.kinds) - len(self.names))
        if names[seat] == name:
            return False
        store.set_name(self.id, seat, len(self.kinds), name)
        names[seat] = name
        self.names = names
        return True

    def overdue(self, store: Store, now: datetime) -> bool:
        """A turn-based game's deadline passed by ``now``: the same takeover as :meth:`time_out`
        (the store asked first: another process may have taken it over already)."""
        changed = self.catch_up_from(store) > 0
        days = self.days
        if days is None or days.seat is None or not days.overdue(now):
            return changed
        return self._take_over(store, days.seat, self.in_window()) or changed

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
        manual, due = store.timing(self.id)
        coached = store.coached(self.id) if self.coach_offered else set()
        changed = len(actions) + (away != self.away) + (rematch != self.rematch)
        changed += (manual != self.manual) + (coached != self.coached)
        self.coached = coached
        self.heard = self.heard or changed > 0  # another process made the change
        self.away, self.rematch, self.manual = away, rematch, manual
        self.follow_clock()
        if self.days is not None and changed:  # the deadline that process set
            self.days.adopt(self.days.seat, self.state.move, due)
        # Names and talk change nobody's turn: not counted in ``heard`` (it decides who runs
        # the clock and the computers), only in what is new.
        last, names = self.talk.last, self.talk.read(store, self.id)
        talked = (self.talk.last != last) + (names != self.names)
        self.names = names
        return changed + talked

    def _commit(self, store: Store, events: list[Event]) -> None:
        self.heard = False  # this process made the change: it runs the clock
        self.log.extend(events)
        self.follow_clock()  # a turn-based game's deadline is stored with the action
        move, action = self.state.move, self.match.actions[-1]
        store.append(self.id, move, action, self.shown_move(), self._deadline())
        result = self.state.result
        if self.state.is_over and result is not None:
            store.finish(self.id, result.to_json())
