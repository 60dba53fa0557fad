"""Ethos beliefs (``bots/apokalypse/beliefs.py``): the prior counts the deals (R-SETUP-3,
V-ETHOS-BALANCED), updates keep a distribution that never rules an assignment out, a seat seen
doing an evil thing becomes more likely evil, the searching player with beliefs plays legal,
deterministic games and draws its worlds from the belief, and the belief reads only what its seat
is shown."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apokalypse.bots import make_bot, seat_seed
from apokalypse.bots.apokalypse import ismcts
from apokalypse.bots.apokalypse.beliefs import (
    REVEAL_PENALTY,
    BeliefSearch,
    EthosBelief,
    action_move,
    belief_in_game,
    deal_prior,
)
from apokalypse.bots.apokerlypse import ismcts as apokerlypse_ismcts
from apokalypse.bots.ismcts import ISMCTSPlayer
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.events import EventView
from apokalypse.engine.match import Match, play_out
from apokalypse.engine.registry import get_game
from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import Action, State
from apokalypse.games.apokalypse.cards import EVIL, GOOD
from apokalypse.games.apokalypse.secrecy import ethos_pool


def new_state(players: int, seed: int, variants: tuple[str, ...] = ()) -> Any:
    game = get_game("apokalypse")
    return game.new_game(game.config_from_options(players, list(variants), None), seed)


def counted_deals(
    seat: int, players: int, own: int, balanced: bool
) -> dict[tuple[int, ...], float]:
    """Every order of the shuffled ethos cards, dealt one per seat; the deals that give ``seat``
    its ``own`` card, counted by the assignment they make."""
    pool = ethos_pool(players, balanced)
    counts: Counter[tuple[int, ...]] = Counter()
    for order in itertools.permutations(range(len(pool))):
        deal = tuple(pool[i] for i in order[:players])
        if deal[seat] == own:
            counts[deal] += 1
    whole = sum(counts.values())
    return {a: c / whole for a, c in counts.items()}


# --- the prior --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("balanced", [False, True])
def test_r_setup_3_the_prior_counts_the_deals(players: int, balanced: bool) -> None:
    """R-SETUP-3 (and V-ETHOS-BALANCED): the prior of an assignment is the share of the deals
    of the ethos cards that make it, among those that give the seat its own card."""
    for seat in {0, players - 1}:
        for own in (GOOD, EVIL):
            prior = deal_prior(seat, players, own, balanced)
            assert math.isclose(sum(prior.values()), 1.0)
            expected = counted_deals(seat, players, own, balanced)
            assert prior.keys() == expected.keys()
            for assignment, p in expected.items():
                assert math.isclose(prior[assignment], p)
            belief = EthosBelief(seat, players, own, balanced)
            assert belief.probability(next(iter(expected))) == belief.prior(next(iter(expected)))


def test_v_ethos_balanced_leaves_out_assignments_the_cards_cannot_make() -> None:
    """V-ETHOS-BALANCED with 4 players deals from two good and two evil cards: a good seat sees
    at most one more good player, so three good others are impossible."""
    belief = EthosBelief(0, 4, GOOD, balanced=True)
    assert belief.prior((GOOD, GOOD, GOOD, EVIL)) == 0.0
    assert belief.prior((GOOD, EVIL, EVIL, EVIL)) == 0.0  # only two evil cards
    assert belief.prior((GOOD, GOOD, EVIL, EVIL)) > 0.0


# --- updates ----------------------------------------------------------------------------------

ACTORS = st.integers(min_value=0, max_value=3)
SIDES = st.sampled_from([GOOD, EVIL])


def _events() -> st.SearchStrategy[EventView]:
    populace = st.builds(
        lambda a, s, q: EventView("populace", {"actor": a, "seat": q, "side": s}, False),
        ACTORS,
        SIDES,
        ACTORS,
    )
    attack = st.builds(
        lambda a, s, q, c: EventView(
            "attack", {"actor": a, "card": c, "seat": q, "side": s}, False
        ),
        ACTORS,
        SIDES,
        ACTORS,
        st.sampled_from(["violence", "ethos"]),
    )
    place = st.builds(
        lambda k, a, s: EventView(
            k, {"actor": a, "card": "church", "seat": a, "side": s, "plane": 0, "pos": 0}, False
        ),
        st.sampled_from(["place", "neutralise", "replace", "seal-place"]),
        ACTORS,
        SIDES,
    )
    defend = st.builds(
        lambda a: EventView("defend", {"actor": a, "card": "metal", "attacker": 0}, False),
        ACTORS,
    )
    other = st.builds(lambda a: EventView("pass", {"actor": a}, False), ACTORS)
    return st.one_of(populace, attack, place, defend, other)


@settings(max_examples=150, deadline=None)
@given(
    seat=ACTORS,
    own=SIDES,
    balanced=st.booleans(),
    events=st.lists(_events(), max_size=400),
)
def test_updates_keep_a_distribution_that_rules_nothing_out(
    seat: int, own: int, balanced: bool, events: list[EventView]
) -> None:
    """Whatever the moves seen, the belief sums to 1, no possible assignment is ever exactly 0
    (the uniform floor and the capped evidence), and the seat's own ethos stays certain."""
    belief = EthosBelief(seat, 4, own, balanced)
    belief.observe(events)
    dist = belief.distribution()
    assert math.isclose(sum(dist.values()), 1.0)
    assert all(p > 0.0 for p in dist.values())
    assert set(dist) == {a for a in dist if belief.prior(a) > 0}
    marginals = belief.marginals()
    assert marginals[seat] == (1.0 if own == GOOD else 0.0)
    assert all(0.0 <= m <= 1.0 for m in marginals)
    wrong = tuple(1 - own if q == seat else GOOD for q in range(4))
    assert belief.probability(wrong) == 0.0


