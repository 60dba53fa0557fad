"""The draw pile (K-ROUND-2, KD-END-2): one card at a time, refilled from the discard piles.

Its own module because both the flow (the draw phases) and the effects (KD-EFFECT-5: an effect
that draws more cards) draw, and the flow already imports the effects.
"""

from __future__ import annotations

from apokalypse.engine.events import Event

from . import events as ev
from . import knowledge
from .cards import CODES
from .table import Table


def draw_card(s: Table, seat: int, events: list[Event]) -> int:
    """One card from the draw pile; an empty pile is refilled from the discard piles
    (KD-END-2). Returns -1 when no card is left anywhere outside the hands. Only the drawer
    sees which card it is, unless the hands are revealed."""
    if not s.pile:
        for pile in s.discards:
            s.pile.extend(pile)
            pile.clear()
        if not s.pile:
            empty: ev.PileEmpty = {"seat": seat}
            events.append(Event("pile-empty", empty))
            return -1
        s.pile.sort()
        s.rng.shuffle(s.pile)
        reshuffled: ev.Reshuffle = {"cards": len(s.pile)}
        events.append(Event("reshuffle", reshuffled))
    card = s.pile.pop()
    s.hands[seat].append(card)
    if s.revealed:
        # A card drawn in the final scoring (KD-EFFECT-5) joins a hand shown face up
        # (K-SCORE-1): everybody knows where it is, as a card moved between revealed hands.
        knowledge.announce(s, card, seat)
    drawn: ev.Draw = {"seat": seat}
    events.append(knowledge.told(s, "draw", drawn, {"card": CODES[card]}, frozenset({seat})))
    return card
