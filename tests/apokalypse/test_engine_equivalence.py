"""The engine's shortcuts against the plain rules: the display summaries kept up to date as cards
move (``placement.display_mark``), and the parts a clone shares until one side changes them
(copy-on-write displays, decks, horseman cards, knowledge).

The summaries must say exactly what a fresh scan of the displays says (R-PLAY-8, R-PLAY-10,
R-PLAY-12, R-PLAY-14, R-PLAY-15, R-ATTACK-1, R-PLAY-6, R-PLAY-17); a clone must behave as an
independent copy, whichever of the two moves first.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import GAME, Config, State
from apokalypse.games.apokalypse.attacks import targets as attack_targets
from apokalypse.games.apokalypse.placement import (
    ATTACK_BIT,
    KEY_BIT,
    PLACES_NEEDED,
    display_mark,
    open_mask,
    places,
)

GAMES = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _fresh(s: State) -> int:
    """Every display's summary computed anew."""
    mask = 0
    for rows in s.displays:
        mask |= display_mark(rows, s.table)
    return mask


@GAMES
@given(st.integers(min_value=2, max_value=6), st.integers(min_value=0, max_value=2**32))
def test_kept_summaries_match_a_fresh_scan_and_the_rules(n: int, seed: int) -> None:
    """After every move of a random game, the summaries kept with the displays equal the ones
    computed anew, and agree with the rules' lists: a role has an attack target exactly when
    ``attacks.targets`` lists one (R-ATTACK-1, R-PLAY-6, R-PLAY-17), and a use with a single
    place key has a place exactly when ``places`` lists one (R-PLAY-8 … R-PLAY-15)."""
    s = GAME.new_game(Config(players=n), seed)
    rng = Rng(seed)
    while not s.is_over:
        kept = open_mask(s)
        assert kept == _fresh(s)
        for role, bit in ATTACK_BIT.items():
            assert bool(kept & bit) == bool(attack_targets(s, role)), role
        for (role, use), keys in PLACES_NEEDED.items():
            found = bool(places(s.displays, s.table.music, role, use))
            assert found == any(kept & KEY_BIT[key] for key in keys), (role, use)
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])


@GAMES
@given(st.integers(min_value=2, max_value=6), st.integers(min_value=0, max_value=2**32))
def test_a_clone_is_independent_whichever_side_moves(n: int, seed: int) -> None:
    """A clone and its original, played on with different random choices, each reach exactly
    the states that a deep copy would reach: sharing a display, the decks, the horseman cards
    or the knowledge until one side changes them never lets a change leak to the other."""
    s = GAME.new_game(Config(players=n), seed)
    rng = Rng(seed)
    step = 0
    while not s.is_over:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
        step += 1
        if step % 23:
            continue
        twin = s.clone()
        before = _snapshot(s)
        copy_rng = Rng(seed + step)
        for _ in range(40):  # the clone moves: the original must not change
            if twin.is_over:
                break
            moves = twin.legal_actions()
            twin.apply(moves[copy_rng.below(len(moves))])
        assert _snapshot(s) == before
    assert s.result is not None


def _snapshot(s: State) -> tuple[object, ...]:
    return (
        [[row[:] for row in display] for display in s.displays],
        [pile[:] for pile in s.decks],
        [cards[:] for cards in s.rewards],
        [dict(known) for known in s.knowledge],
        [hand[:] for hand in s.hands],
        s.observation(None),
    )


def test_code_outside_the_rules_gets_displays_of_its_own() -> None:
    """``own_displays``, ``own_decks``, ``own_rewards`` and ``own_knowledge`` hand out this
    state's own lists: a change there (as the rule tests' builders make) never reaches a clone."""
    s = GAME.new_game(Config(players=3), 1)
    twin = s.clone()
    s.own_displays()[0][1].append(s.own_decks()[0].pop())
    s.own_rewards()[1].append(s.horse_supply[0])
    s.own_knowledge()[2][0, "m/hp"] = 1
    assert twin.displays[0][1] == []
    assert len(twin.decks[0]) == len(s.decks[0]) + 1
    assert twin.rewards[1] == []
    assert twin.knowledge[2] == {}
    assert open_mask(s) == _fresh(s)  # the change through ``own_displays`` reset the summary
