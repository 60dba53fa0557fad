"""What an Apokerlypse hand is worth, re-derived for the bot from card ints and the observation.

The engine's final score (K-SCORE-2/3/6) is ``(base + bonus) × multiplier``, with at most one
structure change. :func:`total` reproduces it for modifiers already resolved; :func:`potential`
is the best total a hand can still reach with its *own* unresolved scoring effects (a final
multiplier in hand counts, so a bot keeps the card). :func:`field` is the distribution of what
an unseen opponent holds, sampled once per scoring table and cached: a bot sees no State, so
it compares its total with this distribution instead of with real hands.

The engine stays the judge: a slip here costs play strength, never legality.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from apokalypse.engine.rng import Rng
from apokalypse.games.apokerlypse.cards import CARD_BONUS, DECK_SIZE
from apokalypse.games.apokerlypse.config import BASE_POINTS, BONUS_CAP, TableName
from apokalypse.games.apokerlypse.content import STRUCTURE_KINDS, Effect, EffectKind
from apokalypse.games.apokerlypse.poker import (
    ENCODED,
    ROYAL_FLUSH,
    category_of,
    evaluate,
    evaluate_faces,
    strength5,
)

SCORING_KINDS: frozenset[EffectKind] = STRUCTURE_KINDS | {"multiplier", "counts-double"}
NO_CAP = 10_000
FIELD_SAMPLES = 600  # opponent hands per stage: enough for win chances to ±2 %


@dataclass(frozen=True)
class Table:
    """The scoring variant of the game (KV-TABLE, KV-BONUS-CAP), as the observation tells it."""

    base: tuple[int, ...]
    cap: int

    @classmethod
    def of(cls, table: TableName, bonus_cap: bool) -> Table:
        return cls(BASE_POINTS[table], BONUS_CAP if bonus_cap else NO_CAP)


class Mods(NamedTuple):
    """Resolved scoring modifiers (the observation's ``modifiers``): structure is
    (kind, card, value) with card -1 for an ability; value = steps, rank or suit."""

    structure: tuple[str, int, int] | None = None
    multiplier: int = 1
    doubled: frozenset[int] = frozenset()


NO_MODS = Mods()


def plain(cards: Sequence[int], table: Table) -> int:
    """The score without effects: the fast path of every search below."""
    if len(cards) == 5:
        a, b, c, d, e = cards
        enc = ENCODED
        cat = category_of(strength5(enc[a], enc[b], enc[c], enc[d], enc[e]))
        bonus = CARD_BONUS[a] + CARD_BONUS[b] + CARD_BONUS[c] + CARD_BONUS[d] + CARD_BONUS[e]
    else:
        cat = category_of(evaluate(cards))
        bonus = sum(CARD_BONUS[c] for c in cards)
    return table.base[cat] + min(bonus, table.cap)


def total(cards: Sequence[int], mods: Mods, table: Table) -> int:
    """The engine's total with ``mods`` resolved (set-rank counts for the poker evaluation only;
    the cap applies after doubling; the multiplier comes last)."""
    if mods == NO_MODS:
        return plain(cards, table)
    doubled = mods.doubled
    bonus = min(sum(CARD_BONUS[c] * (2 if c in doubled else 1) for c in cards), table.cap)
    return (table.base[_category(cards, mods.structure)] + bonus) * mods.multiplier


def _category(
    cards: Sequence[int], change: tuple[str, int, int] | None, plain_cat: int = -1
) -> int:
    """The poker category with one structure change (K-SCORE-4); ``plain_cat`` if known."""
    if change is None or change[0] == "category-up" or change[1] not in cards:
        cat = plain_cat if plain_cat >= 0 else category_of(evaluate(cards))
        return (
            cat
            if change is None or change[0] != "category-up"
            else min(ROYAL_FLUSH, cat + change[2])
        )
    kind, card, to = change
    # The changed card as the card it now counts as, so that the fast evaluator applies. When
    # that card is in the hand too, two faces are alike (a flush with a pair, five of a kind),
    # which no set of real cards shows: the slow evaluator judges those.
    as_card = to * 4 + (card & 3) if kind == "set-rank" else (card & ~3) + to
    if as_card != card and as_card in cards:
        faces = [(c >> 2, c & 3) for c in cards if c != card] + [(as_card >> 2, as_card & 3)]
        return category_of(evaluate_faces(faces))
    return category_of(evaluate([as_card if c == card else c for c in cards]))


def structure_of(card: int, effect: Effect) -> tuple[str, int, int]:
    value = effect.steps if effect.kind == "category-up" else effect.to
    return (effect.kind, card, value)


def potential(
    cards: Sequence[int],
    mods: Mods,
    effects: Sequence[Effect | None],
    used: frozenset[int],
    table: Table,
) -> int:
    """The best total ``cards`` reach with their own unresolved scoring effects: the best
    structure change (a final one is forced, so "none" is an option only without one), the
    highest multiplier, every counts-double."""
    avail = [
        (c, e)
        for c in cards
        if (e := effects[c]) is not None
        and c not in used
        and e.timing in ("final", "any")
        and e.kind in SCORING_KINDS
    ]
    if not avail:
        return total(cards, mods, table)
    mult = mods.multiplier
    if mult == 1:
        mult = max([e.factor for _, e in avail if e.kind == "multiplier"], default=1)
    doubled = mods.doubled | {c for c, e in avail if e.kind == "counts-double"}
    options: list[tuple[str, int, int] | None] = [mods.structure]
    if mods.structure is None:
        structures = [(c, e) for c, e in avail if e.kind in STRUCTURE_KINDS]
        forced = any(e.timing == "final" for _, e in structures)
        options = [structure_of(c, e) for c, e in structures] + ([] if forced else [None])
    bonus = min(sum(CARD_BONUS[c] * (2 if c in doubled else 1) for c in cards), table.cap)
    plain_cat = category_of(evaluate(cards))
    cat = max(_category(cards, s, plain_cat) for s in options)
    return (table.base[cat] + bonus) * mult


def best_keep(
    cards: Sequence[int], keep: int, value: dict[tuple[int, ...], int], score: Scorer
) -> tuple[int, tuple[int, ...]]:
    """The best ``keep`` cards of ``cards`` by ``score`` (memoised in ``value``)."""
    if len(cards) <= keep:
        key = tuple(sorted(cards))
        return _memo(key, value, score), key
    best = -1
    best_key: tuple[int, ...] = ()
    for five in combinations(sorted(cards), keep):
        v = _memo(five, value, score)
        if v > best:
            best, best_key = v, five
    return best, best_key


class Scorer:
    """``potential`` for one player's fixed modifiers and content: a callable on card tuples."""

    __slots__ = ("effects", "mods", "scoring", "table", "used")

    def __init__(
        self, table: Table, effects: Sequence[Effect | None], mods: Mods, used: frozenset[int]
    ) -> None:
        self.table, self.effects, self.mods, self.used = table, effects, mods, used
        # Cards whose own effect changes the total: without one, the fast path is exact.
        self.scoring = frozenset(
            c
            for c, e in enumerate(effects)
            if e is not None and e.kind in SCORING_KINDS and e.timing in ("final", "any")
        )

    def __call__(self, cards: Sequence[int]) -> int:
        if self.mods == NO_MODS and self.scoring.isdisjoint(cards):
            return plain(cards, self.table)
        return potential(cards, self.mods, self.effects, self.used, self.table)


