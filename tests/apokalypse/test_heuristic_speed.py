"""The heuristic player made faster makes the very same choices.

``tests/golden/apokalypse-heuristic-choices.txt`` holds every choice its code made, before it
was made faster (it weighed each candidate play on a copied display and re-derived the losses of
every display for each), in 15 seeded games of 2 to 6 players; the games are played again here
and every choice must come back. The property tests check the shortcuts behind the speed: the
facts of a changed display worked out from the cards that change equal those read from the
changed display itself, and a display's value equals the formula's on the display.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apokalypse.bots.apokalypse.context import Context, Weights, put
from apokalypse.bots.apokalypse.heuristic import HeuristicBot
from apokalypse.bots.apokalypse.model import (
    LAST,
    copy_display,
    kinds,
    losses,
    role,
    shape,
    shape_facts,
)
from apokalypse.bots.random_bot import RandomBot
from apokalypse.games.apokalypse import GAME, Config, State
from apokalypse.games.apokalypse.attacks import join, remove_outermost
from apokalypse.games.apokalypse.cards import EARTH, EVIL, GOOD, HEAVEN, NETHER
from apokalypse.games.apokalypse.horsemen import deaths
from apokalypse.games.apokalypse.observed import side_protection
from apokalypse.games.apokalypse.roles import USES

GOLDEN = Path(__file__).parent.parent / "golden" / "apokalypse-heuristic-choices.txt"


def recorded() -> list[tuple[int, int, str, list[str]]]:
    games = []
    for line in GOLDEN.read_text().splitlines():
        if line.startswith("#"):
            continue
        head, choices = line.split(": ", 1)
        players, seed, seats = head.split()
        games.append((int(players), int(seed), seats, choices.split(";")))
    return games


@pytest.mark.parametrize(("players", "seed", "seats", "expected"), recorded())
def test_heuristic_makes_the_recorded_choices(
    players: int, seed: int, seats: str, expected: list[str]
) -> None:
    bots: list[Any] = [
        (HeuristicBot if kind == "h" else RandomBot)(1000 * seed + q)
        for q, kind in enumerate(seats)
    ]
    s = GAME.new_game(Config(players=players), seed)
    chosen: list[str] = []
    while not s.is_over:
        seat = s.to_act
        action = bots[seat].choose(s.observation(seat), s.legal_actions())
        if seats[seat] == "h":
            chosen.append(str(action))
            # Stop at the first difference: the rest of the game differs with it.
            assert chosen[-1] == expected[len(chosen) - 1], (len(chosen), seat)
        s.apply(action)
    assert chosen == expected


def mid_game(players: int, seed: int, steps: int) -> State:
    """A game played ``steps`` decisions on by random players (fewer if it ends first)."""
    s = GAME.new_game(Config(players=players), seed)
    bot = RandomBot(seed)
    for _ in range(steps):
        if s.is_over:
            break
        s.apply(bot.choose(s.observation(s.to_act), s.legal_actions()))
    return s


def formula(ctx: Context, seat: int, d: list[list[str]]) -> float:
    """The value of a display as the module docstring's formula reads it off the display, with
    the engine's own reckoning (as the player first worked it out, with nothing memoised)."""
    h, u = ctx.horseman, ctx.urgency
    known = kinds()
    good_n, evil_n = len(d[GOOD * 3 + EARTH]), len(d[EVIL * 3 + EARTH])
    if not good_n + evil_n:
        return 0.0
    cards = 0  # income: the modifiers of Netherworld cards under populaces
    for side in (GOOD, EVIL):
        for pos, code in enumerate(d[side * 3 + NETHER]):
            kind = known.get(code)
            if pos < len(d[side * 3 + EARTH]) and kind is not None:
                cards += sum(kind.modifier[side])
    good, evil = side_protection(d, GOOD, known), side_protection(d, EVIL, known)
    owned = ctx.owned[seat]
    dying = [sum(deaths(n, good_n, evil_n, good, evil, owned)) for n in range(h, LAST + 1)]
    assert dying == losses(d, h, owned)
    income_weight = 0.3 * (LAST - h) + 0.3
    value = (good_n + evil_n) * (LAST + 1 - h + income_weight)
    value += income_weight * cards
    for j, dead in enumerate(dying, h):
        if dead:
            value -= (u if j == h else ctx.w.later_risk) * dead * (LAST + 2 - j)
    return value


positions = st.tuples(
    st.integers(min_value=2, max_value=6),
    st.integers(min_value=0, max_value=10_000),
    st.integers(min_value=10, max_value=250),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_facts_of_a_placement_are_those_of_the_changed_display(
    position: tuple[int, int, int],
) -> None:
    """Every Heaven, Netherworld and neutralise place of every card in hand (R-PLAY-8 to 15):
    :meth:`Context.placed` and the slots of :meth:`Context.best_slot` give the facts read from
    the display with the card put there, and the value is the formula's on that display."""
    s = mid_game(*position)
    seat = s.to_act if not s.is_over else 0
    ctx = Context(s.observation(seat), Weights())
    for code in sorted(set(ctx.obs["hand"])):
        card_role = role(code)
        for use in ("heaven", "nether", "neutralise"):
            if card_role is None or use not in USES[card_role]:
                continue
            for t in ctx.places(code, use):
                assert t.plane in (HEAVEN, NETHER)
                d = copy_display(ctx.displays[t.seat])
                put(d[t.side * 3 + t.plane], code, use, t.pos)
                f = ctx.placed(t, code, use)
                assert f == shape_facts(shape(d))
                assert ctx.seat_value(t.seat, f) == formula(ctx, t.seat, d)
            if use != "neutralise":  # a slot weighs the card the same way
                for slot, t in zip(ctx.slots(code, use), ctx.places(code, use), strict=True):
                    only = ctx.best_slot(code, [slot])
                    assert only == ctx.delta1(t.seat, ctx.placed(t, code, use))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_facts_of_an_attack_are_those_of_the_changed_displays(
    position: tuple[int, int, int],
) -> None:
    """The outermost populace of each side with a populace taken (R-ATTACK-2) and joined to
    the other side of each display (R-ATTACK-3): the facts :meth:`Context.taken` and
    :meth:`Context.joined` work out are those of the changed displays."""
    s = mid_game(*position)
    seat = s.to_act if not s.is_over else 0
    ctx = Context(s.observation(seat), Weights())
    for q, rows in enumerate(ctx.displays):
        assert ctx.base[q] == formula(ctx, q, rows)
        for side in (GOOD, EVIL):
            if not rows[side * 3 + EARTH]:
                continue
            d = copy_display(rows)
            bundle = remove_outermost(d, side)
            taken, gone = ctx.taken(q, side)
            assert taken == bundle
            assert gone == shape_facts(shape(d))
            assert ctx.seat_value(q, gone) == formula(ctx, q, d)
            for dest in range(ctx.n):
                if dest == q:
                    continue
                target = copy_display(ctx.displays[dest])
                join(target, 1 - side, bundle)
                joined = ctx.joined(dest, 1 - side, bundle, ctx.facts[dest])
                assert joined == shape_facts(shape(target))
            join(d, 1 - side, bundle)  # back into its own display, on the other side
            assert ctx.joined(q, 1 - side, bundle, gone) == shape_facts(shape(d))
