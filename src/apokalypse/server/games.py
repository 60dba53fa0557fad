"""A game in play on the server (:class:`LiveGame`), advanced action by action.

Everything here is synchronous: its room (:mod:`.room`) runs what waits for the database off
the event loop (``asyncio.to_thread``), one input at a time, and the computer players on pools
of their own. How a game comes into memory, made or rebuilt from the store: :mod:`.making`; its
turn timer: :mod:`.clock`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from pydantic import TypeAdapter

from apokalypse.bots import make_bot, seat_seed
from apokalypse.engine.erased import Erased
from apokalypse.engine.errors import EngineError, IllegalAction
from apokalypse.engine.events import Event
from apokalypse.engine.match import MAX_DECISIONS, GameTooLong, Match, Player
from apokalypse.engine.protocol import ActionValue, Game, GameState
from apokalypse.engine.record import GameRecord
from apokalypse.i18n.texts import Texts, texts_for
from apokalypse.wire import seat_views, state_adapter
from apokalypse.wire.seat import SeatViews, Table, WireState
from apokalypse.wire.tutorial import TutorialView

from .clock import At, Clock, Ticks
from .days import Days, Now, utc_now
from .entries import (
    Acted,
    Away,
    Coached,
    Due,
    Entry,
    Logged,
    Manual,
    Named,
    Read,
    Said,
    TableState,
)
from .refusals import Refused, message
from .setup import Setup
from .store import Store, StoreError, Written
from .talk import GameTalk, said_line

HUMAN = "human"
STAND_IN = "heuristic"  # who plays a person's seat while they are away


@dataclass
class LiveGame:
    """One game in memory: its match, its stored record's header and every event so far."""

    id: str
    game: Game
    record: GameRecord
    match: Match
    log: list[Event] = field(default_factory=list)
    timer: Clock | Days | None = None  # its deadline policy (:mod:`.clock`): seconds or days
    stand_ins: dict[int, Player] = field(default_factory=dict)
    _public: tuple[int, Mapping[str, object]] | None = None  # (move, public observation)
    heard: bool = False  # the last change was made by another process (see deadline)
    talk: GameTalk = field(default_factory=GameTalk)  # its table talk (server/talk.py)
    written: list[Logged] = field(default_factory=list)  # since the last notice (the fan-out's)
    now: Now = utc_now  # the time (the hub's: a test may move it)
    ticks: Ticks = time.monotonic  # the seconds the turn timer counts (the hub's clock, as now)
    setup: Setup = field(init=False)  # the table as it was made (its record's meta, read once)
    # The table as the log has it so far, and the place of the last entry folded (:meth:`fold`).
    table_state: TableState = field(init=False)

    def __post_init__(self) -> None:
        self.setup = setup = Setup.of(self.record.meta)
        self.table_state = TableState(setup.players)
        if setup.timer is not None:
            turn, bank = setup.timer
            self.timer = Clock(turn, [bank] * setup.players)
        if setup.turn_based is not None:
            self.timer = Days(setup.turn_based)

    @property
    def state(self) -> GameState:
        return self.match.state

    # The table as its log has it (:class:`TableState`, which holds the rest: the rematch …):
    # the people's seats a computer plays for now, who answers forced questions too, who agreed
    # to the coach, the chosen names. Changed only by writing to the log (:meth:`write`).
    @property
    def away(self) -> frozenset[int]:
        return self.table_state.away

    @property
    def manual(self) -> frozenset[int]:
        return self.table_state.manual

    @property
    def coached(self) -> frozenset[int]:
        return self.table_state.coached

    @property
    def names(self) -> list[str | None]:
        return self.table_state.names

    @property
    def kinds(self) -> list[str]:
        return list(self.setup.kinds)

    @property
    def lang(self) -> str:
        return self.setup.lang

    def seat_of(self, token: str) -> int | None:
        """The human seat whose token this is; None for any other."""
        return self.setup.seat_of(token)

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

    def table(
        self, connected: frozenset[int], tutorial: tuple[int, TutorialView] | None = None
    ) -> Table:
        """What the seat views need of the table now (``tutorial``: a guided game's learner seat
        and its coach, which the game's room keeps)."""
        timer, players = self.timer, len(self.kinds)
        clock = timer.reading(self.at(), players) if timer is not None else None
        return Table(
            self.kinds,
            connected,
            self.away,
            self.table_state.rematch,
            self.lang,
            clock,
            self.manual,
            self.names,
            self.setup.coach,
            self.coached,
            tutorial,
        )

    def set_coach(self, store: Store, seat: int | None, agree: bool) -> bool:
        """A person agrees to the coach (``agree``) or takes it back; False when that changes
        nothing. Refused where the game's creator did not offer the coach."""
        if seat is None:
            raise Refused(message("spectator", self.lang))
        if not self.setup.coach:
            raise Refused(message("coach-not-offered", self.lang))
        if self.kinds[seat] != HUMAN or (seat in self.coached) == agree:
            return False
        self.write(store, [Coached(seat, agree)])
        return True

    def view(
        self,
        seat: int | None,
        since: int,
        connected: frozenset[int] = frozenset(),
        first: bool = False,
        tutorial: tuple[int, TutorialView] | None = None,
    ) -> WireState:
        """The state message for ``seat`` (None: a spectator) with the events from ``since``
        (``first``: a connection's first message, with the card facts; ``tutorial``: as
        :meth:`table`), as the game's seat view makes it (``wire/<game>.py``): nothing else
        decides what a viewer is sent."""
        table = self.table(connected, tutorial)
        return self.views.view(self.state, seat, self.log[since:], table, first)

    @cached_property
    def texts(self) -> Texts[Erased, Erased]:
        return texts_for(self.record.game, self.record.config, self.lang)

    @cached_property
    def wire(self) -> TypeAdapter[WireState]:
        """The game's state message type, which serialises what the views make."""
        return state_adapter(self.record.game)

    @cached_property
    def views(self) -> SeatViews:
        return seat_views(self.record.game, self.texts)

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

    def at(self) -> At:
        """Now, as the game's deadline reads it."""
        return At(self.ticks(), self.now())

    def follow_clock(self) -> None:
        """Time the decision now: a person's (not an away one's), a window's as such."""
        if self.timer is None:
            return
        state = self.state
        person = None if state.is_over or state.to_act in self.away else state.to_act
        if person is not None and self.match.is_computer(person):
            person = None
        hidden = person is not None and self.in_window()
        self.timer.follow(person, state.move, self.at(), hidden)

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
        asked first, as in :meth:`run_out`): False when it was answered meanwhile, or is no
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
        self.write(store, [Manual(seat, manual)])
        return True

    def deadline(self) -> float | None:
        """When (by :attr:`ticks`) the deciding person's time runs out; None: nobody timed."""
        at = self.at()
        left = self.timer.left(at) if self.timer is not None else None
        return None if left is None else at.ticks + left

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
        entry, before = Away(seat, away), self.away
        self.table_state.fold(entry)  # first: the deadline written with it follows from it
        self.follow_clock()  # the stand-in decides from here (Room._kick lets it)
        try:
            self.write(store, [entry, *self._due()])
        except StoreError:
            self.table_state.away = before
            raise
        self.heard = False  # this process made the change: it runs the clock
        self.stand_ins.pop(seat, None)  # a fresh stand-in each time: it saw nothing meanwhile
        return True

    def run_out(self, store: Store, move: int | None = None, at: At | None = None) -> bool:
        """The deciding person's time ran out (at ``move``, when the room's timer says so; by
        ``at``, now unless the sweep of turn-based games says otherwise): the one takeover, by
        the live clock or by days. A window's question is answered for them by a stand-in,
        the seat kept (marking them away would name who was asked: :class:`Clock`); else a
        stand-in takes the seat. The store is asked first: where several processes serve the
        game, each runs the clock, and the one that heard of the decision last must find it
        taken over already."""
        changed = self.catch_up_from(store) > 0
        timer = self.timer
        if timer is None or timer.seat is None or move not in (None, self.state.move):
            return changed
        if timer.left(at or self.at()) != 0:
            return changed
        seat, window = timer.seat, timer.hidden
        if window:
            self.play(store, self._stand_in_choice(seat))
            return True
        return self.set_away(store, seat, True) or changed

    def set_name(self, store: Store, seat: int, name: str) -> bool:
        """The person at ``seat`` is called ``name`` from now on (kept in the store); False
        when that changes nothing."""
        if seat < len(self.names) and self.names[seat] == name:
            return False
        self.write(store, [Named(seat, name)])
        return True

    def say(self, store: Store, said: Said, most: int) -> bool:
        """Keep a line of table talk, and take in any other process kept meanwhile; False when
        its channel holds ``most`` lines already."""
        return bool(self.write(store, [said], most).mine)

    def catch_up_from(self, store: Store) -> int:
        """Fold the entries other processes stored after ours (blocking); how many changed
        something. A :class:`StoreError` when they do not follow ours (rebuild)."""
        return self.take_in(store.read(self.id, self.table_state.applied))

    def take_in(self, news: list[Logged]) -> int:
        """Fold ``news``, what other processes wrote right after ours; how many changed."""
        turns, talked = self.fold(news)
        if turns:
            self._heard_of()
        return turns + talked

    def write(self, store: Store, entries: list[Entry], most: int | None = None) -> Written:
        """Append this process's ``entries`` to the log (blocking): first the entries others
        made meanwhile are folded, then these. (An action is applied before it is written: its
        fold finds it here already. Table events never change what an action may be, so one
        that another process wrote before this action ends in the same game and table.)"""
        written = store.write(self.id, self.table_state.applied, entries, most)
        self.written += written.mine
        turns, _ = self.fold(written.news)
        self.fold(written.mine)
        if turns:
            self._heard_of()
        return written

    def _heard_of(self) -> None:
        """Another process changed whose turn it is, or who is away: it runs the clock, and a
        turn-based game's deadline is the one the log has."""
        self.heard = True
        self.follow_clock()
        if isinstance(self.timer, Days):
            self.timer.adopt(self.timer.seat, self.state.move, self.table_state.due)

    def fold(self, logged: list[Logged]) -> tuple[int, int]:
        """Take in entries of the log, in order; how many changed the game or whose turn it is,
        and how many the names and the talk. The actions are applied as the computer players
        see them (:meth:`Match.catch_up`: asked again, never let act; the process that applied
        a person's action lets them answer); one applied here already is checked and passed
        over."""
        actions: list[str] = []
        turns = talked = 0
        for item in logged:
            entry = item.entry
            if isinstance(entry, Acted):
                actions += self._new_action(entry, len(actions))
            elif self.table_state.fold(entry):
                if isinstance(entry, Said):
                    n = self.table_state.lines[entry.channel]
                    self.talk.add(item.n, said_line(entry, n, item.created))
                if isinstance(entry, Said | Named | Read):
                    talked += 1  # names and talk change nobody's turn (see :attr:`heard`)
                else:
                    turns += 1
            self.table_state.applied = item.n
        for events in self.match.catch_up(self.game, actions):
            self.log.extend(events)
        return turns + len(actions), talked

    def _new_action(self, acted: Acted, pending: int) -> list[str]:
        """``acted`` to apply (after ``pending``), or none: applied here already; else a
        :class:`StoreError`."""
        known = self.match.actions
        if acted.move <= len(known):
            if known[acted.move - 1] != acted.text:
                raise StoreError(f"game {self.id!r}: the stored actions differ from ours")
            return []
        if acted.move != len(known) + pending + 1:
            raise StoreError(f"game {self.id!r}: move {acted.move} does not follow ours")
        return [acted.text]

    def _due(self) -> list[Entry]:
        """A turn-based game's deadline, as an entry to write with a change that moved it."""
        days = self.timer
        if not isinstance(days, Days) or days.due == self.table_state.due:
            return []
        return [Due(days.due)]

    def _commit(self, store: Store, events: list[Event]) -> None:
        self.log.extend(events)
        self.follow_clock()  # a turn-based game's deadline is stored with the action
        move, action = self.state.move, self.match.actions[-1]
        self.write(store, [Acted(move, action, self.shown_move()), *self._due()])
        self.heard = False  # this process made the last change: it runs the clock
        result = self.state.result
        if self.state.is_over and result is not None:
            store.finish(self.id, result.to_json())
