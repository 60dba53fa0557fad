"""The collector (:mod:`apokalypse.sim.collect`) against real games between computer players.

Each check compares the collected rows with a second source that the collector never reads:
the result, the actions each seat took (their notation, ``actions.py``), the state at the end,
or the per-side reckoning of the "shelter" events. Rule ids are those of docs/rules/*.md.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apokalypse.bots import make_bot, seat_seed
from apokalypse.engine.events import Event
from apokalypse.engine.match import Match
from apokalypse.engine.registry import get_game
from apokalypse.games.apokerlypse.cards import CODES
from apokalypse.sim.collect import Collector, collector_for
from apokalypse.sim.collect.apokalypse import ApokalypseCollector
from apokalypse.sim.collect.apokerlypse import ApokerlypseCollector
from apokalypse.sim.schema import GAME_COMMON, PLAYER_COMMON, joined
from tests.apokerlypse.builders import follow_hand

Row = dict[str, Any]


@dataclass
class Played:
    """A game played to its end with the collector fed as the runner feeds it."""

    state: Any  # the game's own State, at the end
    game: Row
    players: list[Row]
    moves: list[tuple[int, str]]  # (seat, action text) in order
    events: list[Event]
    dealt: Any  # the state's ethos at the deal (Apokalypse)


def play(
    game_name: str, players: int, seed: int, bot: str = "random", variants: tuple[str, ...] = ()
) -> Played:
    game = get_game(game_name)
    state = game.new_game(game.config_from_options(players, list(variants), None), seed)
    dealt = getattr(state, "ethos", None)
    bots = {q: make_bot(bot, seat_seed(seed, q), game_name) for q in range(players)}
    match: Match[Any, Any] = Match(state, bots)
    collector = collector_for(game_name)(state)
    events = match.start()
    collector.add(events)
    moves: list[tuple[int, str]] = []
    while not match.state.is_over:
        seat = match.state.to_act
        action, new = match.play_turn()
        moves.append((seat, str(action)))
        events += new
        collector.add(new)
    game_row, player_rows = collector.finish(match.state)
    return Played(match.state, game_row, player_rows, moves, events, dealt)


# --- Apokalypse -------------------------------------------------------------------------------


def check_apokalypse(p: Played) -> None:
    """Every invariant of an Apokalypse game's rows (the property test runs them all)."""
    check_schemas(p, ApokalypseCollector)
    check_totals(p)
    check_result(p)
    check_deaths(p)
    check_played(p)
    check_attacks(p)
    check_horseman_rounds(p)


def check_schemas(p: Played, collector: type[Collector]) -> None:
    pa.Table.from_pylist([p.game], schema=collector.game_schema)
    pa.Table.from_pylist(p.players, schema=collector.player_schema)
    assert list(p.game) == collector.game_schema.names
    assert all(list(row) == collector.player_schema.names for row in p.players)
    assert len(p.players) == p.state.config.players


def check_totals(p: Played) -> None:
    """R-END-2: a total is the reckoning scores plus the horseman cards' points."""
    result = p.state.result
    for seat, row in enumerate(p.players):
        reckonings = [row[f"reckoning{k}"] for k in (1, 2, 3, 4)]
        assert None not in reckonings  # a finished game had all four reckonings (R-END-1)
        assert row["total"] == sum(reckonings) + row["horseman_vp"] == result.totals[seat]
        assert row["horseman_cards"] <= 4
        assert row["horseman_vp"] >= row["horseman_cards"]  # 1, 2, 4 or 7 points each


def check_result(p: Played) -> None:
    """The result's ethos and case; the ethos dealt (R-SETUP-3) is the final one."""
    view = p.state.result.view()
    assert [row["ethos"] for row in p.players] == view["ethos"]
    assert [row["ethos_dealt"] for row in p.players] == [
        "good" if e == 0 else "evil" for e in p.dealt
    ]
    assert p.game["case"] == view["case"]
    assert p.game["good_seats"] == view["ethos"].count("good") == p.game["good_seats_dealt"]
    assert p.game["good_seats"] + p.game["evil_seats"] == len(p.players)
    assert p.game["good_populaces"] == view["good_populaces"]
    # R-END-4/5/6, from the collected columns alone
    totals = [row["total"] for row in p.players]
    evil = [seat for seat, row in enumerate(p.players) if row["ethos"] == "evil"]
    good = [seat for seat, row in enumerate(p.players) if row["ethos"] == "good"]
    winners = view["winners"]
    if p.game["case"] == "good":  # R-END-4: the good players win together
        assert winners == good
        assert p.game["good_populaces"] > p.game["evil_populaces"]
    elif p.game["case"] == "evil":  # R-END-5: the best evil total wins (D-END-1: ties share)
        assert winners == [q for q in evil if totals[q] == max(totals[e] for e in evil)]
        assert p.game["good_populaces"] <= p.game["evil_populaces"]
    elif p.game["case"] == "shared-ethos":  # R-END-6
        assert not good or not evil
        assert winners == [q for q, total in enumerate(totals) if total == max(totals)]
    else:
        assert winners == []
    starters = [seat for seat, row in enumerate(p.players) if row["startup"]]
    assert starters == [p.game["startup"]]  # R-SETUP-6: one first startup player


