"""The entries of a game's one ordered log: its actions and its table events, in the order the
store took them (:class:`apokalypse.server.store.Store`, the ``entries`` table).

An action (:class:`Acted`) moves the game; a table event changes the table around it: who is
away (:class:`Away`), who answers forced questions themselves (:class:`Manual`), who agreed to
the coach (:class:`Coached`), a seat's name (:class:`Named`), the rematch (:class:`Rematch`), a
turn-based game's deadline (:class:`Due`), a guided game's "Got it" (:class:`Read`), a line of
talk (:class:`Said`). A game in memory is
the fold of its log (:meth:`apokalypse.server.games.LiveGame.fold`), and a server process that
was told of a change folds the entries the notice carried, or reads those after the last one it
folded where the notice's do not follow it.

Each kind is kept as a ``kind`` and a JSON ``body``; :func:`to_row` and :func:`from_row` are the
only translations between the two. :func:`to_notice` and :func:`from_notice` carry a logged
entry in a notice to the other processes (:mod:`.fanout`), as the same columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from apokalypse.engine.errors import EngineError
from apokalypse.wire.talk import Channel


class BadEntry(EngineError):
    """A stored entry this server cannot read (a kind or a body it does not know)."""


@dataclass(frozen=True)
class Acted:
    """The action that made ``move`` (the number of actions applied, this one included), and
    ``shown``, the move everybody is shown after it (frozen in a window; None for an action
    stored before that was kept)."""

    move: int
    text: str
    shown: int | None


@dataclass(frozen=True)
class Away:
    """The person at ``seat`` leaves it to a computer (``on``) or takes it back. One entry per
    seat (so with :class:`Manual` and :class:`Coached`): two processes that change two seats at
    once change both."""

    seat: int
    on: bool


@dataclass(frozen=True)
class Manual:
    """The person at ``seat`` answers a window's forced question themselves (``on``), or
    leaves it to the server again."""

    seat: int
    on: bool


@dataclass(frozen=True)
class Coached:
    """The person at ``seat`` agrees to the coach (``on``) or takes it back
    (:mod:`apokalypse.wire.coach`)."""

    seat: int
    on: bool


@dataclass(frozen=True)
class Named:
    """The person at ``seat`` chose to be called ``name``."""

    seat: int
    name: str


@dataclass(frozen=True)
class Rematch:
    """A rematch was asked for: the game ``game_id``. The first such entry of a log is the
    game's rematch; a later one (two processes asking at once) names nothing."""

    game_id: str


@dataclass(frozen=True)
class Due:
    """A turn-based game's deadline from here on (None: nobody is timed)."""

    deadline: datetime | None


@dataclass(frozen=True)
class Read:
    """A guided game's learner read the lesson shown ("Got it") after ``after`` actions: the
    next lesson due opened then (:mod:`apokalypse.server.tutorial.tutor`)."""

    after: int


@dataclass(frozen=True)
class Said:
    """A line of table talk: its channel, the speaker's seat (None: a spectator) and name as it
    was when they spoke."""

    channel: Channel
    seat: int | None
    name: str
    text: str


TableEvent = Away | Manual | Coached | Named | Rematch | Due | Read | Said
Entry = Acted | TableEvent
Kind = Literal["action", "away", "manual", "coach", "name", "rematch", "deadline", "lesson", "talk"]


@dataclass(frozen=True)
class Logged:
    """An entry as the log holds it: its place ``n`` (1, 2, … within the game) and when it was
    taken."""

    n: int
    entry: Entry
    created: datetime


@dataclass(frozen=True)
class Row:
    """An entry's columns (besides the game and its place)."""

    kind: Kind
    body: dict[str, object]
    move: int | None = None  # an action's: unique per game (a stale action's key)
    channel: Channel | None = None  # a line's: counted per channel (the talk's bound)


def to_row(entry: Entry) -> Row:
    match entry:
        case Acted(move, text, shown):
            return Row("action", {"text": text, "shown": shown}, move=move)
        case Away(seat, on):
            return Row("away", {"seat": seat, "on": on})
        case Manual(seat, on):
            return Row("manual", {"seat": seat, "on": on})
        case Coached(seat, on):
            return Row("coach", {"seat": seat, "on": on})
        case Named(seat, name):
            return Row("name", {"seat": seat, "name": name})
        case Rematch(game_id):
            return Row("rematch", {"game": game_id})
        case Due(deadline):
            return Row("deadline", {"at": None if deadline is None else deadline.isoformat()})
        case Read(after):
            return Row("lesson", {"after": after})
        case Said(channel, seat, name, text):
            body: dict[str, object] = {"seat": seat, "name": name, "text": text}
            return Row("talk", body, channel=channel)


