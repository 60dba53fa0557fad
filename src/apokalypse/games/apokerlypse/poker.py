"""An exact, fast poker hand evaluator (K-SCORE-1, K-SCORE-2).

A hand's *strength* is one int: ``category << 20 | tiebreak``. The category is 0 (high card) …
9 (royal flush); the tiebreak packs the ranks that decide between equal categories, most
significant first, one nibble each (rank + 1, so a missing card sorts lowest). Comparing two
strengths compares two hands; the tiebreak is also "the card value of the combination" by which
equal categories are ordered in the final scoring (a pair of sevens before a pair of kings).

Five-card hands take the fast path of Cactus Kev's evaluator: each card carries its rank bit, suit
bit and a prime per rank. Five cards sharing a suit bit are a flush, looked up by the OR of their
rank bits; every other hand is looked up by the product of its primes, which is unique per rank
multiset. Both tables are built at import from :func:`evaluate_faces`, the slow and obvious
evaluator, which also serves hands of other sizes and hands changed by structure effects.

>>> from .cards import parse_card
>>> category_of(evaluate([parse_card(t) for t in ("As", "2d", "3c", "4h", "5s")]))
4
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations, combinations_with_replacement
from typing import Literal, get_args

from .cards import DECK_SIZE

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS = range(8)
STRAIGHT_FLUSH, ROYAL_FLUSH = 8, 9
Category = Literal[
    "high-card",
    "pair",
    "two-pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "straight-flush",
    "royal-flush",
]
CATEGORIES: tuple[Category, ...] = get_args(Category)
_SHIFT = 20
_ACE = 12
_WHEEL = frozenset({12, 0, 1, 2, 3})  # A-2-3-4-5, the five-high straight
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_SUIT_BITS = 0xF000

__all__ = ["CATEGORIES", "Category", "best_five", "category_of", "evaluate", "evaluate_faces"]


def _pack(category: int, ranks: Iterable[int]) -> int:
    tiebreak = 0
    count = 0
    for r in ranks:
        tiebreak = tiebreak << 4 | (r + 1)
        count += 1
    return category << _SHIFT | tiebreak << (4 * (5 - count))


def category_of(strength: int) -> int:
    return strength >> _SHIFT


def evaluate_faces(faces: Sequence[tuple[int, int]]) -> int:
    """The strength of up to five (rank, suit) faces, duplicates allowed (a structure change can
    make two cards alike). Straights and flushes need five cards; five of a kind counts as four
    of a kind with the fifth as its kicker."""
    if len(faces) > 5:
        return max(evaluate_faces(five) for five in combinations(faces, 5))
    ranks = sorted((r for r, _ in faces), reverse=True)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    five = len(faces) == 5
    flush = five and len({s for _, s in faces}) == 1
    top = -1
    if five and len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif set(ranks) == _WHEEL:
            top = 3  # the five
    if top >= 0 and flush:
        return _pack(ROYAL_FLUSH if top == _ACE else STRAIGHT_FLUSH, (top,))
    first = groups[0][1] if groups else 0
    if first >= 4:
        quad = groups[0][0]
        kicker = groups[1][0] if len(groups) > 1 else quad
        return _pack(QUADS, (quad, kicker) if len(ranks) > 4 else (quad,))
    if first == 3 and len(groups) > 1 and groups[1][1] == 2:
        return _pack(FULL_HOUSE, (groups[0][0], groups[1][0]))
    if flush:
        return _pack(FLUSH, ranks)
    if top >= 0:
        return _pack(STRAIGHT, (top,))
    if first == 3:
        return _pack(TRIPS, [r for r, _ in groups])
    if first == 2 and len(groups) > 1 and groups[1][1] == 2:
        return _pack(TWO_PAIR, [r for r, _ in groups])
    if first == 2:
        return _pack(PAIR, [r for r, _ in groups])
    return _pack(HIGH_CARD, ranks)


# --- the fast path --------------------------------------------------------------------------


def _encode(card: int) -> int:
    rank, suit = card >> 2, card & 3
    return 1 << (16 + rank) | 1 << (12 + suit) | rank << 8 | _PRIMES[rank]


ENCODED = tuple(_encode(c) for c in range(DECK_SIZE))


def _build_tables() -> tuple[list[int], dict[int, int]]:
    flush = [0] * (1 << 13)
    for ranks in combinations(range(13), 5):
        bits = sum(1 << r for r in ranks)
        flush[bits] = evaluate_faces([(r, 0) for r in ranks])
    products: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        product = 1
        for r in ranks:
            product *= _PRIMES[r]
        # Suits 0,1,2,3,0: never a flush, whatever the ranks.
        products[product] = evaluate_faces([(r, i & 3) for i, r in enumerate(ranks)])
    return flush, products


_FLUSH, _PRODUCT = _build_tables()


def strength5(a: int, b: int, c: int, d: int, e: int) -> int:
    """The strength of five *encoded* cards (``ENCODED[card]``): the inner loop of everything."""
    if a & b & c & d & e & _SUIT_BITS:
        return _FLUSH[(a | b | c | d | e) >> 16]
    return _PRODUCT[(a & 0xFF) * (b & 0xFF) * (c & 0xFF) * (d & 0xFF) * (e & 0xFF)]


def evaluate(cards: Sequence[int]) -> int:
    """The strength of a hand of any size: five cards exactly, more than five by the best five
    (K-SCORE-1, hands enlarged by effects), fewer than five by pairs and sets only."""
    n = len(cards)
    enc = ENCODED
    if n == 5:
        a, b, c, d, e = cards
        return strength5(enc[a], enc[b], enc[c], enc[d], enc[e])
    if n > 5:
        return max(strength5(*five) for five in combinations([enc[c] for c in cards], 5))
    return evaluate_faces([(c >> 2, c & 3) for c in cards])


def best_five(cards: Sequence[int]) -> tuple[int, ...]:
    """The five cards that make a hand's strength (the whole hand when it has five or fewer).

    Of several equally strong fives, the first in card order: the choice depends on the cards
    only, never on the order they entered the hand (which would tell what was drawn)."""
    if len(cards) <= 5:
        return tuple(sorted(cards))
    best: tuple[int, ...] = ()
    top = -1
    for five in combinations(sorted(cards), 5):
        strength = evaluate(five)
        if strength > top:
            best, top = five, strength
    return tuple(sorted(best))
