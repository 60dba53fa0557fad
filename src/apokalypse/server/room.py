"""What a game's room does with each input (:class:`Room`, the actor of :mod:`.actor`): a
client's messages, the clocks, the computer players and the coach.

Work that takes time never holds a game up. A computer player thinks on the computers' pool
(:mod:`.computers`) and the coach in a process of its own; the room asks, goes on reading its
inbox, and takes the answer as an input. While a computer thinks, its pool thread reads the
game's state, so inputs that would apply an action wait in the room (in order) until the answer
is in (:func:`.inputs.changes_game`); everything else (a person opening the game, leaving or
taking back a seat, talk, a why, the coach, a look) is answered at once.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time

from apokalypse.wire import (
    ActionMessage,
    AdviseMessage,
    AutoMessage,
    CoachMessage,
    LessonMessage,
    NameMessage,
    SayMessage,
    SeatMessage,
    WhyMessage,
)
from apokalypse.wire.coach import AdviceMessage, coach_refusal

from .actor import MAX_TABS, STAND_BY, Actor, Viewer, Work
from .asking import check, why
from .coach import Budgets, Question, answer_apart
from .computers import IDLE, URGENT
from .connection import Connection
from .conversation import hear
from .days import Days
from .entries import Logged, dense
from .games import LiveGame
from .inputs import (
    Advised,
    AnswerDue,
    Closed,
    Request,
    Ring,
    StandBy,
    Think,
    Thought,
)
from .limits import Bucket, client_host
from .making import make_rematch
from .refusals import Refused, message
from .store import StoreError

log = logging.getLogger(__name__)


class Room(Actor):
    """A game in play (:class:`~.actor.Actor`) and what it does with each input."""

    # -- a client's message ---------------------------------------------------------------

    async def _request(self, item: Request) -> None:
        connection, request = item.connection, item.request
        lang = self.live.lang
        if request is None:  # not read: flooding, a binary frame, not a message
            self._refuse(connection, Refused(message(item.sign or "message", lang)))
            return
        changed = False
        try:
            if isinstance(request, NameMessage | SayMessage):
                await self._converse(connection, request)
            elif isinstance(request, WhyMessage):
                await self._explain(connection, request)
            elif isinstance(request, AdviseMessage):
                self._advise(connection)
            elif isinstance(request, LessonMessage):
                await self._read_on(connection)
            else:
                work: Work = lambda live: self._perform(live, connection, request)  # noqa: E731
                changed = await self._change(work, connection)
        except Refused as exc:
            self._refuse(connection, exc)
            return
        if isinstance(request, ActionMessage):  # paced by the game (connection.RATE)
            if changed:
                self.services.metrics.actions.labels(by="person").inc()
                self.services.metrics.answer_seconds.observe(time.monotonic() - item.started)
        else:
            connection.bucket.spend()

    def _perform(
        self,
        live: LiveGame,
        connection: Connection,
        request: ActionMessage | SeatMessage | AutoMessage | CoachMessage,
    ) -> bool:
        """What a message asks of the game (blocking); whether it changed."""
        seat, store = connection.seat, self.services.store
        if isinstance(request, ActionMessage):  # checked against what this connection was shown
            live.play(store, check(live, seat, request, connection.shown))
            return True
        if seat is None:
            raise Refused(message("spectator", live.lang))
        if isinstance(request, AutoMessage):  # the seat's own setting: only its view changes
            return live.set_manual(store, seat, not request.on)
        if isinstance(request, CoachMessage):  # every person's view may change (who may ask)
            return live.set_coach(store, seat, request.agree)
        if request.type == "rematch":
            if not live.state.is_over:
                raise Refused(message("not-over", live.lang))
            make_rematch(live, store)  # opened by whoever follows the link (Hub.room)
            return True  # every connection learns of it
        return live.set_away(store, seat, request.type == "leave")

    async def _read_on(self, connection: Connection) -> None:
        """A guided game's learner read the lesson shown ("Got it"): the next one due opens,
        kept in the game's log, and only the learner's view changes. Anybody else's changes
        nothing, as an ``auto`` of a seat without a question would not."""
        if connection.seat is None:
            raise Refused(message("spectator", self.live.lang))
        read, store = self.tutoring.read_on(self.live, connection.seat), self.services.store
        if read is not None:
            await self._change(lambda live: bool(live.write(store, [read])), connection)

    async def _converse(self, connection: Connection, request: NameMessage | SayMessage) -> None:
        """A name chosen or a line said (:mod:`.talk` decides; a :class:`Refused` says why
        not): whoever may read it is sent it, here and, through the store, elsewhere."""
        live, services = self.live, self.services
        args = (services.store, live, connection.seat, connection.talk, request)
        if await asyncio.to_thread(hear, *args):
            self.push()
            await self._publish()

    async def _explain(self, connection: Connection, request: WhyMessage) -> None:
        """Answer a "why" to the asking connection only: nothing changes."""
        if connection.whys.take() > 0:
            raise Refused(message("why-pace", self.live.lang))
        live = self.live
        answer = await asyncio.to_thread(why, live, connection.seat, request, connection.shown)
        connection.post(answer)

    def _advise(self, connection: Connection) -> None:
        """A seat asks the coach (:mod:`.coach`): the expert thinks in its own process and its
        answer comes back as an input, for this connection only, unless the decision moved on.
        One question per seat at a time, a pace per connection, and a bound on the questions
        in flight, in all and per client address; a :class:`Refused` says why not."""
        live, settings, coached = self.live, self.services.settings, self.services.coached
        seat, lang = connection.seat, live.lang
        refusal = coach_refusal(live.kinds, seat, live.setup.coach, live.coached)
        if refusal is not None:
            raise Refused(message(refusal, lang))
        assert seat is not None  # a spectator is refused above
        state = live.state
        if state.is_over or state.to_act != seat:
            raise Refused(message("coach-not-deciding", lang))
        if seat in self.advising:
            raise Refused(message("coach-busy", lang))
        address = client_host(connection.websocket)
        in_flight = sum(coached.values())
        if in_flight >= settings.coach_in_flight or coached[address] >= settings.coach_per_address:
            raise Refused(message("coach-full", lang))
        if connection.coach is None:
            per_second = settings.coach_per_minute / 60
            connection.coach = Bucket(per_second, settings.coach_burst, connection.clock)
        wait = connection.coach.take()
        if wait > 0:
            raise Refused(message("coach-pace", lang, seconds=max(1, round(wait))))
        actions = tuple(live.match.actions)
        question = Question(
            live.record, actions, seat, state.move, tuple(live.names), tuple(live.kinds)
        )
        coached[address] += 1
        task = asyncio.create_task(self._ask_coach(connection, question, address))
        self.advising[seat] = task

    async def _ask_coach(self, connection: Connection, question: Question, address: str) -> None:
        services = self.services
        budgets = Budgets(services.settings.coach_iterations, services.settings.coach_seconds)
        try:
            work = functools.partial(answer_apart, question, budgets, self.live.lang)
            made = await services.coach.run(URGENT, work)
            self.post(Advised(connection, question.seat, len(question.actions), made))
        except Exception:
            services.metrics.errors.labels(where="coach").inc()
            log.exception("game %s: the coach failed", self.live.id)
        finally:
            services.coached[address] -= 1
            if services.coached[address] <= 0:
                del services.coached[address]
            if self.advising.get(question.seat) is asyncio.current_task():
                del self.advising[question.seat]

    def _advised(
        self, connection: Connection, seat: int, actions: int, made: AdviceMessage
    ) -> None:
        live = self.live
        moved_on = len(live.match.actions) != actions
        allowed = coach_refusal(live.kinds, seat, live.setup.coach, live.coached)
        if moved_on or allowed is not None or connection not in self.connections:
            return  # the decision moved on (or the coach was turned off): dropped
        connection.post(made)

    # -- clocks and computer players ------------------------------------------------------

    def standing_by(self) -> bool:
        """Whether another process made the game's last change (several serve it): that one
        runs its clock, its automatic answers and its computer players; this one only
        ``STAND_BY`` later, in case it is gone, and asks the store first. Never two at once."""
        return self.services.fanout is not None and self.live.heard

    def busy(self) -> bool:
        """Whether the game goes on without anybody connected, and is kept in memory until it
        waits again: an answer is on its way for a person, or the computers play a turn-based
        game (nobody need open it for it to go on; a game without deadlines waits in the
        store, and goes on when somebody opens it)."""
        if self.answering is not None:
            return True
        return isinstance(self.live.timer, Days) and self.live.computer_to_act()

    def _wind(self) -> None:
        """(Re)start the timer that hands the deciding person's seat to a computer player when
        their time runs out, and the forced answer owed (:meth:`_answer_later`)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        deadline = self.live.deadline()
        if deadline is not None and self.standing_by():  # see LiveGame.run_out
            deadline += STAND_BY
        if deadline is not None and not self.closed:
            self.timer = asyncio.create_task(self._ring(self.live.state.move, deadline))
        self._answer_later()

    async def _ring(self, move: int, deadline: float) -> None:
        # The deadline is by the game's clock (the hub's): woken early by it, the timer is wound
        # again (_change).
        await asyncio.sleep(max(0.0, deadline - self.live.ticks()))
        if self.timer is asyncio.current_task():
            self.timer = None  # this task ends here: the push may wind a new one
        self.post(Ring(move))

    def _answer_later(self) -> None:
        """Give the forced answer of a person's window question for them (LiveGame.forced_answer)
        after a short random delay, like a quick person's; whether or not they have the game
        open. As with the clock, where another process made the game's last change, that one
        answers, and this one only ``STAND_BY`` later, asking the store first."""
        live = self.live
        forced = live.forced_answer() is not None
        move = live.state.move
        if self.answering is not None:
            if forced and self.answers == move:  # already on its way (a push changed nothing)
                return
            self.answering.cancel()
            self.answering = None
        if not forced or self.closed:
            return
        delay = self.services.settings.answer_after()
        if self.standing_by():
            delay += STAND_BY
        self.answers = move
        # Due by the clock now (not when the task first runs: a test's clock may move between)
        due = self.services.clock() + delay
        self.answering = asyncio.create_task(self._answer(move, due))

    async def _answer(self, move: int, due: float) -> None:
        clock = self.services.clock
        while (left := due - clock()) > 0:  # by the hub's clock (a test's may stand still)
            await asyncio.sleep(left)
        self.post(AnswerDue(move))  # only if it is still the same question (answer_for)
        if self.answering is asyncio.current_task():
            self.answering = None  # this task ends here: the push may start the next one

    def _kick(self) -> None:
        """Let the computer players act when the decision is theirs. Where another process made
        the game's last change, that process lets them; this one takes over only if the game
        stands still ``STAND_BY`` seconds (that process is gone): two processes playing the same
        decision would meet at the store's key, and one would have to rebuild."""
        live = self.live
        if self.closed or self.computing is not None or not live.computer_to_act():
            return
        move = live.state.move
        if self.standing_by():
            self.computing = asyncio.create_task(self._after(STAND_BY, StandBy(move)))
            return
        settings = self.services.settings
        # People follow the computers' play: a pause before each decision, every one alike
        # (shown or in a window: the pause tells nothing); a game nobody watches waits
        # ``computer_pace`` between decisions, behind those somebody waits for.
        pause = settings.computer_delay if self.connected() else self._pace
        self.computing = asyncio.create_task(self._after(pause, Think(move)))

    async def _after(self, seconds: float, item: Think | StandBy) -> None:
        # ``computing`` stays set until the input is handled: one decision at a time.
        if seconds > 0:
            await asyncio.sleep(seconds)
        self.post(item)

    def _think(self, move: int) -> None:
        """Ask the computers' pool for the decision at ``move``; the room goes on meanwhile."""
        self.computing = None
        live = self.live
        if live.state.move != move or not live.computer_to_act():
            self._kick()
            return
        self.thinking = move
        waited = bool(self.connected())
        self.computing = asyncio.create_task(self._decide(move, waited))

    async def _decide(self, move: int, waited: bool) -> None:
        services, live = self.services, self.live
        started = time.monotonic()
        try:
            action = await services.computers.run(URGENT if waited else IDLE, live.computer_choice)
            self.post(Thought(move, action, None, time.monotonic() - started, waited))
        except Exception as exc:
            self.post(Thought(move, None, exc, 0.0, waited))

    async def _thought(self, item: Thought) -> None:
        # ``computing`` stays set while the decision is applied (it is the computers' turn
        # still), and is let go only to kick the next.
        self.thinking = None
        services = self.services
        try:
            if item.error is not None:
                services.metrics.errors.labels(where="computer").inc()
                log.error(
                    "game %s: the computer players stopped", self.live.id, exc_info=item.error
                )
                return
            action, store, move = item.action, services.store, item.move
            assert action is not None  # a decision, or an error
            # Nobody waited for this one: the next waits its turn behind those somebody waits for
            self._pace = 0.0 if item.waited else services.settings.computer_pace
            if await self._change(lambda live: live.computer_apply(store, move, action)):
                services.metrics.think_seconds.observe(item.seconds)
                services.metrics.actions.labels(by="computer").inc()
        finally:
            self.computing = None
        if item.error is None:
            self._kick()

    async def _catch_up(self, move: int | None, entries: tuple[Logged, ...]) -> None:
        """Another process advanced the game to ``move`` (None: perhaps, look), writing
        ``entries``: fold them where they follow this copy's last entry, else bring it up to
        the store; push it. The computer players only catch up here: the process that applied
        the person's action lets them act."""
        live = self.live
        if move is not None and live.state.move >= move:
            return
        news = following(entries, live.table_state.applied)
        if news is None:  # a notice missed or late, a game loading meanwhile: the store has it
            if await self._read_store():
                self._kick()
            return
        try:
            folded = live.take_in(news)  # in memory: no wait for the database
        except StoreError as exc:
            await self._rebuild(str(exc))
            return
        if folded:
            self.push()
        self._kick()

    async def _stand_by(self, move: int) -> None:
        """Another process plays this game's computers: take them on if it stood still."""
        self.computing = None
        live = self.live
        if not live.computer_to_act():
            return
        if live.state.move == move:
            if not await self._read_store():
                return  # rebuilt in place (its computers let on there)
            if live.state.move == move:  # nobody played on: this process does
                live.heard = False
        self._kick()


def following(entries: tuple[Logged, ...], last: int) -> list[Logged] | None:
    """The ``entries`` a copy whose last entry is ``last`` has not folded, where they follow it
    with no gap; None where they do not (or there are none: the store has them)."""
    news = [item for item in entries if item.n > last]
    if not entries or not dense([item.n for item in news], last):
        return None
    return news


__all__ = ["MAX_TABS", "STAND_BY", "Closed", "Room", "Viewer"]
