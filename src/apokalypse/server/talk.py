"""A game's names and table talk on the server: kept in the store, held in memory with the game,
and sent to each connection as the wire's rule allows (:func:`apokalypse.wire.talk.may_read`).

The store is the truth (``name`` and ``talk`` entries of the game's log, :mod:`.entries`): a
line said or a name chosen through one server process reaches the connections of the others
when they fold the log after the fan-out's notice. Memory holds the last
:data:`~apokalypse.wire.talk.HISTORY` lines of each channel: all a connection is ever sent when
it joins.

What a person can make the server keep is bounded: a line a second on average per connection
(five at once), and :data:`MOST_LINES` lines per channel and game; each channel is bounded
apart, so a player refused for a full table learns nothing of how much the spectators said.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from apokalypse.wire.talk import CHANNELS, HISTORY, Channel, TalkLine, may_read

from .entries import Said
from .limits import Bucket

MOST_LINES = 1000  # lines kept per channel of a game
LINE_RATE = 1.0  # lines a connection may say per second on average …
LINE_BURST = 5.0  # … and at once


def said_line(said: Said, n: int, created: datetime) -> TalkLine:
    """A line of the log as the wire sends it: ``n``, its number in its channel."""
    return {
        "n": n,
        "channel": said.channel,
        "seat": said.seat,
        "name": said.name,
        "text": said.text,
        "at": round(created.timestamp() * 1000),
    }


@dataclass
class GameTalk:
    """A game's talk in memory: the newest lines of each channel, how many each holds, and the
    number in the game of the newest line held (what a catch-up reads after)."""

    lines: dict[Channel, list[TalkLine]] = field(
        default_factory=lambda: {channel: [] for channel in CHANNELS}
    )
    last: int = 0

    def count(self, channel: Channel) -> int:
        held = self.lines[channel]
        return held[-1]["n"] if held else 0

    def add(self, number: int, line: TalkLine) -> None:
        """A line kept in the store as the log's entry ``number``."""
        held = self.lines[line["channel"]]
        if held and held[-1]["n"] >= line["n"]:
            return  # heard of already
        held.append(line)
        del held[:-HISTORY]
        self.last = max(self.last, number)


@dataclass
class Listener:
    """One connection's part of the talk: its spectator's name, its pace, and the last line of
    each channel it was sent (0: none yet; a channel it may not read stays at 0 until it may,
    when the game ends, and then it is sent that channel's history)."""

    name: str | None = None
    heard: dict[Channel, int] = field(default_factory=lambda: dict.fromkeys(CHANNELS, 0))
    clock: Callable[[], float] = time.monotonic  # what its pace counts by (the hub's clock)
    pace: Bucket = field(init=False)

    def __post_init__(self) -> None:
        self.pace = Bucket(LINE_RATE, LINE_BURST, self.clock)

    def may_say(self) -> bool:
        """Whether this connection may say a line now; takes it if so."""
        return self.pace.take() == 0

    def news(self, talk: GameTalk, seat: int | None, over: bool) -> list[TalkLine]:
        """The lines of ``talk`` this connection (of ``seat``) may read and was not sent yet,
        in the order they were said; marked as sent."""
        lines: list[TalkLine] = []
        for channel in CHANNELS:
            if not may_read(seat, channel, over):
                continue
            heard, count = self.heard[channel], talk.count(channel)
            if count > heard:  # most pushes bring no talk: nothing to look through
                lines += [line for line in talk.lines[channel] if line["n"] > heard]
                self.heard[channel] = count
        lines.sort(key=lambda line: line["at"])
        return lines