def check_deaths(p: Played) -> None:
    """R-HORSE-3: deaths per horseman and seat agree with each side's reckoning ("shelter")."""
    expected: Counter[tuple[int, int]] = Counter()
    number = 0
    for event in p.events:
        if event.kind == "ride":
            number = event.args["number"]
        elif event.kind == "shelter":  # [populaces, protection, passed, dead] per side
            dead = event.args["good"][3] + event.args["evil"][3]
            expected[number, event.args["seat"]] += dead
    for k in (1, 2, 3, 4):
        per_seat = [row[f"deaths{k}"] for row in p.players]
        assert per_seat == [expected[k, seat] for seat in range(len(p.players))]
        assert p.game[f"deaths{k}"] == sum(per_seat)


PLAYED_ROLES = [
    "played_protection",
    "played_metal",
    "played_dual",
    "played_icon",
    "played_saint",
    "played_fiend",
    "played_church",
    "played_violence",
    "played_ethos_change",
]


def check_played(p: Played) -> None:
    """Cards played from hand, by code and by use, against each seat's own actions: one card
    leaves the hand per ``play CODE USE`` and per ``defend CODE`` (actions.py)."""
    assert not any(text == "back" for _, text in p.moves)  # computer players never take back
    for seat, row in enumerate(p.players):
        texts = [text.split() for q, text in p.moves if q == seat]
        codes = Counter(t[1] for t in texts if t[0] in ("play", "defend"))
        uses = Counter(t[2] for t in texts if t[0] == "play")
        verbs = Counter(t[0] for t in texts)
        assert row["played"] == dict(codes)
        assert sum(row[c] for c in PLAYED_ROLES) == sum(row["played"].values()) == codes.total()
        assert row["populaces_good"] == uses["good"]  # R-PLAY-3
        assert row["populaces_evil"] == uses["evil"]
        assert row["heaven"] == uses["heaven"]  # R-PLAY-7, replacing included
        assert row["nether"] == uses["nether"]  # R-PLAY-11
        assert row["neutralised"] == uses["neutralise"]  # R-PLAY-15
        assert row["attacks"] == uses["attack"]  # R-ATTACK-1
        assert row["defences"] == verbs["defend"]  # R-ATTACK-4
        assert row["gifts"] == verbs["give"]  # R-PLAY-4
        assert row["steals"] == verbs["steal"]  # R-PLAY-5
        assert row["passes"] == verbs["pass"]  # R-TURN-1


def check_attacks(p: Played) -> None:
    """R-ATTACK-2/3/4: every attack is stopped by a defence, kills, or converts."""
    for row in p.players:
        assert row["attacks"] == row["attacks_stopped"] + row["kills"] + row["conversions"]
        assert row["played_violence"] + row["played_ethos_change"] >= row["attacks"]
    assert p.game["attacks"] == sum(row["attacks"] for row in p.players)
    assert p.game["defended"] == sum(row["defences"] for row in p.players)
    assert p.game["conversions"] == sum(row["conversions"] for row in p.players)


def check_horseman_rounds(p: Played) -> None:
    """R-HORSE: the horsemen ride in order; the game ends in the round of the fourth (R-END-1)."""
    rounds = [p.game[f"horseman{k}_round"] for k in (1, 2, 3, 4)]
    assert None not in rounds
    assert rounds == sorted(rounds)
    assert rounds[0] >= 1
    assert rounds[3] == p.game["rounds"] == p.state.round


@functools.cache
def games() -> tuple[Played, ...]:
    """Random games at every player count, and heuristic ones (they play other cards)."""
    randoms = [play("apokalypse", players, players) for players in (2, 3, 4, 5, 6)]
    return (*randoms, *(play("apokalypse", 4, seed, bot="heuristic") for seed in (5, 6)))


def test_rows_fit_the_schemas() -> None:
    for p in games():
        check_schemas(p, ApokalypseCollector)


