"""Who knows where a card is: what observations show and what determinization must respect.

Every seat has a record, and so has the public (index ``n``: what everybody knows, the view of a
spectator). A record holds *exact* places (card → seat) and *maybe* places (card → the seats one
of which holds it). Announcing a card writes every record. A card moving unseen between two hands
(a take, give or swap, seen by those two players only) teaches those two its new place; everyone
else only learns that the giver's hand lost *a* card to the receiver, so each card they placed
in the giver's hand may now be in either hand. Without that, a record would change with which card
moved: the observation would leak it.
"""

from __future__ import annotations

from collections.abc import Mapping

from apokalypse.engine.erased import Erased
from apokalypse.engine.events import Event

from .table import Table


def reset(s: Table) -> None:
    s.known = [{} for _ in range(s.n + 1)]
    s.maybe = [{} for _ in range(s.n + 1)]


def announce(s: Table, card: int, seat: int) -> None:
    """Everybody learns that ``card`` is in ``seat``'s hand."""
    for known, maybe in zip(s.known, s.maybe, strict=True):
        known[card] = seat
        maybe.pop(card, None)


def told(
    s: Table,
    kind: str,
    args: Mapping[str, Erased],
    secret: Mapping[str, Erased],
    seen: frozenset[int],
) -> Event:
    """An event whose ``secret`` part only the ``seen`` seats see, until the hands are revealed
    (K-SCORE-1): from then on every hand is face up, and everybody is told."""
    if s.revealed:
        return Event(kind, {**args, **secret})
    return Event(kind, args, secret, seen)


def forget(s: Table, card: int) -> None:
    """The card left the hands face up (discarded): nobody needs to place it any more."""
    for known, maybe in zip(s.known, s.maybe, strict=True):
        known.pop(card, None)
        maybe.pop(card, None)


def moved(s: Table, card: int, giver: int, receiver: int) -> None:
    """``card`` went from ``giver``'s hand to ``receiver``'s, seen by those two only (by
    everybody once the hands are revealed)."""
    if s.revealed:
        announce(s, card, receiver)
        return
    for who, (known, maybe) in enumerate(zip(s.known, s.maybe, strict=True)):
        if who in (giver, receiver):
            known[card] = receiver
            maybe.pop(card, None)
            continue
        for c in [c for c, q in known.items() if q == giver]:
            del known[c]
            maybe[c] = frozenset({giver, receiver})
        for c, seats in maybe.items():
            if giver in seats:
                maybe[c] = seats | {receiver}


def learn_hand(s: Table, who: int, seat: int) -> None:
    """Record ``who`` (a seat, or ``s.n`` for everybody) sees the whole hand of ``seat``."""
    known, maybe = s.known[who], s.maybe[who]
    hand = s.hands[seat]
    for card in hand:
        known[card] = seat
        maybe.pop(card, None)
    for card, seats in list(maybe.items()):
        if seat in seats:  # not in that hand after all
            rest = seats - {seat}
            if len(rest) == 1:
                del maybe[card]
                known[card] = next(iter(rest))
            else:
                maybe[card] = rest


def record(s: Table, player: int | None) -> tuple[dict[int, int], dict[int, frozenset[int]]]:
    """The exact and maybe places ``player`` (None: everybody) knows, other hands only."""
    who = s.n if player is None else player
    known = {c: q for c, q in s.known[who].items() if q != player}
    return known, dict(s.maybe[who])