def from_row(kind: str, body: Mapping[str, object], move: int | None, channel: str | None) -> Entry:
    """The entry a stored row holds; a :class:`BadEntry` names what it could not read."""
    try:
        match kind:
            case "action":
                assert move is not None
                shown = body.get("shown")
                return Acted(move, str(body["text"]), shown if isinstance(shown, int) else None)
            case "away":
                return Away(_int(body["seat"]), body["on"] is True)
            case "manual":
                return Manual(_int(body["seat"]), body["on"] is True)
            case "coach":
                return Coached(_int(body["seat"]), body["on"] is True)
            case "name":
                return Named(_int(body["seat"]), str(body["name"]))
            case "rematch":
                return Rematch(str(body["game"]))
            case "deadline":
                at = body.get("at")
                return Due(None if at is None else _utc(datetime.fromisoformat(str(at))))
            case "lesson":
                return Read(_int(body["after"]))
            case "talk":
                said: Channel = "players" if channel == "players" else "spectators"
                seat = body.get("seat")
                speaker = None if seat is None else _int(seat)
                return Said(said, speaker, str(body["name"]), str(body["text"]))
    except (AssertionError, KeyError, TypeError, ValueError) as exc:
        raise BadEntry(f"a {kind!r} entry that does not read ({exc!r})") from None
    raise BadEntry(f"an entry of an unknown kind {kind!r}")


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not a whole number: {value!r}")
    return value


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass
class TableState:
    """The table as a game's log has it so far: the fold of its table events (a game in memory
    holds one, :class:`apokalypse.server.games.LiveGame`; a reader of a stored game folds one,
    :meth:`apokalypse.server.store.Store.table`)."""

    players: int
    away: frozenset[int] = frozenset()
    manual: frozenset[int] = frozenset()
    coached: frozenset[int] = frozenset()
    names: list[str | None] = field(default_factory=list)
    rematch: str | None = None
    due: datetime | None = None
    reads: tuple[int, ...] = ()  # a guided game's "Got it"s, each after so many actions
    lines: dict[Channel, int] = field(default_factory=lambda: {"players": 0, "spectators": 0})
    applied: int = 0  # the place of the last entry folded (0: none)

    def __post_init__(self) -> None:
        if not self.names:
            self.names = [None] * self.players

    def fold(self, entry: TableEvent) -> bool:
        """Take in a table event; whether it changed the table (a line of talk always does)."""
        match entry:
            case Away(seat, on):
                changed, self.away = _turned(self.away, seat, on)
            case Manual(seat, on):
                changed, self.manual = _turned(self.manual, seat, on)
            case Coached(seat, on):
                changed, self.coached = _turned(self.coached, seat, on)
            case Named(seat, name):
                names = self.names + [None] * (seat + 1 - len(self.names))
                changed, names[seat] = names[seat] != name, name
                self.names = names  # a new list: a copy handed out earlier stays as it was
            case Rematch(game_id):
                changed = self.rematch is None  # the first asked is the rematch
                self.rematch = self.rematch or game_id
            case Due(deadline):
                changed, self.due = deadline != self.due, deadline
            case Read(after):
                self.reads += (after,)
                changed = True
            case Said(channel):
                self.lines[channel] += 1
                changed = True
        return changed

    def fold_all(self, logged: list[Logged]) -> TableState:
        """This table with ``logged`` (in order) taken in: its table events folded, its actions
        passed over (they are the game's, not the table's)."""
        for item in logged:
            if not isinstance(item.entry, Acted):
                self.fold(item.entry)
            self.applied = item.n
        return self


def _turned(seats: frozenset[int], seat: int, on: bool) -> tuple[bool, frozenset[int]]:
    """Whether turning ``seat`` on or off changes ``seats``, and the seats then."""
    turned = seats | {seat} if on else seats - {seat}
    return turned != seats, turned


def logged_from(
    n: int,
    kind: str,
    body: Mapping[str, object],
    move: int | None,
    channel: str | None,
    created: datetime,
) -> Logged:
    """An entry's place and columns, as the store or a notice holds them, as the logged entry
    (its time in UTC: SQLite gives it back without its zone)."""
    return Logged(n, from_row(kind, body, move, channel), _utc(created))


def dense(places: Sequence[int], after: int) -> bool:
    """Whether ``places`` are after+1, after+2, … with no gap (a log's entries, its actions)."""
    return list(places) == list(range(after + 1, after + 1 + len(places)))


def to_notice(logged: Logged) -> dict[str, object]:
    """A logged entry as JSON for the other processes: its place, its columns and its time."""
    row = to_row(logged.entry)
    return {
        "n": logged.n,
        "kind": row.kind,
        "body": row.body,
        "move": row.move,
        "channel": row.channel,
        "created": logged.created.isoformat(),
    }


def from_notice(data: object) -> Logged:
    """The logged entry :func:`to_notice` made; a :class:`BadEntry` for anything else."""
    if not isinstance(data, dict):
        raise BadEntry(f"a noticed entry that is not an object: {data!r}")
    try:
        n, body, move = _int(data["n"]), data["body"], data["move"]
        kind, channel = str(data["kind"]), data["channel"]
        created = datetime.fromisoformat(str(data["created"]))
        if not isinstance(body, dict) or not (move is None or isinstance(move, int)):
            raise TypeError("a body that is not an object, or a move that is no number")
        if channel is not None and not isinstance(channel, str):
            raise TypeError(f"a channel that is no text: {channel!r}")
    except (KeyError, TypeError, ValueError) as exc:
        raise BadEntry(f"a noticed entry that does not read ({exc!r})") from None
    return logged_from(n, kind, body, move, channel, created)
