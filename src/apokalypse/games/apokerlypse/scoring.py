"""Final scoring (K-SCORE), the pot (K-SCORE-7, KD-SCORE-1) and the end of the game (K-END).

The remaining players reveal; they are evaluated one at a time from the weakest poker hand
upward, equal hands by the lower value of the combination first (K-SCORE-1), ties of identical
value in seat order from the dealer's left. Each player's turn resolves their final-scoring
effects (K-SCORE-4) and then *locks* their total: an effect resolved later by another player
(taking a card, say) never changes a total already locked (K-SCORE-6).
"""

from __future__ import annotations

from itertools import combinations

from apokalypse.engine.events import Event

from . import events as ev
from . import knowledge
from .cards import CARD_BONUS, codes
from .config import BONUS_CAP
from .observation import EndReason
from .pending import GameOver
from .poker import ROYAL_FLUSH, best_five, category_of, evaluate, evaluate_faces
from .table import Table
from .tally import Result, ScoreLine


def reveal(s: Table, events: list[Event]) -> None:
    """K-SCORE-1: the remaining players reveal; the evaluation order is fixed now."""
    s.revealed = True
    n, dealer = s.n, s.dealer
    seats = [q for q in range(n) if s.in_round[q]]
    for q in seats:
        for who in range(n + 1):
            knowledge.learn_hand(s, who, q)
    s.order = tuple(sorted(seats, key=lambda q: (evaluate(s.hands[q]), (q - dealer - 1) % n)))
    hands = [codes(s.hands[q]) if s.in_round[q] else None for q in range(n)]
    revealed: ev.Reveal = {"hands": hands, "order": list(s.order)}
    events.append(Event("reveal", revealed))


def _strength(s: Table, seat: int) -> tuple[int, tuple[int, ...]]:
    """The hand's strength and best five, with a set-suit / set-rank change applied."""
    hand = s.hands[seat]
    change = s.mods[seat].structure
    if change is None or change[0] == "category-up" or change[1] not in hand:
        return evaluate(hand), best_five(hand)
    kind, card, to = change

    def face(c: int) -> tuple[int, int]:
        if c != card:
            return c >> 2, c & 3
        return (to, c & 3) if kind == "set-rank" else (c >> 2, to)

    if len(hand) <= 5:
        return evaluate_faces([face(c) for c in hand]), tuple(sorted(hand))
    # Ties go to the first five in card order, never in hand order (see poker.best_five).
    fives = combinations(sorted(hand), 5)
    best = max(fives, key=lambda five: evaluate_faces([face(c) for c in five]))
    return evaluate_faces([face(c) for c in best]), tuple(sorted(best))


def score_line(s: Table, seat: int) -> ScoreLine:
    strength, best = _strength(s, seat)
    mods = s.mods[seat]
    category = category_of(strength)
    if mods.structure is not None and mods.structure[0] == "category-up":
        category = min(ROYAL_FLUSH, category + mods.structure[2])
    base = s.config.base_points[category]
    # K-SCORE-3: every card in hand; "counts double" doubles only that card's bonus (K-SCORE-6)
    bonus = sum(CARD_BONUS[c] * (2 if c in mods.doubled else 1) for c in s.hands[seat])
    if s.config.bonus_cap:
        bonus = min(bonus, BONUS_CAP)  # KV-BONUS-CAP
    total = (base + bonus) * mods.multiplier  # K-SCORE-6: the multiplier comes last
    return ScoreLine(seat, category, base, bonus, mods.multiplier, total, best)


def lock(s: Table, seat: int, events: list[Event]) -> None:
    line = score_line(s, seat)
    s.scores[seat] = line
    scored: ev.Score = line.view()
    events.append(Event("score", scored))


def payout(s: Table, events: list[Event]) -> None:
    """K-SCORE-7: the highest total takes the pot; ties split it, the remainder stays
    (KD-SCORE-1)."""
    lines = [line for q in s.order if (line := s.scores[q]) is not None]
    best = max(line.total for line in lines)
    winners = sorted(line.seat for line in lines if line.total == best)
    share, rest = divmod(s.pot, len(winners))
    for q in winners:
        s.chips[q] += share
    won: ev.Pot = {
        "winners": winners,
        "total": best,
        "pot": s.pot,
        "share": share,
        "remainder": rest,
    }
    events.append(Event("pot", won))
    s.pot = rest
    ended: ev.RoundEnd = {"round": s.round, "chips": list(s.chips), "pot": s.pot, "bank": s.bank}
    events.append(Event("round-end", ended))


def end_game(s: Table, events: list[Event]) -> None:
    """K-END-1 / KD-END-1: the most chips win, ties share."""
    best = max(s.chips)
    winners = tuple(q for q in range(s.n) if s.chips[q] == best)
    reason: EndReason = "no-chips" if s.zero else "nobody-can-pay"
    s.result_ = Result(winners, tuple(s.chips), s.round, reason)
    s.flow = GameOver()
    # Who ran out, for the final words (they may have won chips back since: K-END-1's "as soon
    # as" ends the game all the same).
    view = s.result_.view()
    over: ev.GameOver = {
        "winners": view["winners"],
        "chips": view["chips"],
        "rounds": view["rounds"],
        "reason": view["reason"],
        "broke": list(s.broke),
    }
    events.append(Event("game-over", over))
