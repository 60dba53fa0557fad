"""Dealing at the end of a round (R-DEAL) and refilling the decks after a horseman (R-REFILL)."""

from __future__ import annotations

from apokalypse.engine.events import Event, seen_by

from . import events as ev
from .board import Board
from .cards import EARTH, EVIL, GOOD, HORSEMAN, NETHER
from .knowledge import trace_forget
from .observation import Back
from .pending import turn

POPULATION, CAPITAL = 0, 1
DECK_NAMES: tuple[Back, Back] = ("B", "K")


def serving_slots(s: Board, seat: int, deck: int) -> list[int]:
    """How many cards each populace of a display earns from ``deck``, in dealing order.

    R-DEAL-1/2/4: the basic populace first, then positions 0, 1, … of the deck's own side
    (good for B, evil for K), each 1 card ± its Netherworld modifier, extras right after their
    own card (D-DEAL-1). Populaces of the other side that earn this deck through a modifier
    (+1B Unbridled Sex, +1K Job) follow in position order (D-DEAL-1, D-DEAL-2)."""
    own = GOOD if deck == POPULATION else EVIL
    other = 1 - own
    rows = s.displays[seat]
    kinds = s.table.kind
    slots = [1]
    nether = rows[own * 3 + NETHER]  # a populace's modifier is the Netherworld card below it
    for pos in range(len(rows[own * 3 + EARTH])):
        extra = kinds[nether[pos]].modifier[own][deck] if pos < len(nether) else 0
        slots.append(max(0, 1 + extra))
    nether = rows[other * 3 + NETHER]
    for pos in range(min(len(rows[other * 3 + EARTH]), len(nether))):
        extra = kinds[nether[pos]].modifier[other][deck]
        if extra > 0:
            slots.append(extra)
    return slots


def deal(s: Board, deck: int, events: list[Event]) -> int:
    """Deal one deck round-robin, a card at a time, adding to ``events``; stop at a horseman
    and return it (R-DEAL-3/4), else -1. The round's end (:mod:`.state`) deals both decks."""
    order = [(s.startup + i) % s.n for i in range(s.n)]
    slots = [serving_slots(s, seat, deck) for seat in range(s.n)]
    pile = s.own_decks()[deck]
    kinds = s.table.kind
    back = DECK_NAMES[deck]
    # What every card dealt to a seat shares: an event's arguments are never changed.
    public: list[ev.Deal] = [{"target": seat, "back": back} for seat in range(s.n)]
    private = [seen_by(seat) for seat in range(s.n)]
    for j in range(max(len(x) for x in slots)):
        for seat in order:
            if j >= len(slots[seat]):
                continue
            hand = s.hands[seat]
            for _ in range(slots[seat][j]):
                card = pile.pop()
                kind = kinds[card]
                if kind.role == HORSEMAN:
                    s.horse_supply.append(card)
                    horseman: ev.Horseman = {"number": kind.horseman, "deck": back}
                    events.append(Event("horseman", horseman))
                    return card
                hand.append(card)
                events.append(Event("deal", public[seat], {"card": kind.code}, private[seat]))
    return -1


def new_round(s: Board) -> list[Event]:
    s.round += 1
    s.passed = [False] * s.n
    s.first_passer = -1
    s.pending = turn(s.startup)  # R-TURN-1
    told: ev.RoundStart = {"round": s.round, "startup": s.startup}
    return [Event("round-start", told)]


def set_aside(s: Board, number: int) -> None:
    """R-REFILL-1 first step: a copy of the horseman still in a deck is set aside."""
    kinds = s.table.kind
    for pile in s.own_decks():
        for i, card in enumerate(pile):
            if kinds[card].role == HORSEMAN and kinds[card].horseman == number:
                del pile[i]
                s.horse_supply.append(card)
                break


def refill(s: Board, number: int) -> list[Event]:
    """R-REFILL-1: cards above the next horseman + the discard pile, shuffled, onto it."""
    kinds = s.table.kind
    for deck, pile in enumerate(s.own_decks()):
        at = next(
            i
            for i, card in enumerate(pile)
            if kinds[card].role == HORSEMAN and kinds[card].horseman == number + 1
        )
        fresh = pile[at + 1 :] + s.discards[deck]
        del pile[at + 1 :]
        s.discards[deck].clear()
        if deck == POPULATION:
            s.face_down.clear()  # back into the deck, unseen again
            for card in fresh:
                s.laid_by.pop(card, None)
            if any(s.seat_traces):  # where those cards lie is not public any more
                gone = frozenset(fresh)
                s.own_knowledge()
                traces = s.seat_traces
                for viewer, trace in enumerate(traces):
                    traces[viewer] = trace_forget(trace, cards=gone)
        s.rng.shuffle(fresh)
        pile.extend(fresh)
    told: ev.Refill = {"next": number + 1, "above": [above_next(s, 0), above_next(s, 1)]}
    return [Event("refill", told)]


def above_next(s: Board, deck: int) -> int:
    """How many cards lie above the next horseman (public, R-INFO-1)."""
    kinds = s.table.kind
    pile = s.decks[deck]
    for i in range(len(pile) - 1, -1, -1):
        if kinds[pile[i]].role == HORSEMAN:
            return len(pile) - 1 - i
    return len(pile)