def test_r_end_2_total_is_the_reckonings_plus_the_horseman_cards() -> None:
    for p in games():
        check_totals(p)


def test_r_end_4_5_6_ethos_case_and_winners_agree_with_the_result() -> None:
    for p in games():
        check_result(p)


def test_r_horse_3_deaths_per_horseman_agree_with_each_reckoning() -> None:
    for p in games():
        check_deaths(p)


def test_r_play_cards_played_from_hand_are_the_seat_s_play_and_defend_actions() -> None:
    for p in games():
        check_played(p)


def test_r_attack_2_3_4_every_attack_is_stopped_kills_or_converts() -> None:
    for p in games():
        check_attacks(p)


def test_r_end_1_horsemen_ride_in_order_and_the_fourth_ends_the_game() -> None:
    for p in games():
        check_horseman_rounds(p)


def test_r_end_6_shared_ethos_case_and_variants() -> None:
    """2 players, balanced ethos off: some seed deals both players one ethos (R-END-6)."""
    cases = set()
    for seed in range(12):
        p = play("apokalypse", 2, seed, variants=("V-EDITION-2008",))
        check_apokalypse(p)
        cases.add(p.game["case"])
        if p.game["good_seats"] in (0, 2):  # the 2008 text: no majority needed
            assert p.game["case"] == "shared-ethos"
    assert "shared-ethos" in cases and len(cases) >= 2


VARIANTS = ["V-ETHOS-BALANCED", "V-ETHOS-ORPHANS", "V-GOOD-TEAM", "V-EDITION-2008"]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(2, 6),
    variants=st.sets(st.sampled_from(VARIANTS), max_size=2),
)
def test_property_every_invariant_over_seeds_player_counts_and_variants(
    seed: int, players: int, variants: set[str]
) -> None:
    check_apokalypse(play("apokalypse", players, seed, variants=tuple(sorted(variants))))


def test_schemas_join_the_common_columns_without_a_clash() -> None:
    for collector in (ApokalypseCollector, ApokerlypseCollector):
        for common, own in (
            (GAME_COMMON, collector.game_schema),
            (PLAYER_COMMON, collector.player_schema),
        ):
            names = joined(common, own).names
            assert len(names) == len(set(names))
            assert all(field.nullable for field in own)


def test_apokalypse_columns_are_those_of_the_spec() -> None:
    game = ApokalypseCollector.game_schema
    assert game.field("good_seats_dealt").type == pa.int8()
    assert game.field("horseman4_round").type == pa.int16()
    player = ApokalypseCollector.player_schema
    assert player.field("played").type == pa.map_(pa.string(), pa.int16())
    assert player.field("seals").type == pa.int8()
    assert player.field("startup").type == pa.bool_()
    assert player.names[-10:] == [*PLAYED_ROLES, "played"]


# --- Apokerlypse ------------------------------------------------------------------------------


def check_apokerlypse(p: Played) -> None:
    """K-SETUP-2, K-SCORE-7, K-END-1: chips add up, pots go to seats, the result agrees."""
    check_schemas(p, ApokerlypseCollector)
    result = p.state.result
    assert p.game["rounds"] == result.rounds == p.state.round
    assert p.game["reason"] == result.reason
    scored = 0
    for seat, row in enumerate(p.players):
        assert row["chips"] == result.chips[seat]
        # every chip that came or went: pots paid into and won, effects (K-SETUP-2: 12 each)
        moved = -row["paid"] + row["chips_won"] + row["gained"] - row["lost"]
        assert row["chips_delta"] == moved == row["chips"] - 12
        assert row["hands_scored"] == sum(row["categories"].values())
        assert (row["best_category"] is None) == (row["hands_scored"] == 0)
        scored += row["hands_scored"]
    assert scored >= p.game["rounds"]  # somebody is scored in every round (K-SCORE-1)
    assert sum(row["pots_won"] for row in p.players) >= p.game["rounds"]
    assert [row["dealer"] for row in p.players].count(True) == 1
    assert p.game["drops"] == sum(row["drops"] for row in p.players)
    drops = Counter(q for q, text in p.moves if text == "drop")
    assert [row["drops"] for row in p.players] == [drops[q] for q in range(len(p.players))]
    check_held_and_abilities(p)