def _memo(key: tuple[int, ...], value: dict[tuple[int, ...], int], score: Scorer) -> int:
    v = value.get(key)
    if v is None:
        v = value[key] = score(key)
    return v


# --- what the others may hold ---------------------------------------------------------------


@lru_cache(maxsize=32)
def field(table: Table, stage: int) -> tuple[int, ...]:
    """Sorted plain scores of a well-played unseen hand: ``stage`` 5 (dealt only), 7 (best five
    of seven), 9 (best five of seven, then two more drawn), 8 (7 and 9 mixed: a player who has
    yet to decide on phase 2). A fixed seed: the same table for every bot and every run."""
    if stage == 8:
        return tuple(sorted(field(table, 7) + field(table, 9)))
    rng = Rng(0xA90C + stage)
    deck = list(range(DECK_SIZE))
    out = []
    for _ in range(FIELD_SAMPLES):
        rng.shuffle(deck)
        if stage <= 5:
            out.append(plain(deck[:5], table))
            continue
        kept = max(combinations(deck[:7], 5), key=lambda five: plain(five, table))
        if stage == 9:
            kept = max(combinations(kept + tuple(deck[7:9]), 5), key=lambda f: plain(f, table))
        out.append(plain(kept, table))
    return tuple(sorted(out))


def beat_chance(points: int, dist: tuple[int, ...]) -> float:
    """P(``points`` beats a hand drawn from ``dist``), a tie counting half (K-SCORE-7)."""
    below = bisect_left(dist, points)
    ties = bisect_right(dist, points) - below
    return (below + 0.5 * ties) / len(dist)
