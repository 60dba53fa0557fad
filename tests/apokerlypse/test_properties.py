"""Property tests over random games of 2–4 players, plain and example content.

After every step: no exception, chips conserved (players + pot + bank == 48), every card in
exactly one place, at most 49 rounds. At the end: a replay of the record reproduces every event.
Secrecy: swapping cards a player cannot see never changes their observation, and no observation
names a card in another hand that its seat does not know; determinize keeps the observation.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event
from apokalypse.engine.record import GameRecord, replay
from apokalypse.engine.rng import Rng
from apokalypse.games.apokerlypse import GAME, Action, Config, State, parse_action
from apokalypse.games.apokerlypse.cards import CODES, FACTIONS
from apokalypse.games.apokerlypse.knowledge import record
from apokalypse.games.apokerlypse.pending import Window
from tests.apokerlypse.builders import all_cards, chips_total
from tests.helpers import snapshot


def _every_card_content() -> str:
    """Pathological content: every card has an effect, every kind, every timing, strong
    abilities and four action chips each — the engine's limits must still hold."""
    kinds = [
        ("category-up", "steps = 2"),
        ("set-suit", "to = 'h'"),
        ("set-rank", "to = 'A'"),
        ("multiplier", "factor = 3"),
        ("counts-double", ""),
        ("block", ""),
        ("gain", "amount = 5\nwho = 'all'"),
        ("lose", "amount = 3\nwho = 'others'"),
        ("lose", "amount = 2"),
        ("take", "count = 3"),
        ("give", "count = 3"),
        ("swap", ""),
        ("peek", ""),
        ("hand-limit", "extra = 2"),
        ("gain", "amount = 1\nwho = 'one'"),
    ]
    timings = ("draw", "discard", "final", "any")
    parts = ['[content]\nname = "every-card"\n']
    for c, code in enumerate(CODES):
        kind, params = kinds[c % len(kinds)]
        timing = "any" if kind == "block" else timings[(c // len(kinds) + c) % 4]
        parts.append(f"[card.{code}]\ntiming = '{timing}'\nkind = '{kind}'\n{params}\n")
    abilities = (
        "{ timing = 'any', kind = 'take', count = 2 }",
        "{ timing = 'any', kind = 'give', count = 2 }",
        "{ timing = 'final', kind = 'multiplier', factor = 2 }",
        "{ timing = 'any', kind = 'peek' }",
    )
    for name, ability in zip(FACTIONS, abilities, strict=True):
        parts.append(f"[faction.{name}]\naction_chips = [4, 4, 4]\nability = {ability}\n")
    return "\n".join(parts)


EVERY_CARD = _every_card_content()
GAMES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
players = st.integers(min_value=2, max_value=4)
seeds = st.integers(min_value=0, max_value=2**32)
contents = st.sampled_from(["plain", "example", EVERY_CARD])
MAX_ROUNDS = 49  # the "nobody can pay" end: cost 49 exceeds all 48 chips


def config(n: int, content: str, seed: int = 0) -> Config:
    return Config(
        players=n, content=content, table=("full", "short")[seed & 1], bonus_cap=bool(seed & 2)
    )


def random_game(n: int, seed: int, content: str) -> Iterator[tuple[State, Action, list[Event]]]:
    s = GAME.new_game(config(n, content, seed), seed)
    rng = Rng(seed ^ 0x5EED)
    while not s.is_over:
        legal = s.legal_actions()
        action = legal[rng.below(len(legal))]
        events = s.apply(action)
        yield s, action, events


@GAMES
@given(players, seeds, contents)
def test_random_games_conserve_chips_and_cards(n: int, seed: int, content: str) -> None:
    steps = 0
    for s, _, _ in random_game(n, seed, content):
        assert chips_total(s) == 48
        assert min(s.chips) >= 0 and s.pot >= 0 and s.bank >= 0
        assert sorted(all_cards(s)) == list(range(52))
        assert s.round <= MAX_ROUNDS
        steps += 1
    assert steps > 0 and s.result is not None
    assert s.result.winners and max(s.chips) == s.chips[s.result.winners[0]]


@GAMES
@given(players, seeds, contents)
def test_replaying_a_record_reproduces_every_event(n: int, seed: int, content: str) -> None:
    actions: list[str] = []
    record = GameRecord(
        "apokerlypse", GAME.version, config(n, content, seed).to_json(), seed, actions
    )
    # the deal and round 1's payments and draws come first (record format 3)
    digest = record.start_digest(GAME.new_game(config(n, content, seed), seed).opening)
    for _, action, events in random_game(n, seed, content):
        actions.append(str(action))
        digest.add(events)
        for event in events:
            json.dumps(event.view(None).to_json())
    again = replay(record)
    assert again.digest == digest.hexdigest()
    assert again.state.is_over


@GAMES
@given(players, seeds, contents)
def test_legal_actions_round_trip_and_agree_with_the_checked_path(
    n: int, seed: int, content: str
) -> None:
    """An action from the legal list (cached) and the same action checked afresh on a clone
    give identical events."""
    rng = Rng(seed)
    s = GAME.new_game(config(n, content, seed), seed)
    while not s.is_over:
        legal = s.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        for action in legal:
            assert parse_action(str(action)) == action
        action = legal[rng.below(len(legal))]
        unchecked = s.clone()
        assert unchecked.apply(action) == s.apply(action)


PROBES = [
    "pay",
    "stand",
    "drop",
    "done",
    "ability",
    "allow",
    "discard As",
    "use 7h",
    "block 7s",
    "give 2c",
    "swap 2c",
    "target p1",
    "target p4",
]


@GAMES
@given(players, seeds, contents)
def test_illegal_actions_name_a_rule_and_leave_the_state_untouched(
    n: int, seed: int, content: str
) -> None:
    rng = Rng(seed)
    for s, _, _ in random_game(n, seed, content):
        if s.is_over or rng.below(4):
            continue
        legal = {str(a) for a in s.legal_actions()}
        before = snapshot(s)
        for text in PROBES:
            if text in legal:
                continue
            try:
                s.apply(parse_action(text))
            except IllegalAction as exc:
                assert exc.rule.startswith(("K-", "KD-", "KV-")), exc
            else:
                raise AssertionError(f"{text!r} was accepted but not listed as legal")
            assert snapshot(s) == before


def unseen_places(s: State, player: int) -> list[tuple[list[int], int]]:
    """Places of cards the player knows nothing about: other hands, the draw pile."""
    known, maybe = record(s, player)
    places = [
        (hand, i)
        for q, hand in enumerate(s.hands)
        if q != player
        for i, card in enumerate(hand)
        if card not in known and card not in maybe
    ]
    return places + [(s.pile, i) for i in range(len(s.pile))]


def hidden_swap(s: State, player: int, rng: Rng) -> State | None:
    """Swap two cards the player cannot see (other hands, the draw pile)."""
    t = s.clone()
    places = unseen_places(t, player)
    if len(places) < 2:
        return None
    a, b = rng.below(len(places)), rng.below(len(places))
    if a == b:
        return None
    (ra, ia), (rb, ib) = places[a], places[b]
    ra[ia], rb[ib] = rb[ib], ra[ia]
    return t


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value} if value in CODES else set()
    if isinstance(value, dict):
        return set().union(*(card_codes(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_codes(v) for v in value)) if value else set()
    return set()


@GAMES
@given(players, seeds, contents)
def test_observation_never_shows_what_the_player_cannot_know(
    n: int, seed: int, content: str
) -> None:
    rng = Rng(seed)
    for s, _, events in random_game(n, seed, content):
        for event in events:
            for player in range(n):
                view = event.view(player)
                if event.secret is not None and player not in event.seen_by:
                    assert not set(event.secret) & set(view.args)
        if rng.below(3):
            continue
        for player in [*range(n), None]:
            obs = s.observation(player)
            json.dumps(obs)
            known, maybe = record(s, player)
            for q, hand in enumerate(s.hands):
                if q == player:
                    continue
                hidden = {CODES[c] for c in hand if known.get(c) != q and q not in maybe.get(c, ())}
                assert not hidden & card_codes(obs), (player, q, hidden & card_codes(obs))
            if player is not None:
                other = hidden_swap(s, player, rng)
                if other is not None:
                    assert other.observation(player) == obs


@GAMES
@given(players, seeds, contents)
def test_determinize_keeps_what_the_player_sees_and_plays_on(
    n: int, seed: int, content: str
) -> None:
    rng = Rng(seed)
    for s, _, _ in random_game(n, seed, content):
        if s.is_over or rng.below(8):
            continue
        player = s.to_act
        world = s.determinize(player, Rng(rng.next64()))
        assert world.observation(player) == s.observation(player)
        known, maybe = record(s, player)  # the world agrees with all the player knows
        assert all(card in world.hands[q] for card, q in known.items())
        assert all(any(card in world.hands[q] for q in qs) for card, qs in maybe.items())
        assert sorted(all_cards(world)) == list(range(52))
        assert world.legal_actions() == s.legal_actions()  # the decider's choices are theirs
        assert world.rng.state != s.rng.state
        play = Rng(seed)
        steps = 0
        while not world.is_over and steps < 300:
            legal = world.legal_actions()
            world.apply(legal[play.below(len(legal))])
            steps += 1


def test_determinize_changes_hidden_information() -> None:
    s = GAME.new_game(Config(players=4), 11)
    worlds = [s.determinize(0, Rng(i)) for i in range(5)]
    assert any(w.hands[1] != s.hands[1] or w.pile != s.pile for w in worlds)
    assert all(w.hands[0] == s.hands[0] for w in worlds)


@pytest.mark.parametrize("seat", [-1, 2, True, "0"])
def test_observation_of_a_seat_that_does_not_exist_is_refused(seat: object) -> None:
    """``observation(-1)`` (the ``to_act`` of a finished game) once showed the last seat's hand."""
    from apokalypse.engine.errors import ProtocolError

    s = GAME.new_game(Config(players=2), 5)
    with pytest.raises(ProtocolError):
        s.observation(seat)  # the State takes any object here and refuses it itself
    with pytest.raises(ProtocolError):
        s.determinize(seat, Rng(1))


@GAMES
@given(st.integers(min_value=3, max_value=4), seeds, st.sampled_from(["example", EVERY_CARD]))
def test_a_block_window_shows_nobody_else_whose_turn_it_is(n: int, seed: int, content: str):
    """Only the asked player learns that they are asked (as in Apokalypse's R-ATTACK-4): while
    one player allows and the next is asked, every other view stays exactly the same."""
    s = GAME.new_game(config(n, content, seed), seed)
    rng = Rng(seed)
    while not s.is_over:
        legal = s.legal_actions()
        action = legal[rng.below(len(legal))]
        top = s.pending
        if type(top) is Window and top.waiting and str(action) == "allow":
            asked = (top.player, top.waiting[0])
            before = {q: s.observation(q) for q in (None, *range(n)) if q not in asked}
            s.apply(action)
            for q, obs in before.items():
                assert s.observation(q) == obs, f"seen by {q}"
                assert obs["to_act"] is None
            continue
        s.apply(action)
