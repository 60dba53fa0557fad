"""How good a position is for each player, for a search that stops its rollouts early.

Read from the world's public observation with the reckoning's own arithmetic
(:func:`~apokalypse.games.apokalypse.horsemen.reckon`, as the forecast uses it) and scored the
way the game is won (:mod:`apokalypse.games.apokalypse.ending`), "as things stand": every
horseman still to come rides against the displays as they are now. Each reckoning (survivors −
dead, R-HORSE-5) and each horseman card to the best of them (R-REWARD-1) is added to the running
totals (R-END-2). A death counts in full only if that horseman rides before anybody can protect
against it: for the next one, as likely as it rides at the end of this round (the heuristic's
:func:`~.model.urgency`, from the cards above it), for later ones :data:`LATER_RISK`. Then
each player's chance to win is

- good: the good populaces outnumber the evil ones after the next horseman (R-END-3/4) *and* the
  good players' totals beat the evil players' (V-GOOD-TEAM: the best good total beats the lowest
  evil one);
- evil: the good do not outnumber the evil (R-END-5; under V-GOOD-TIES the evil must outnumber
  the good) *and* this player has the best evil total (tied evil players share, D-END-1);
- everybody of one ethos (R-END-6): that ethos outnumbers the other (not needed under
  V-EDITION-2008) and this player has the best total.

Each "and" is a product of soft chances (a logistic of the margin): the more horsemen still to
come, the wider the margins that are still open. A finished game scores 1 for a win, 0 for a
loss. A share (:data:`STANDING`) of every value is the player's total against the others' mean
instead: points count toward every way of winning, and a chance to win that is already near 0
or 1 would leave a search nothing to tell its moves apart by.

The ethos of the others is the sampled world's, which is why the evaluation takes the world: its
observation alone shows only one seat's ethos. The sampler deals it from the ethos cards left; a
player with ethos beliefs (``beliefs.py``) redraws it from what the others did, so the search's
values are weighted by that belief.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

from apokalypse.engine.protocol import GameState
from apokalypse.games.apokalypse import State, Variant
from apokalypse.games.apokalypse.cards import EVIL, GOOD, HORSEMAN_VP, CardKind, deck_kinds
from apokalypse.games.apokalypse.horsemen import LAST_HORSEMAN, reckon
from apokalypse.games.apokalypse.observed import display_rows, side_protection

from ..ismcts import result_values
from .model import urgency

# How wide a margin still is per horseman to come (by eye on random positions: a reckoning
# moves a total by a few points, a horseman kills a populace or two per display).
POPULACE_SPREAD = 1.5
TOTAL_SPREAD = 3.0
LATER_RISK = 0.25  # how much a death at a later horseman counts (protection may come first)
MAX_REWARDED = 3  # R-REWARD-1: more than three tied best reckonings receive no card
STANDING = 0.3  # the share of a value that is the player's standing in points


@lru_cache(maxsize=8)
def _kinds(deck_text: str) -> Mapping[str, CardKind]:
    return deck_kinds(deck_text)


def _chance(margin: float, spread: float) -> float:
    """A soft ``margin > 0``: 0.5 at zero, near 1 well above ``spread``."""
    return 1.0 / (1.0 + math.exp(-margin / spread))


def _best_share(totals: Sequence[float], seats: Sequence[int], spread: float) -> dict[int, float]:
    """The chance each of ``seats`` ends with the best total among them (a softmax)."""
    top = max(totals[q] for q in seats)
    weights = {q: math.exp((totals[q] - top) / spread) for q in seats}
    whole = sum(weights.values())
    return {q: w / whole for q, w in weights.items()}


def evaluate(world: GameState) -> list[float]:
    """The value of ``world`` for every seat, 0 … 1 (mostly the chance to win as things
    stand)."""
    assert isinstance(world, State)  # the Apokalypse evaluation reads an Apokalypse world
    n = world.n
    if world.is_over:
        result = world.result
        assert result is not None
        return _blend(result_values(world, n), list(result.totals), 1.0)
    obs = world.observation(None)
    kinds = _kinds(world.config.deck_text)
    first = min(obs["horseman"], LAST_HORSEMAN)
    owned = obs["horseman_cards"]
    totals: list[float] = [
        sum(row[q] for row in obs["scores"]) + sum(HORSEMAN_VP[h] for h in owned[q])
        for q in range(n)
    ]
    good_pop = evil_pop = 0
    scores: dict[int, list[float]] = {h: [] for h in range(first, LAST_HORSEMAN + 1)}
    displays = [display_rows(view) for view in obs["displays"]]
    soon = urgency(obs, displays)
    risk = soon + (1.0 - soon) * LATER_RISK  # the next horseman's deaths
    for q, view in enumerate(obs["displays"]):
        rows = displays[q]
        good_n, evil_n = len(view["good"]["earth"]), len(view["evil"]["earth"])
        shields = side_protection(rows, GOOD, kinds), side_protection(rows, EVIL, kinds)
        mine = frozenset(owned[q])
        for h in scores:
            good, evil = reckon(h, good_n, evil_n, *shields, mine)
            dead = (good.dead + evil.dead) * (risk if h == first else LATER_RISK)
            scores[h].append(good_n + evil_n - 2 * dead)  # R-HORSE-5: survivors − dead
            if h == first:
                good_pop += good_n - good.dead
                evil_pop += evil_n - evil.dead
    for h, score in scores.items():
        best = max(score)
        rewarded = [q for q in range(n) if score[q] == best]
        for q in range(n):
            totals[q] += score[q]
            if len(rewarded) <= MAX_REWARDED and q in rewarded:
                totals[q] += HORSEMAN_VP[h]
    to_come = LAST_HORSEMAN - first  # after the next one
    pop_spread = 0.5 + POPULACE_SPREAD * to_come
    total_spread = 1.0 + TOTAL_SPREAD * to_come
    # A strict majority: a tie is nobody's (R-END-4 against R-END-5, R-END-6).
    good_majority = _chance(good_pop - evil_pop - 0.5, pop_spread)
    # V-GOOD-TIES: at a table of both ethos a tie counts for the good (R-END-6 keeps its rule)
    ties = world.config.has(Variant.GOOD_TIES)
    good_or_tie = _chance(good_pop - evil_pop + 0.5, pop_spread) if ties else good_majority
    wins = _win_chances(world, totals, good_majority, good_or_tie, total_spread)
    return _blend(wins, totals, total_spread)


def _win_chances(
    world: State, totals: list[float], good_majority: float, good_or_tie: float, spread: float
) -> list[float]:
    n = world.n
    good = [q for q in range(n) if world.ethos[q] == GOOD]
    evil = [q for q in range(n) if world.ethos[q] == EVIL]
    values = [0.0] * n
    if not good or not evil:  # R-END-6: one ethos at the table
        majority = good_majority if good else 1.0 - good_majority
        if world.config.has(Variant.EDITION_2008):
            majority = 1.0
        for q, share in _best_share(totals, range(n), spread).items():
            values[q] = majority * share
        return values
    if world.config.has(Variant.GOOD_TEAM):
        margin = max(totals[q] for q in good) - min(totals[q] for q in evil)
        team = _chance(margin - 0.5, spread)
    else:
        margin = sum(totals[q] for q in good) - sum(totals[q] for q in evil)
        team = _chance(margin - 0.5, spread * math.sqrt(n))
    for q in good:
        values[q] = good_or_tie * team
    for q, share in _best_share(totals, evil, spread).items():
        values[q] = (1.0 - good_or_tie) * share
    return values


def _blend(wins: list[float], totals: Sequence[float], spread: float) -> list[float]:
    """Mix each chance to win with the player's standing: total against the others' mean."""
    n = len(totals)
    whole = sum(totals)
    return [
        (1.0 - STANDING) * win
        + STANDING * _chance(totals[q] - (whole - totals[q]) / (n - 1), spread)
        for q, win in enumerate(wins)
    ]