def test_r_play_5_a_seat_laying_evil_populaces_becomes_more_likely_evil() -> None:
    """R-PLAY-3/R-PLAY-5: laying a populace on the evil side (and taking the evil deed) is what
    an evil player does more often; so is R-ATTACK-3, turning a good populace evil. Seen doing
    both, p3 becomes more likely evil than the deal made it; p2 laying good ones less."""
    belief = EthosBelief(0, 4, GOOD)
    before = belief.marginals()
    belief.observe(
        [
            EventView("populace", {"actor": 2, "seat": 2, "side": EVIL}, False),
            EventView("attack", {"actor": 2, "card": "ethos", "seat": 1, "side": GOOD}, False),
            EventView("populace", {"actor": 1, "seat": 1, "side": GOOD}, False),
        ]
    )
    after = belief.marginals()
    assert after[2] < before[2] / 3  # P(good) of p3 falls …
    assert after[1] > before[1]  # … p2's rises
    assert after[0] == 1.0
    assert belief.as_data()["p3"] == round(after[2], 3)


def test_the_own_moves_are_no_evidence_about_the_others() -> None:
    belief = EthosBelief(1, 4, EVIL)
    belief.observe([EventView("populace", {"actor": 1, "seat": 1, "side": GOOD}, False)])
    assert belief.distribution() == EthosBelief(1, 4, EVIL).distribution()


# --- the searching player with beliefs --------------------------------------------------------


def _ismcts_game(seed: int) -> tuple[list[str], ISMCTSPlayer]:
    state = new_state(4, seed)
    players: list[Any] = [make_bot("heuristic", seat_seed(seed, q), "apokalypse") for q in range(4)]
    searcher = ismcts(seat_seed(seed, 1), iterations=8)
    assert isinstance(searcher, ISMCTSPlayer) and searcher.beliefs is not None
    players[1] = searcher
    match: Match[Any, Any] = play_out(state, players)
    assert state.is_over and state.result is not None
    return match.actions, searcher


def test_the_searching_player_with_beliefs_plays_whole_games_deterministically() -> None:
    """Every choice goes through the match loop (which refuses an illegal one); the same seed and
    iteration budget play the same game; the explanation carries P(good) per seat."""
    actions, searcher = _ismcts_game(11)
    again, _ = _ismcts_game(11)
    assert actions == again
    last = searcher.last
    assert last is not None and last.belief is not None
    assert set(last.belief) == {"p1", "p2", "p3", "p4"}
    own = searcher.beliefs
    assert isinstance(own, BeliefSearch) and own.belief is not None
    assert last.belief["p2"] == (1.0 if own.belief.own == GOOD else 0.0)


