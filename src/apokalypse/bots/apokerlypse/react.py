"""Answers inside an effect: block windows, targets, the card to give or swap.

Harmful effects aim at the chip leader (the player to catch), except that a chip loss or steal
(KD-EFFECT-1) which leaves somebody with nothing is aimed there when this seat leads: the game
then ends after the round (K-END-1) with this seat ahead. Gifts go to the poorest. In the final
scoring, targets and cards are valued exactly by :class:`.showdown.Showdown`.
"""

from __future__ import annotations

from collections.abc import Sequence

from apokalypse.games.apokerlypse.actions import ALLOW, Action
from apokalypse.games.apokerlypse.cards import CARD_BONUS, parse_card
from apokalypse.games.apokerlypse.content import STRUCTURE_KINDS, Effect, EffectKind
from apokalypse.games.apokerlypse.observation import EffectView

from .hands import best_keep, potential
from .showdown import Showdown, with_effect
from .view import View

# How much blocking another player's effect is worth, in chips, before the final scoring (the
# owner's gain or this seat's likely loss); a block card works once a round, so small effects
# pass and the card waits for a bigger one.
HARM: dict[EffectKind, float] = {
    "multiplier": 3.0,
    "category-up": 2.0,
    "set-suit": 2.0,
    "set-rank": 2.0,
    "take": 1.0,
    "hand-limit": 0.8,
    "swap": 0.7,
    "counts-double": 0.5,
    "peek": 0.2,
    "steal": 1.0,
    "shield": 0.3,
    "skim": 0.5,
    "ante": 1.0,
    "squeeze": 0.8,
    "draw": 0.5,
}
BLOCK_AT = 1.0


def _on_table(view: View) -> EffectView:
    info = view.obs["effect"]
    assert info is not None  # asked only while an effect resolves
    return info


def announced(view: View) -> tuple[int, int, Effect | None]:
    """The effect on the table: (owner, card or -1 for an ability, its definition)."""
    info = _on_table(view)
    owner = info["seat"]
    if info["card"] is None:
        return owner, -1, view.ability(owner)
    card = parse_card(info["card"])
    return owner, card, view.effect(card)


def harm(view: View, owner: int, card: int, effect: Effect) -> float:
    kind = effect.kind
    if view.step == "scoring" and (kind in STRUCTURE_KINDS or kind == "multiplier"):
        # Exact now: does the effect lift the owner to or past this seat's total?
        game = Showdown(view)
        me = view.seat
        mine = view.scores[me]
        if mine is None:
            mine = game.estimate(me, view.hand)
        hand = game.hands.get(owner, [])
        mods = with_effect(view.mods[owner], card, effect)
        before = game.estimate(owner, hand)
        after = potential(hand, mods, view.content.effects, view.used, view.table)
        return float(view.pot) if before < mine <= after else 0.3 * HARM.get(kind, 0.0)
    if kind == "gain":
        return {"self": 0.5, "one": 0.3}.get(effect.who, 0.0) * effect.amount
    if kind == "lose":
        if effect.who == "one":
            others = [q for q in range(view.n) if q != owner and view.in_round[q]]
            return effect.amount * (1.0 if view.leader(others) == view.seat else 0.4)
        return float(effect.amount) if effect.who in ("others", "all") else 0.0
    return HARM.get(kind, 0.0)


def block(view: View, legal: Sequence[Action]) -> Action:
    blocks = [a for a in legal if a.verb == "block"]
    if not blocks:
        return ALLOW
    owner, card, effect = announced(view)
    if effect is None:  # unknown content: judge by the kind the observation names
        hurt = HARM.get(_on_table(view)["kind"], 0.0)
    else:
        hurt = harm(view, owner, card, effect)
    return blocks[0] if hurt >= BLOCK_AT else ALLOW


def target(view: View, legal: Sequence[Action]) -> Action:
    seats = [a.seat for a in legal]
    effect = announced(view)[2]
    kind = _on_table(view)["kind"]
    if view.step == "scoring" and kind in ("take", "swap", "give"):
        game = Showdown(view)
        best = max(seats, key=lambda q: game.target_value(q, kind))
        return Action("target", seat=best)
    if kind in ("gain", "give", "skim"):
        return Action("target", seat=view.poorest(seats))
    if kind in ("lose", "steal", "ante") and effect is not None:
        me = view.seat
        ahead = all(view.chips[me] > view.chips[q] + view.pot for q in range(view.n) if q != me)
        broke = [q for q in seats if view.chips[q] <= effect.amount]
        if ahead and broke:
            return Action("target", seat=view.poorest(broke))
    if kind == "peek":
        # The hand this seat knows least about among the strongest-looking ones.
        def unknown(q: int) -> tuple[int, int, int]:
            return (view.stage(q), view.hand_sizes[q] - len(view.known.get(q, [])), view.chips[q])

        return Action("target", seat=max(seats, key=unknown))
    return Action("target", seat=view.leader(seats))


def card(view: View, legal: Sequence[Action]) -> Action:
    """The card to give or swap away: the one this hand misses least."""
    kind = legal[0].verb
    choice = view.obs["choice"]
    assert "target" in choice  # a give or swap effect's card choice
    target_seat = choice["target"]
    if view.step == "scoring" and view.revealed[target_seat] is not None:
        game = Showdown(view)
        return max(legal, key=lambda a: game.give_value(target_seat, a.card, kind))
    scorer = view.scorer()
    keep = view.limits[view.seat]
    memo: dict[tuple[int, ...], int] = {}

    def without(a: Action) -> tuple[int, int, int]:
        rest = [c for c in view.hand if c != a.card]
        value, _ = best_keep(rest, keep, memo, scorer)
        # Ties: give away what helps the receiver least (bonus, then rank).
        return (value, -CARD_BONUS[a.card], -a.card)

    return max(legal, key=without)
