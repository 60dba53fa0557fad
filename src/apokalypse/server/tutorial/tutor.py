"""A guided game's coach in play: the lessons it opens and the move it suggests, worked out on
the server for the learner's seat and sent in that seat's state message alone
(:class:`~apokalypse.wire.tutorial.TutorialView`); the page only shows them.

The coach is the one that chose the prepared deals (:func:`.walk`): :class:`.CoachModel` opens
the lessons, :func:`.newcomer` ranks the moves. It follows the game's actions on a copy of its
own and looks at every state on the way, as the walk does, so one record makes the same lessons
in every server process and after a rebuild. It reads nothing but what the learner's seat may
know: that seat's observations, its legal actions when its observation shows it deciding, and
the kinds of its views of the events.

The learner's "Got it" (a ``lesson`` message) opens the next lesson due before the coach would.
Each is kept in the game's log as the number of the game's actions it came after (a ``lesson``
entry, :class:`apokalypse.server.entries.Read`), so a coach made again (a game rebuilt, loaded
after a restart, or served by another process) opens them where they came.
"""

from __future__ import annotations

from collections.abc import Sequence

from apokalypse.engine.erased import Erased
from apokalypse.engine.events import Event
from apokalypse.engine.record import GameRecord, apply_recorded, start
from apokalypse.wire.tutorial import TutorialView

from ..entries import Read
from ..games import LiveGame
from . import ANSWERED, GUIDES, LEARNER, CoachModel, newcomer
from .guide import Parts


class Tutor:
    """The coach of one guided game (:func:`tutor_for`)."""

    seat = LEARNER

    def __init__(self, record: GameRecord, reads: Sequence[int] = ()) -> None:
        self.name = record.game
        self.guide = GUIDES[record.game]
        self.game, self.state = start(record)  # the deal alone: the actions come by follow
        self.coach = CoachModel(self.guide)
        self.kinds: set[str] = set()
        self.followed = 0  # the game's actions applied to this copy
        self.reads: list[int] = []
        self.given = len(reads)  # the game log's "Got it"s this coach was made with, or wrote
        self._later = sorted(reads)  # "Got it"s of an earlier copy, opened again as they came
        self._saw(self.state.opening)

    def follow(self, actions: Sequence[str]) -> None:
        """Follow the game's ``actions`` (every one so far, as its match holds them) from the
        first this coach has not seen, looking at the learner's view after each."""
        for number in range(self.followed, len(actions)):
            events = apply_recorded(self.game, self.state, number + 1, actions[number])
            self.followed += 1
            self._saw(events)

    def read_on(self, actions: Sequence[str]) -> bool:
        """The learner's "Got it": the game followed up to ``actions``, the next lesson due
        opens now; False when none is due."""
        self.follow(actions)
        return self._open_next()

    def view(self, manual: bool = False) -> TutorialView:
        """What the learner's state message shows now (``manual``: the learner answers the
        questions the server would answer for them, so such a question is theirs to decide)."""
        obs, parts = self._seen()
        answered = not manual and _answered(parts)
        chosen = None if not parts or answered else newcomer(self.name, obs, parts, self.current)
        return {
            "lessons": list(self.coach.topics),
            "due": self.guide.due(obs, parts, self.kinds, self.coach.topics),
            "suggestion": chosen,
        }

    @property
    def current(self) -> str | None:
        """The lesson the coach shows now (the one its suggestion favours where it matters)."""
        return self.coach.current

    # -- the learner's view, step by step ---------------------------------------------------

    def _saw(self, events: Sequence[Event]) -> None:
        self.kinds.update(event.view(LEARNER).kind for event in events)
        obs, parts = self._seen()
        self.coach.look(obs, parts, self.kinds)
        while self._later and self._later[0] <= self.followed:
            self._later.pop(0)
            self._open_next()

    def _seen(self) -> tuple[dict[str, Erased], list[Parts]]:
        """The learner's observation and, when it shows the learner deciding, the parts of its
        legal actions (as its state message lists them); never anything of another seat."""
        obs = dict(self.state.observation(LEARNER))
        deciding = not self.state.is_over and obs.get("to_act") == LEARNER
        legal = self.state.legal_actions() if deciding else []
        return obs, [self.guide.parts(action) for action in legal]

    def _open_next(self) -> bool:
        """Open the first lesson due now, as the coach opens one (:meth:`CoachModel.look`)."""
        obs, parts = self._seen()
        due = self.guide.due(obs, parts, self.kinds, self.coach.topics)
        if not due:
            return False
        self.coach.topics.append(due[0])
        self.coach.current = due[0]
        deciding = bool(parts) and not _answered(parts)
        self.coach.decided_at = obs["move"] if deciding else None
        self.reads.append(self.followed)
        return True


def _answered(parts: Sequence[Parts]) -> bool:
    """A lone answer to a window's question: the server gives it for the learner."""
    return len(parts) == 1 and parts[0]["verb"] in ANSWERED


def tutor_for(record: GameRecord, reads: Sequence[int] = ()) -> Tutor | None:
    """The coach of a guided game (its meta says ``tutorial``), None for any other game;
    ``reads``: the "Got it"s of an earlier copy of the same game (:attr:`Tutor.reads`)."""
    if record.meta.get("tutorial") is not True or record.game not in GUIDES:
        return None
    return Tutor(record, reads)


class Tutoring:
    """A room's guided-game coach, kept to its game's log: made with the "Got it"s the log
    holds, and made again where the log has one this coach did not write (another process's)
    or the game was rebuilt. Nothing at all for any other game."""

    def __init__(self, live: LiveGame) -> None:
        self.tutor = tutor_for(live.record, live.table_state.reads)

    def view(self, live: LiveGame, seat: int | None) -> tuple[int, TutorialView] | None:
        """The coach as ``seat`` is shown it: only its learner, at the game's last action."""
        tutor, reads = self.tutor, live.table_state.reads
        if tutor is None or seat != tutor.seat:
            return None
        if tutor.given != len(reads):
            tutor = self.tutor = Tutor(live.record, reads)
        tutor.follow(live.match.actions)
        return tutor.seat, tutor.view(manual=seat in live.manual)

    def read_on(self, live: LiveGame, seat: int | None) -> Read | None:
        """The learner's "Got it": the entry to write to the game's log when a lesson opened
        (None: none was due, or ``seat`` is not the learner's)."""
        tutor = self.tutor
        if tutor is None or seat != tutor.seat or not tutor.read_on(live.match.actions):
            return None
        tutor.given += 1
        return Read(len(live.match.actions))
