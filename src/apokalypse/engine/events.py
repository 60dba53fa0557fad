"""Events: what happened, with a public form and private forms for the players allowed to see more.

``Event("gift", {"actor": 0, "target": 2, "back": "K"}, secret={"card": "job/drugs"},
seen_by=frozenset({0, 2}))`` is "p1 gives p3 a K card" to everyone but p1 and p3, who also see which
card. Rules code only builds events; text is rendered from ``kind`` through message catalogs.

What leaves the engine for a player is that player's view, ``event.view(player).to_json()``: the
one way to serialise an event for somebody. The whole event, secret and all, is serialised only
into the record's digest (:meth:`Event.digest_form`), which is a hash and shows nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from .erased import Erased

# An event's arguments: JSON-ready values, never changed once the event is made. Their types
# depend on the game and the event's kind: its own code knows them, other readers check them.
Args = Mapping[str, Erased]


class EventView(NamedTuple):
    kind: str
    args: Args
    seen: bool  # True when this view includes the secret part

    def to_json(self) -> dict[str, object]:
        """This view as JSON-ready data, for the player it was made for."""
        return {"kind": self.kind, "args": dict(self.args), "seen": self.seen}


class Event(NamedTuple):
    kind: str
    args: Args
    secret: Args | None = None
    seen_by: frozenset[int] = frozenset()

    def view(self, player: int | None) -> EventView:
        """What ``player`` (None: a spectator) may know of this event. The one secrecy rule here."""
        if self.secret is not None and player is not None and player in self.seen_by:
            return EventView(self.kind, {**self.args, **self.secret}, True)
        return EventView(self.kind, self.args, False)

    def digest_form(self) -> dict[str, object]:
        """The whole event, the secret part and who may see it included: what the record's
        digest hashes. Never sent to anybody (send ``view(player).to_json()``)."""
        data: dict[str, object] = {"kind": self.kind, "args": self.args}
        if self.secret is not None:
            data["secret"] = self.secret
            data["seen_by"] = sorted(self.seen_by)
        return data


# Who may see an event's secret, shared: events that only one or two players see (a card dealt,
# a populace laid face down, a gift) are made all the time, and a ``frozenset`` is immutable.
_SEEN_BY: dict[tuple[int, int], frozenset[int]] = {}


def seen_by(player: int, other: int = -1) -> frozenset[int]:
    """``frozenset({player})``, or ``frozenset({player, other})`` when ``other`` >= 0."""
    key = (player, other)
    seats = _SEEN_BY.get(key)
    if seats is None:
        if len(_SEEN_BY) >= 1024:  # seats are few; only a caller with wild numbers gets here
            _SEEN_BY.clear()
        seats = _SEEN_BY[key] = frozenset((player,) if other < 0 else (player, other))
    return seats
