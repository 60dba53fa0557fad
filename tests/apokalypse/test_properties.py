"""Property tests over random games of 2–6 players (docs/protocol.md and docs/tests.md).

Each example plays a whole seeded game with uniformly random decisions and checks, after every
step: no exception, every physical card in exactly one place, the row invariants of R-PLAY-2,
legal lists that agree with the rules' own checks; and at the end that a replay reproduces every
event. Secrecy (R-INFO) is checked by changing what a player cannot see and asserting that their
observation does not move.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.record import GameRecord, replay
from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import GAME, Config, State, Variant, parse_action
from apokalypse.games.apokalypse.cards import EARTH, EVIL, GOOD, HEAVEN, NETHER
from apokalypse.games.apokalypse.pending import ChooseTarget, Defence, Turn
from apokalypse.games.apokalypse.placement import targets
from tests.apokalypse.builders import all_cards

GAMES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
players = st.integers(min_value=2, max_value=6)
seeds = st.integers(min_value=0, max_value=2**32)
variant_sets = st.sets(
    st.sampled_from(
        ["V-ETHOS-BALANCED", "V-ETHOS-ORPHANS", "V-GOOD-TEAM", "V-EDITION-2008", "V-GOOD-TIES"]
    )
)


def random_game(n: int, seed: int, variants: frozenset[Variant] = frozenset()):
    """Yield (state, action, events) for each step of a random game."""
    s = GAME.new_game(Config(players=n, variants=variants), seed)
    rng = Rng(seed ^ 0x5EED)
    while not s.is_over:
        legal = s.legal_actions()
        action = legal[rng.below(len(legal))]
        events = s.apply(action)
        yield s, action, events


def check_rows(s: State) -> None:
    """R-PLAY-2: per side, Heaven ≤ Earth and Netherworld ≤ Earth."""
    for rows in s.displays:
        for side in (GOOD, EVIL):
            earth = len(rows[side * 3 + EARTH])
            assert len(rows[side * 3 + HEAVEN]) <= earth
            assert len(rows[side * 3 + NETHER]) <= earth


@GAMES
@given(players, seeds, variant_sets)
def test_random_games_keep_every_card_in_one_place_and_rows_packed(n, seed, variants):
    """R-PLAY-2 row invariants and card conservation after every step of random games."""
    total = None
    steps = 0
    for s, _, _ in random_game(n, seed, frozenset(variants)):
        cards = all_cards(s)
        assert len(cards) == len(set(cards)) == len(s.table.kind)
        total = total or len(cards)
        check_rows(s)
        steps += 1
    assert steps > 0 and total == len(s.table.kind)
    assert s.result is not None and len(s.scores) == 4  # R-END-1: four reckonings


@GAMES
@given(players, seeds)
def test_replaying_a_record_reproduces_every_event(n, seed):
    actions: list[str] = []
    record = GameRecord("apokalypse", GAME.version, Config(players=n).to_json(), seed, actions)
    digest = record.start_digest(())  # Apokalypse: nothing happens before the first turn
    for _s, action, events in random_game(n, seed):
        actions.append(str(action))
        digest.add(events)
    again = replay(record)
    assert again.digest == digest.hexdigest()
    assert again.state.is_over


@GAMES
@given(players, seeds)
def test_every_legal_action_is_accepted_by_the_checked_path(n, seed):
    """The legal list (cached, skips re-checks) and the rule-by-rule checks agree: applying a
    legal action to a clone that has no cached list gives the same events."""
    rng = Rng(seed)
    s = GAME.new_game(Config(players=n), seed)
    while not s.is_over:
        legal = s.legal_actions()
        for action in legal:
            assert parse_action(str(action)) == action  # notation round-trips
        action = legal[rng.below(len(legal))]
        unchecked = s.clone()
        assert unchecked.legal_cache is None
        assert unchecked.apply(action) == s.apply(action)


@GAMES
@given(players, seeds)
def test_first_step_offers_exactly_the_plays_that_have_a_target(n, seed):
    """A play is offered if and only if its second step has a legal target."""
    for s, _, _ in random_game(n, seed):
        if type(s.pending) is not Turn:
            continue
        offered = {(a.code, a.use) for a in s.legal_actions() if a.verb == "play"}
        hand_codes = {s.code(c) for c in s.hands[s.to_act]}
        from apokalypse.games.apokalypse.placement import USES

        for code in hand_codes:
            for use in USES[s.table.kinds_by_code[code].role]:
                has_target = bool(targets(s, code, use))
                if use == "good" and len(s.hands[s.to_act]) < 2:
                    has_target = False  # R-PLAY-4
                assert ((code, use) in offered) == has_target, (code, use)


@GAMES
@given(players, seeds)
def test_illegal_actions_leave_the_state_untouched(n, seed):
    """An action outside the legal list raises IllegalAction and changes nothing."""
    probes = [
        "pass",
        "play violence attack",
        "target p1.good",
        "target p6.evil.heaven.3",
        "give church",
        "to p1",
        "steal p2",
        "defend metal",
        "decline",
    ]
    rng = Rng(seed)
    for s, _, _ in random_game(n, seed):
        if s.is_over or rng.below(4):
            continue
        legal = {str(a) for a in s.legal_actions()}
        before = (s.observation(None), [h[:] for h in s.hands], s.pending, s.rng.state)
        for text in probes:
            if text in legal:
                continue
            try:
                s.apply(parse_action(text))
            except IllegalAction as exc:
                assert exc.rule.startswith(("R-", "D-", "V-"))
            else:
                raise AssertionError(f"{text!r} was accepted but not listed as legal")
            after = (s.observation(None), [h[:] for h in s.hands], s.pending, s.rng.state)
            assert after == before


def hidden_swap(s: State, player: int, rng: Rng) -> State | None:
    """Swap a card the player cannot see (another hand, a deck) with another unseen card of
    the same back; None if no such pair exists."""
    t = s.clone()
    known = s.knowledge[player]  # (holder, code) → copies the player can place there
    places = []
    for q, h in enumerate(t.hands):
        if q != player:
            places += [(h, i) for i, c in enumerate(h) if (q, t.code(c)) not in known]
    for pile in t.own_decks():
        places += [(pile, i) for i, c in enumerate(pile) if t.table.kind[c].role != "horseman"]
    # D-INFO-1: the fronts of dead populaces lying face down in the discard pile
    hidden = [(t.discards[0], i) for i, c in enumerate(t.discards[0]) if c in t.face_down]
    places += hidden
    rng.shuffle(places)
    for a in range(len(places)):
        for b in range(a + 1, min(len(places), a + 8)):
            (ra, ia), (rb, ib) = places[a], places[b]
            ka, kb = t.table.kind[ra[ia]], t.table.kind[rb[ib]]
            if ka.back == kb.back and ka.code != kb.code:
                ra[ia], rb[ib] = rb[ib], ra[ia]
                t.face_down = {row[i] for row, i in hidden}  # the place lies face down
                return t
    return None


@GAMES
@given(players, seeds)
def test_observation_never_shows_what_the_player_cannot_know(n, seed):
    """R-INFO-2/3: swapping unseen cards (other hands, deck order) never changes what a player
    observes; only the asked player learns of a defence window."""
    rng = Rng(seed)
    for s, _, events in random_game(n, seed):
        if rng.below(5):
            continue
        player = rng.below(n)
        other = hidden_swap(s, player, rng)
        if other is not None:
            assert other.observation(player) == s.observation(player)
        for event in events:
            view = event.view(player)
            if event.secret is not None and player not in event.seen_by:
                assert not set(event.secret) & set(view.args)


@GAMES
@given(players, seeds)
def test_determinize_keeps_what_the_player_sees_and_can_be_played_on(n, seed):
    rng = Rng(seed)
    for s, _, _ in random_game(n, seed):
        if s.is_over or rng.below(10):
            continue
        player = s.to_act
        world = s.determinize(player, Rng(rng.next64()))
        assert world.observation(player) == s.observation(player)
        cards = all_cards(world)
        assert sorted(cards) == sorted(all_cards(s))
        if isinstance(s.pending, ChooseTarget):
            assert world.legal_actions() == s.legal_actions()
        play_rng = Rng(seed)  # the sampled world plays on to a legal end
        steps = 0
        while not world.is_over and steps < 200:
            legal = world.legal_actions()
            world.apply(legal[play_rng.below(len(legal))])
            steps += 1


def test_determinize_changes_hidden_information():
    """A determinized world is a different world where the player cannot see."""
    s = GAME.new_game(Config(players=4), 11)
    worlds = [s.determinize(0, Rng(i)) for i in range(5)]
    assert any(w.hands[1] != s.hands[1] or w.decks != s.decks for w in worlds)
    assert all(w.hands[0] == s.hands[0] for w in worlds)
    assert all(w.ethos[0] == s.ethos[0] for w in worlds)


@GAMES
@given(st.integers(min_value=3, max_value=6), seeds)
def test_r_attack_4_a_defence_window_shows_nobody_else_whose_turn_it_is(n, seed):
    """Only the asked player learns that they are asked: while one player declines and the next
    is asked, every other view (the move counter included) stays exactly the same."""
    for s, _, _ in random_game(n, seed):
        p = s.pending
        if type(p) is not Defence or not p.waiting:
            continue
        asked = (p.player, p.waiting[0])
        before = {q: s.observation(q) for q in (None, *range(n)) if q not in asked}
        after = s.clone()
        after.apply(parse_action("decline"))
        for q, obs in before.items():
            assert after.observation(q) == obs, f"seen by {q}"
