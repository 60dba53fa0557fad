"""A table's setup as the server made it: who sits where, the language, the deadline, the coach
offered, a guided game, the seats' keys. Kept in the stored record's ``meta`` (JSON), read once
into a frozen :class:`Setup` (:meth:`Setup.of`), and only that is read afterwards.

What changes during a game (who is away, the names, the rematch …) is not setup: it is the
game's log (:mod:`.entries`).
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass

from .tokens import hash_token

COACH = "coach"  # the creator offered the coach to every person (wire/coach.py)
TUTORIAL = "tutorial"  # a guided first game (server/tutorial/)
TURN_BASED = "turn_based"  # {"seconds": per decision}
TIMER = "timer"  # {"turn": seconds, "bank": seconds}
REMATCH_OF = "rematch_of"  # the game this one is the rematch of


@dataclass(frozen=True)
class Setup:
    """A stored game's setup (its record's ``meta``, as :func:`Setup.of` reads it)."""

    kinds: tuple[str, ...]  # each seat's kind: "human" or a computer player's name
    lang: str = "en"
    keys: tuple[str | None, ...] = ()  # each person's seat key's SHA-256 (None: a computer)
    timer: tuple[float, float] | None = None  # a live clock: seconds per turn, of time bank
    turn_based: float | None = None  # instead: the seconds (hours or days) of each decision
    coach: bool = False  # the creator offered the coach to every person at the table
    tutorial: bool = False  # the guided first game
    rematch_of: str | None = None

    @property
    def players(self) -> int:
        return len(self.kinds)

    @classmethod
    def of(cls, meta: Mapping[str, object]) -> Setup:
        """The setup a stored meta holds (what it does not hold sensibly: the default)."""
        kinds = meta.get("seats")
        keys = meta.get("token_sha256")
        timer, turn_based = meta.get(TIMER), meta.get(TURN_BASED)
        clock = None
        if isinstance(timer, dict) and _number(timer.get("turn")) and _number(timer.get("bank")):
            clock = (float(timer["turn"]), float(timer["bank"]))
        days = None
        if isinstance(turn_based, dict) and _number(turn_based.get("seconds")):
            days = float(turn_based["seconds"])
        rematch_of = meta.get(REMATCH_OF)
        return cls(
            kinds=tuple(str(kind) for kind in kinds) if isinstance(kinds, list) else (),
            lang=str(meta.get("lang", "en")),
            keys=tuple(k if isinstance(k, str) else None for k in keys)
            if isinstance(keys, list)
            else (),
            timer=clock,
            turn_based=days,
            coach=meta.get(COACH) is True,
            tutorial=meta.get(TUTORIAL) is True,
            rematch_of=rematch_of if isinstance(rematch_of, str) else None,
        )

    def seat_of(self, token: str) -> int | None:
        """The person's seat whose key ``token`` is (compared with each key's SHA-256 in
        constant time); None for any other."""
        digest = hash_token(token)
        for seat, known in enumerate(self.keys):
            if known is not None and hmac.compare_digest(known, digest):
                return seat
        return None


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
