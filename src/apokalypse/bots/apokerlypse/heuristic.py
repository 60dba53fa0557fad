"""A rule-of-thumb Apokerlypse player: keep the best hand, pay when the pot justifies it.

Every money decision is one comparison: the chance ``w`` that the hand wins the pot (from
:mod:`.odds`) times the pot it plays for, against the cost. Phase 2 draws when the expected
showdown value after two more cards (sampled from the cards this seat has not seen) beats
standing; phase 3 takes part when ``w × pot > cost`` and drops the rest. Discards keep the five
cards worth most, counting the hand's own scoring effects (a multiplier is kept), effects that
pay when discarded, and, before phase 2, what two more cards may bring. Free effects that gain
chips or cost others chips are used at once, peeks before paying, scoring effects and costly
faction abilities in the final scoring (:mod:`.showdown`), where the outcome is nearly known.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from apokalypse.engine.rng import Rng
from apokalypse.games.apokerlypse.actions import DROP, PAY, STAND, Action
from apokalypse.games.apokerlypse.cards import CARD_BONUS
from apokalypse.games.apokerlypse.content import EffectKind
from apokalypse.games.apokerlypse.observation import Observation

from ..base import BaseBot
from . import react
from .hands import Scorer, best_keep
from .odds import Odds, participation_pot, safe_lead, showdown, stake_pot
from .showdown import ABILITY_COST, best_scoring_action, chip_value
from .view import View

DRAW_SAMPLES = 20  # phase-2 draws sampled per decision: enough to rank keeps, cheap to run
KEEP_CANDIDATES = 6  # keeps looked at closely before phase 2 (of 21 from seven cards)
DISCARD_EFFECT: dict[EffectKind, float] = {
    "take": 1.0,
    "draw": 1.0,
    "squeeze": 0.6,
    "hand-limit": 1.0,
    "swap": 0.3,
    "peek": 0.2,
    "give": -0.5,
}
HOLD_VALUE: dict[EffectKind, float] = {
    "block": 0.4,
    "take": 0.5,
    "swap": 0.3,
    "draw": 0.6,
}  # any-time cards kept for later
# Others keep a card fewer at their discard steps still to come (KD-EFFECT-4).
SQUEEZE_VALUE = 0.6
SQUEEZE_STEPS = ("draw-1", "discard-1", "draw-2")  # a discard step still to come
# A shield early in the round: what others' card effects (losses, takes, steals) would cost.
SHIELD_VALUE = 0.6
ALL_IN_CHANCE = 0.5  # paying one's last chips ends the game (K-END-1): only as the favourite

Keep = tuple[int, ...]


class HeuristicBot(BaseBot):
    name = "heuristic"

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)
        # The keep chosen at the first discard of a step: later discards of the same step
        # follow it instead of sampling again (cheaper, and it cannot change its mind).
        self.plan: tuple[int, str, frozenset[int], frozenset[int]] | None = None

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        view = View.of(observation)
        decision = observation["decision"]
        if decision == "block-window":
            return react.block(view, legal)
        if decision == "choose-target":
            return react.target(view, legal)
        if decision == "choose-card":
            return react.card(view, legal)
        if decision == "scoring":
            return best_scoring_action(view, legal)
        use = self.use_now(view, legal)
        if use is not None:
            return use
        if decision == "discard":
            return self.discard(view, legal)
        if decision == "stake":
            return self.stake(view, legal)
        return self.participate(view, legal)

    # --- effects outside the scoring ------------------------------------------------------------

    def use_now(self, view: View, legal: Sequence[Action]) -> Action | None:
        """An any-time effect worth using now: chips (gain, others' losses), a larger hand
        before discarding, a peek before paying. Everything else waits for the scoring."""
        best, best_value = None, 0.0
        for action in legal:
            if action.verb not in ("use", "ability"):
                continue
            ability = action.verb == "ability"
            effect = view.ability() if ability else view.effect(action.card)
            if effect is None or effect.timing != "any":
                continue
            kind = effect.kind
            value = 0.0
            if kind == "steal" and not view.stealable(card=not ability):
                continue  # KD-EFFECT-1/2: nobody to take from; the card waits
            if kind in ("gain", "lose", "steal", "skim", "ante"):
                value = chip_value(view, effect)  # an ability too: chips are chips, any round
            elif kind == "shield" and view.step != "scoring" and not view.shielded(view.seat):
                value = SHIELD_VALUE - (ABILITY_COST if ability else 0.0)
            elif kind == "hand-limit" and view.step in ("discard-1", "draw-2", "discard-2"):
                value = 1.0 - (ABILITY_COST if ability else 0.0)
            elif kind == "draw" and not view.short[view.seat]:
                value = 1.0 - (ABILITY_COST if ability else 0.0)  # one card more to choose from
            elif kind == "squeeze" and view.step in SQUEEZE_STEPS:
                value = SQUEEZE_VALUE - (ABILITY_COST if ability else 0.0)
            elif kind == "peek" and not ability and view.obs["decision"] != "discard":
                value = 0.5 if any(view.hand_of(q) is None for q in view.others()) else 0.0
            if value > best_value:
                best, best_value = action, value
        return best

    # --- discarding --------------------------------------------------------------------------

    def discard(self, view: View, legal: Sequence[Action]) -> Action:
        options = [a for a in legal if a.verb == "discard"]
        hand = frozenset(view.hand)
        key = (view.obs["round"], view.step)
        plan = self.plan
        if plan is None or plan[:2] != key or not plan[2] <= hand or not hand <= plan[2] | plan[3]:
            keep = frozenset(self.plan_keep(view))
            plan = self.plan = (*key, keep, hand - keep)
        out = [a for a in options if a.card not in plan[2]] or options

        # Effects first (a take may bring a card worth keeping), then the card worth least.
        def order(a: Action) -> tuple[float, int, int]:
            effect = view.effect(a.card)
            bonus = 0.0
            if effect is not None and effect.timing == "discard" and a.card not in view.used:
                bonus = DISCARD_EFFECT.get(effect.kind, 0.0) + chip_value(view, effect)
            return (bonus, -CARD_BONUS[a.card], -a.card)

        return max(out, key=order)

    def side_value(self, view: View, keep: Keep) -> float:
        """Chips a keep is worth beyond its total: discard effects of the cards let go, and
        any-time cards held for later (one block card is enough)."""
        value = 0.0
        for c in view.hand:
            effect = view.effect(c)
            if effect is None or c in view.used:
                continue
            if c not in keep:
                if effect.timing == "discard":
                    value += DISCARD_EFFECT.get(effect.kind, 0.0) + chip_value(view, effect)
            elif effect.timing == "any":
                value += HOLD_VALUE.get(effect.kind, 0.0)
        blocks = sum(1 for c in keep if (e := view.effect(c)) is not None and e.kind == "block")
        return value - HOLD_VALUE["block"] * max(0, blocks - 1)

    def plan_keep(self, view: View) -> Keep:
        me = view.seat
        limit, c, chips = view.limits[me], view.cost, view.chips[me]
        odds = Odds(view)
        scorer = view.scorer()
        memo: dict[Keep, int] = {}
        keeps = list(combinations(sorted(view.hand), limit))
        if view.step != "discard-1":  # the hand for the showdown
            pot = participation_pot(view, everyone=True)

            def final(k: Keep) -> float:
                win = odds.win(best_keep(k, limit, memo, scorer)[0])
                return showdown(win, pot, c, chips < c) + self.side_value(view, k)

            return max(keeps, key=final)
        pot = stake_pot(view)

        def now(k: Keep) -> float:
            win = odds.win(best_keep(k, limit, memo, scorer)[0])
            return showdown(win, pot, c, chips < c) + self.side_value(view, k)

        if view.short[me] or chips - c < 1:
            return max(keeps, key=now)
        hinted = sorted(keeps, key=lambda k: now(k) + _draw_hint(k) * pot, reverse=True)
        draws = self.sample_draws(view)
        best: Keep = hinted[0]
        best_value = -1e9
        for k in hinted[:KEEP_CANDIDATES]:
            drawn = self.after_draw(k, draws, limit, odds, memo, scorer, pot, c, chips)
            value = max(now(k), drawn + self.side_value(view, k))
            if value > best_value:
                best, best_value = k, value
        return best

    # --- paying ------------------------------------------------------------------------------

    def stake(self, view: View, legal: Sequence[Action]) -> Action:
        """Phase 2 (K-ROUND-3): draw when it pays better than standing. Dropping is never
        better than standing (free) here: phase 3 can still drop."""
        me = view.seat
        c, chips = view.cost, view.chips[me]
        if PAY not in legal or chips - c < 1 or safe_lead(view):
            return STAND
        limit = view.limits[me]
        odds = Odds(view)
        scorer = view.scorer()
        memo: dict[Keep, int] = {}
        pot = stake_pot(view)
        stand = showdown(odds.win(best_keep(view.hand, limit, memo, scorer)[0]), pot, c, chips < c)
        draws = self.sample_draws(view)
        drawn = self.after_draw(tuple(view.hand), draws, limit, odds, memo, scorer, pot, c, chips)
        return PAY if drawn > stand else STAND

    def participate(self, view: View, legal: Sequence[Action]) -> Action:
        """Phase 3 (K-ROUND-4): take part when the chance times the pot beats the cost."""
        if STAND in legal:
            return STAND  # no chips to pay: taking part is free (KD-ROUND-1)
        if DROP not in legal:
            return PAY  # the last player in the round stays in
        if safe_lead(view):
            return DROP
        me = view.seat
        c = view.cost
        win = Odds(view).win(view.scorer()(view.hand))
        all_in = view.chips[me] == c
        if win * participation_pot(view) > c and (not all_in or win >= ALL_IN_CHANCE):
            return PAY
        return DROP

    # --- sampling ----------------------------------------------------------------------------

    def sample_draws(self, view: View) -> list[tuple[int, int]]:
        """Two-card draws from the cards this seat has not seen (the same draws for every keep
        compared, so that noise does not pick the keep)."""
        pool = view.unseen()
        if len(pool) < 2:
            return []
        out = []
        for _ in range(DRAW_SAMPLES):
            i = self.rng.below(len(pool))
            j = self.rng.below(len(pool) - 1)
            out.append((pool[i], pool[j + 1 if j >= i else j]))
        return out

    @staticmethod
    def after_draw(keep: Keep, draws: list[tuple[int, int]], limit: int, odds: Odds,
                   memo: dict[Keep, int], scorer: Scorer, pot: float, cost: int,
                   chips: int) -> float:  # fmt: skip
        """Expected showdown value of paying ``cost`` now and drawing two to ``keep``."""
        if not draws:
            return -float(cost)
        free = chips - cost < cost
        total = 0.0
        for a, b in draws:
            points = best_keep((*keep, a, b), limit, memo, scorer)[0]
            total += showdown(odds.win(points), pot + cost, cost, free)
        return total / len(draws) - cost


def _draw_hint(keep: Keep) -> float:
    """A rough share of the pot that two more cards may add: four to a flush or a straight.
    Only ranks the keeps worth sampling; the sampling decides."""
    suits = [0, 0, 0, 0]
    for c in keep:
        suits[c & 3] += 1
    ranks = {c >> 2 for c in keep}
    if 12 in ranks:
        ranks.add(-1)  # the ace also ends the wheel
    straight = any(len(ranks & set(range(low, low + 5))) >= 4 for low in range(-1, 9))
    return 0.1 * (max(suits) >= 4) + 0.1 * straight
