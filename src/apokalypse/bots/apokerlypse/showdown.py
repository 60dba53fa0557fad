"""The final scoring (K-SCORE), where every hand still in the round is face up.

Players score one at a time, weakest printed hand first, and each total is locked at the end of
its turn. So in its turn a seat knows the locked totals before it and the hands after it; it
values each legal action by the pot share it leads to (the others' totals estimated as what
their hands can reach with their own effects), plus what it does to chips, minus an action
chip's worth for a faction ability. The same values pick targets and cards for its effects.
"""

from __future__ import annotations

from collections.abc import Sequence

from apokalypse.games.apokerlypse.actions import Action
from apokalypse.games.apokerlypse.content import STRUCTURE_KINDS, Effect

from .hands import Mods, potential, total
from .view import View

# An ability's action chip comes back at the end of the round (KD-SCORE-2): using it costs only
# the chance of a better use later in the same round.
ABILITY_COST = 0.25
# A higher own total breaks ties between actions that win the pot alike: a margin is safer
# against effects still to come.
MARGIN = 0.01


def chip_value(view: View, effect: Effect) -> float:
    """What a gain or loss effect is worth to its owner in chips (one lost by another player
    counts half: the game is won on having more chips than the others)."""
    kind, who, amount = effect.kind, effect.who, effect.amount
    others = len(view.others())
    if kind == "gain":
        mine = min(amount, view.bank)
        return {"self": mine, "all": 0.0, "others": -0.5 * amount * others}.get(who, -0.5 * amount)
    if kind == "steal":  # KD-EFFECT-1: the owner's gain is another player's loss
        return 1.5 * amount
    if kind == "skim":  # KD-EFFECT-3: the pot's chips, which the round's winner would take
        mine = min(amount, view.pot)
        return {"self": mine, "all": mine * (1.0 - 0.5 * others)}.get(
            who, -0.5 * amount * (others if who == "others" else 1)
        )
    if kind == "ante":  # others' chips into a pot this seat may win
        return {"one": 0.6 * amount, "others": 0.6 * amount * others}.get(
            who, 0.6 * amount * others - amount if who == "all" else -amount
        )
    if kind == "lose":
        return {"one": 0.5 * amount, "others": 0.5 * amount * others}.get(
            who, 0.5 * amount * others - amount if who == "all" else -amount
        )
    return 0.0


def with_effect(mods: Mods, card: int, effect: Effect) -> Mods:
    """The modifiers after a scoring effect resolves (one structure, one multiplier)."""
    if effect.kind in STRUCTURE_KINDS and mods.structure is None:
        value = effect.steps if effect.kind == "category-up" else effect.to
        return mods._replace(structure=(effect.kind, card, value))
    if effect.kind == "multiplier" and mods.multiplier == 1:
        return mods._replace(multiplier=effect.factor)
    if effect.kind == "counts-double":
        return mods._replace(doubled=mods.doubled | {card})
    return mods


class Showdown:
    """One scoring turn's view: this seat's hand and the others' totals, locked or estimated."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.me = view.seat
        self.pot = view.pot
        self.hand = list(view.hand)
        self.totals: dict[int, int] = {}
        self.hands: dict[int, list[int]] = {}
        for q in view.others():
            hand = view.hand_of(q) or []
            self.hands[q] = list(hand)
            locked = view.scores[q]
            self.totals[q] = locked if locked is not None else self.estimate(q, hand)

    def estimate(self, seat: int, hand: Sequence[int], used: frozenset[int] | None = None) -> int:
        v = self.view
        return potential(hand, v.mods[seat], v.content.effects, used or v.used, v.table)

    def unlocked(self, seat: int) -> bool:
        return self.view.scores[seat] is None

    def share(self, mine: int, totals: dict[int, int]) -> float:
        """This seat's share of the pot (K-SCORE-7: ties split)."""
        best = max(totals.values(), default=-1)
        if mine > best:
            return 1.0
        if mine < best:
            return 0.0
        return 1.0 / (1 + sum(1 for t in totals.values() if t == best))

    def worth(self, hand: Sequence[int], mods: Mods, used: frozenset[int],
              totals: dict[int, int] | None = None) -> float:  # fmt: skip
        v = self.view
        mine = potential(hand, mods, v.content.effects, used, v.table)
        return self.pot * self.share(mine, self.totals if totals is None else totals) + (
            MARGIN * mine
        )

    # --- actions -----------------------------------------------------------------------------

    def value(self, action: Action) -> float:
        v = self.view
        mods = v.mods[self.me]
        if action.verb == "done":
            mine = total(self.hand, mods, v.table)
            return self.pot * self.share(mine, self.totals) + MARGIN * mine
        if action.verb == "ability":
            effect = v.ability()
            assert effect is not None
            return self.effect_value(-1, effect, v.used) - ABILITY_COST
        effect = v.effect(action.card)
        if effect is None:  # unknown content: keep the total as it is
            return self.worth(self.hand, mods, v.used | {action.card})
        return self.effect_value(action.card, effect, v.used | {action.card})

    def effect_value(self, card: int, effect: Effect, used: frozenset[int]) -> float:
        mods = self.view.mods[self.me]
        kind = effect.kind
        if kind == "draw" and not self.view.short[self.me]:
            pool = self.view.unseen()  # KD-EFFECT-5: the card drawn is one not seen yet
            if pool:
                return self._mean([self.worth([*self.hand, x], mods, used) for x in pool])
        if kind in ("take", "swap", "give"):
            best = max(
                (self.target_value(q, kind) for q in self.targets(kind)),
                default=None,
            )
            if best is not None:
                return best
        new = with_effect(mods, card, effect)
        return self.worth(self.hand, new, used) + chip_value(self.view, effect)

    def targets(self, kind: str) -> list[int]:
        """Who a card-moving effect may aim at (K-SHORT-1: not a short player; not an empty
        hand to take from)."""
        v = self.view
        if v.short[self.me] or (kind != "take" and not self.hand):
            return []
        return [q for q in v.others() if not v.short[q] and (kind == "give" or self.hands[q])]

    def target_value(self, seat: int, kind: str) -> float:
        """The expected value of a take, swap or give aimed at ``seat`` (the card taken is
        random; the card given is this seat's best choice)."""
        if kind == "take":
            return self._mean([self._moved(seat, [x], []) for x in self.hands[seat]])
        return max(self.give_value(seat, g, kind) for g in self.hand)

    def give_value(self, seat: int, given: int, kind: str) -> float:
        if kind == "give":
            return self._moved(seat, [], [given])
        return self._mean([self._moved(seat, [x], [given]) for x in self.hands[seat]])

    def _moved(self, seat: int, taken: list[int], given: list[int]) -> float:
        v = self.view
        mine = [c for c in self.hand if c not in given] + taken
        totals = self.totals
        if self.unlocked(seat):
            theirs = [c for c in self.hands[seat] if c not in taken] + given
            totals = {**totals, seat: self.estimate(seat, theirs)}
        return self.worth(mine, v.mods[self.me], v.used, totals)

    @staticmethod
    def _mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0


def best_scoring_action(view: View, legal: Sequence[Action]) -> Action:
    """The legal action of a scoring turn worth most; "done" wins ties (nothing to gain)."""
    game = Showdown(view)
    ranked = sorted(legal, key=lambda a: a.verb != "done")
    return max(ranked, key=game.value)