def test_a_resumed_game_with_beliefs_goes_on_exactly_as_the_uninterrupted_one() -> None:
    """``Match.catch_up`` asks without a search; the beliefs are fed the same views either way
    (kept until the first search), so the resumed game makes the same choices."""
    game = get_game("apokalypse")

    def seats() -> dict[int, Any]:
        return {q: ismcts(30 + q, iterations=4) for q in (0, 1)}

    whole: Match[Any, Any] = play_out(new_state(2, 6), list(seats().values()))
    cut = len(whole.actions) // 2
    resumed: Match[Any, Any] = Match(new_state(2, 6), seats())
    resumed.start()
    resumed.catch_up(game, whole.actions[:cut])
    resumed.play_out()
    assert resumed.actions == whole.actions


def test_the_factories_keep_their_signatures() -> None:
    assert isinstance(ismcts(1), ISMCTSPlayer)
    plain = ismcts(1, seconds=0.1, beliefs=False)
    assert isinstance(plain, ISMCTSPlayer) and plain.beliefs is None and plain.seconds == 0.1
    assert isinstance(make_bot("ismcts", 1, "apokalypse"), ISMCTSPlayer)
    assert make_bot("ismcts", 1, "apokalypse").beliefs is not None  # type: ignore[attr-defined]
    other = apokerlypse_ismcts(1, iterations=5)
    assert isinstance(other, ISMCTSPlayer) and other.iterations == 5 and other.beliefs is None
    with pytest.raises(ConfigError, match="no ethos"):
        apokerlypse_ismcts(1, beliefs=True)


def _fed_search(seed: int, moves: int) -> tuple[Any, int, BeliefSearch]:
    """A heuristic game of at least ``moves`` actions, to p1's turn; a BeliefSearch fed p1's
    views of it."""
    state = new_state(4, seed)
    seats = {q: make_bot("heuristic", seat_seed(seed, q), "apokalypse") for q in range(4)}
    match: Match[Any, Any] = Match(state, seats)
    hook = BeliefSearch()
    hook.see(state.observation(0))
    hook.observe([e.view(0) for e in match.start()])
    while state.move < moves or state.to_act != 0:
        _, events = match.play_turn()
        hook.observe([e.view(0) for e in events])
    return state, 0, hook


def test_sampled_worlds_draw_the_others_ethos_from_the_belief() -> None:
    """A chi-square check with a fixed seed: 4,000 worlds through the hook, each assignment's
    count against the belief's probability (well under the 0.1 % critical value)."""
    state, seat, hook = _fed_search(5, 4)
    rng = Rng(3)
    counts: Counter[tuple[int, ...]] = Counter()
    draws = 4000
    truth = state.ethos
    for _ in range(draws):
        world = hook.world(state.determinize(seat, rng), rng)
        assert isinstance(world, State) and world.ethos[seat] == truth[seat]
        counts[world.ethos] += 1
    assert hook.belief is not None
    dist = hook.belief.distribution()
    assert set(counts) <= set(dist)
    expected = {a: p * draws for a, p in dist.items() if p * draws >= 5}
    chi2 = sum((counts[a] - e) ** 2 / e for a, e in expected.items())
    # 0.1 % critical values of chi-square for up to 6 degrees of freedom: at most 22.5
    assert chi2 < 22.5
    rare = sum(counts[a] for a in dist if a not in expected)
    assert rare <= 30
    # The moves seen moved the belief away from the deal: the draws follow the belief, not the
    # sampler's uniform deal (its favourite is drawn far more often than the prior says).
    favourite = max(dist, key=lambda a: dist[a])
    assert counts[favourite] > 1.3 * hook.belief.prior(favourite) * draws
    assert state.ethos == truth  # the true state is untouched by the draws