def check_held_and_abilities(p: Played) -> None:
    """K-SCORE-1: the cards held at a final scoring, against each hand followed card by card
    through the whole game (dealt, drawn, discarded, taken, given, swapped: the events' secret
    parts included), and holding the five each scoring counted; K-SCORE-5: each ability used
    is an effect announced without a card, at most one a round."""
    n = len(p.players)
    abilities = [0] * n
    hands: dict[int, set[str]] = {q: set() for q in range(n)}
    held: list[set[str]] = [set() for _ in range(n)]

    for event in p.events:
        args = {**event.args, **(event.secret or {})}
        kind = event.kind
        if follow_hand(hands, event):
            continue
        if kind == "reveal":  # the hands followed agree with the hands shown
            for seat, shown in enumerate(args["hands"]):
                assert shown is None or set(shown) == hands[seat]
        elif kind == "effect" and args["card"] is None:
            abilities[args["seat"]] += 1
        elif kind == "score":
            assert set(args["best"]) <= hands[args["seat"]]
            held[args["seat"]] |= hands[args["seat"]]
    for seat, row in enumerate(p.players):
        assert row["held"] == sorted(held[seat], key=CODES.index)  # each once, in card order
        assert (row["held"] == []) == (row["hands_scored"] == 0)
        assert row["abilities"] == abilities[seat]
        assert 0 <= row["abilities"] <= min(row["effects"], p.game["rounds"])  # KD-SCORE-2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apokerlypse_random_games_add_up(players: int) -> None:
    for seed in range(3):
        check_apokerlypse(play("apokerlypse", players, seed))


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(2, 4),
    variants=st.sets(st.sampled_from(["example-content", "short-table", "bonus-cap"])),
)
def test_apokerlypse_property_chips_add_up(seed: int, players: int, variants: set[str]) -> None:
    check_apokerlypse(play("apokerlypse", players, seed, variants=tuple(sorted(variants))))


def test_apokerlypse_effects_and_heuristic_players() -> None:
    """With the example content, effects move chips (gain/lose) too."""
    effects = 0
    for seed in range(4):
        p = play("apokerlypse", 4, seed, variants=("example-content",))
        check_apokerlypse(p)
        effects += p.game["effects"]
    assert effects > 0
    check_apokerlypse(play("apokerlypse", 3, 9, bot="heuristic"))


def test_apokerlypse_held_cards_and_abilities_with_effects_that_move_cards() -> None:
    """K-SCORE-1, K-SCORE-5, K-SCORE-6: with the example content's take, give and swap after
    the reveal, the collector follows the moved cards to the hand that is scored."""
    moved = abilities = 0
    for seed in range(6):
        p = play("apokerlypse", 4, seed, bot="heuristic", variants=("example-content",))
        check_apokerlypse(p)
        revealed = False
        for event in p.events:
            revealed = event.kind == "reveal" or (revealed and event.kind != "round-start")
            moved += revealed and event.kind in ("take", "give", "swap")
        abilities += sum(row["abilities"] for row in p.players)
    assert moved > 0 and abilities > 0  # the checks above met both


# --- the base collector -----------------------------------------------------------------------


def test_collector_for_each_game_and_the_base_one() -> None:
    assert collector_for("apokalypse") is ApokalypseCollector
    assert collector_for("apokerlypse") is ApokerlypseCollector
    assert collector_for("some-other-game") is Collector
    game = get_game("apokalypse")
    state = game.new_game(game.config_from_options(3, [], None), 1)
    base = Collector(state)
    base.add([Event("pass", {"actor": 0})])
    assert base.finish(state) == ({}, [{}, {}, {}])
    assert len(Collector.game_schema) == len(Collector.player_schema) == 0
    with pytest.raises(TypeError):
        ApokerlypseCollector(state)


# --- through the runner -----------------------------------------------------------------------


@pytest.mark.parametrize(("game_name", "players"), [("apokalypse", 4), ("apokerlypse", 3)])
def test_runner_rows_fit_the_joined_schemas_and_won_is_a_winner(
    game_name: str, players: int
) -> None:
    from apokalypse.sim.runner import Task, run_game

    bots = ("random",) * players
    outcome = run_game(Task(0, 11, players, bots, (), False, game_name, collect=True, run="r"))
    assert outcome.error is None and outcome.rows is not None and outcome.result is not None
    game_row, player_rows = outcome.rows
    collector = collector_for(game_name)
    pa.Table.from_pylist([game_row], schema=joined(GAME_COMMON, collector.game_schema))
    pa.Table.from_pylist(player_rows, schema=joined(PLAYER_COMMON, collector.player_schema))
    winners = outcome.result["winners"]
    assert [row["won"] for row in player_rows] == [q in winners for q in range(players)]
    assert game_row["winners"] == len(winners)