def _holds_a_state(value: object, seen: set[int]) -> bool:
    if id(value) in seen:
        return False
    seen.add(id(value))
    if isinstance(value, State):
        return True
    if isinstance(value, dict):
        return any(_holds_a_state(k, seen) or _holds_a_state(v, seen) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return any(_holds_a_state(v, seen) for v in value)
    if hasattr(value, "__dict__"):
        return any(_holds_a_state(v, seen) for v in vars(value).values())
    return False


def test_the_belief_reads_only_what_its_seat_is_shown() -> None:
    """The belief is fed event views and its own observations; it keeps no reference to a State
    (the true one or a sampled one), and refuses another seat's observation."""
    state, seat, hook = _fed_search(7, 60)
    hook.world(state.determinize(seat, Rng(1)), Rng(2))
    assert not _holds_a_state(hook, set())
    assert hook.belief is not None
    with pytest.raises(ValueError, match="own seat"):
        hook.belief.see(state.observation(1))
    _, searcher = _ismcts_game(12)
    assert not _holds_a_state(searcher.beliefs, set())


def test_a_move_that_shows_the_ethos_costs_most_early_and_nothing_at_the_last_horseman() -> None:
    """The root penalty: a populace laid on either side moves a watcher's belief about its
    player's ethos; before horseman 1 that costs up to REVEAL_PENALTY, before horseman 4
    nothing; a pass shows nothing and costs nothing."""
    hook = BeliefSearch()
    obs: Any = {"seat": 0, "ethos": "good", "horseman": 1, "players": 4}  # what it reads
    lay_good = Action("play", "populace", "good")  # a B card's back: any code reads the same
    lay_evil = Action("play", "populace", "evil")
    early = hook.root_penalty(obs, lay_good)
    assert 0 < early <= REVEAL_PENALTY
    # The other side leans the watcher the other way: as telling, so it costs too (about as
    # much), and the penalty does not push every near tie to the side that misleads.
    assert 0.5 * early < hook.root_penalty(obs, lay_evil) < 2 * early
    assert hook.root_penalty(obs, Action("pass")) == 0.0
    last: Any = {**obs, "horseman": 4}
    third: Any = {**obs, "horseman": 3}
    assert hook.root_penalty(last, lay_good) == 0.0
    assert 0 < hook.root_penalty(third, lay_good) < early
    assert action_move(0, obs, Action("play", "violence", "attack")) is None  # no side yet


# --- the measurement --------------------------------------------------------------------------


def test_by_the_second_horseman_a_good_seat_believes_the_truth_more_than_the_deal_did() -> None:
    """``belief_in_game``: over ten seeded heuristic games the belief of the first good seat in
    the true assignment is at least twice its prior on average (over 200: about 6.4×)."""
    ratios = []
    for seed in range(10):
        pair = belief_in_game(4, seed)
        assert pair is not None
        prior, belief = pair
        assert 0 < prior < 1 and 0 < belief <= 1
        ratios.append(belief / prior)
    assert sum(ratios) / len(ratios) >= 2.0


def _belief_prefix(players: int, seed: int, moves: int) -> tuple[Match[Any, Any], int, Any]:
    """Random play for ``moves`` actions and on to a decision of more than one choice; the seat
    deciding then gets a searching player with beliefs that saw it all."""
    state = new_state(players, seed)
    rng = Rng(seed)
    views: list[Any] = []
    while state.move < moves or len(state.legal_actions()) < 2:
        legal = state.legal_actions()
        views.append(state.apply(legal[rng.below(len(legal))]))
    seat = state.to_act
    player = ismcts(77, iterations=30)
    for batch in views:
        player.observe([e.view(seat) for e in batch])
    return Match(state, {seat: player}), seat, player


@pytest.mark.parametrize(("players", "seed", "moves"), [(4, 1, 120), (3, 2, 60), (5, 3, 90)])
def test_twin_worlds_with_other_hidden_ethos_get_the_same_choice_and_belief(
    players: int, seed: int, moves: int
) -> None:
    """R-SETUP-3: two true states that differ in what the deciding seat cannot see, another
    player's ethos included (and a hidden card): the player with beliefs searches alike and
    believes alike, so its belief reads nothing of the true state."""
    from tests.apokalypse.test_properties import hidden_swap

    one, seat, first = _belief_prefix(players, seed, moves)
    two, _, second = _belief_prefix(players, seed, moves)
    true_state: Any = two.state
    twin: Any = hidden_swap(true_state, seat, Rng(seed)) or true_state.clone()
    others = [q for q in range(players) if q != seat]
    ethos = list(twin.ethos)
    a = others[0]
    b = next((q for q in others if ethos[q] != ethos[a]), None)
    if b is not None:  # swap two others' ethos: the pool is the same
        ethos[a], ethos[b] = ethos[b], ethos[a]
    else:  # all others alike: flip one, if the cards allow it
        ethos[a] = 1 - ethos[a]
        assert EthosBelief(seat, players, ethos[seat]).prior(ethos) > 0
    twin.ethos = tuple(ethos)
    assert twin.ethos != true_state.ethos
    assert twin.observation(seat) == one.state.observation(seat)
    two.state = twin
    choice_one, choice_two = one.ask(), two.ask()
    x, y = first.last, second.last
    assert x is not None and y is not None and x.belief is not None
    assert (str(choice_one), x.candidates, x.belief) == (str(choice_two), y.candidates, y.belief)
