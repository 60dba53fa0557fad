"""Dealing at the end of a round (R-DEAL, D-DEAL-1, D-DEAL-2) and refilling the decks
(R-REFILL-1)."""

from __future__ import annotations

from collections import Counter

from apokalypse.games.apokalypse.cards import HORSEMAN
from apokalypse.games.apokalypse.dealing import CAPITAL, POPULATION, above_next, serving_slots
from apokalypse.games.apokalypse.pending import Turn
from tests.apokalypse.builders import (
    act,
    all_cards,
    blank,
    deal_order,
    hand,
    kinds,
    populaces,
    put,
    stack,
)


def _end_round(s, first_passer: int):
    """Everybody passes, ``first_passer`` first; returns the events of the last pass."""
    s.pending = Turn(first_passer)
    events = []
    for i in range(s.n - 1):
        assert s.pending == Turn((first_passer + i) % s.n)
        events = act(s, "pass")
    return events


def _horseman_at(s, deck: int) -> int:
    """How many cards are drawn before a horseman comes from ``deck``."""
    return above_next(s, deck)


# --- R-DEAL-1: what each populace earns ---------------------------------------------------------


def test_r_deal_1_basic_populaces_earn_one_b_and_one_k_each():
    s = blank(3)
    events = _end_round(s, 0)
    assert deal_order(events, "B") == [0, 1, 2]
    assert deal_order(events, "K") == [0, 1, 2]
    assert [len(h) for h in s.hands] == [2, 2, 2]


def test_r_deal_1_good_populace_earns_b_evil_populace_earns_k():
    s = blank(2)
    populaces(s, 0, good=2, evil=1)
    events = _end_round(s, 0)
    assert Counter(deal_order(events, "B")) == {0: 3, 1: 1}
    assert Counter(deal_order(events, "K")) == {0: 2, 1: 1}
    backs = Counter(s.table.kind[c].back for c in s.hands[0])
    assert backs == {"B": 3, "K": 2}


def test_r_deal_1_modifiers_add_and_remove_cards():
    """Piety +1B, Chastity −1B on the good side; Drugs +1K, Gambling −1K on the evil side."""
    s = blank(2)
    put(s, 0, "good", "earth", "pop", "pop")
    put(s, 0, "good", "heaven", "m/hp", "m/hp")
    put(s, 0, "good", "nether", "piety/gambling", "chastity/sex")
    put(s, 0, "evil", "earth", "pop", "pop")
    put(s, 0, "evil", "nether", "job/drugs", "piety/gambling")
    assert serving_slots(s, 0, POPULATION) == [1, 2, 0]
    assert serving_slots(s, 0, CAPITAL) == [1, 2, 0]
    events = _end_round(s, 1)
    assert deal_order(events, "B").count(0) == 3
    assert deal_order(events, "K").count(0) == 3


def test_r_deal_1_modifiers_never_go_below_zero():
    s = blank(2)
    put(s, 0, "good", "earth", "pop")
    put(s, 0, "good", "heaven", "m/hp")
    put(s, 0, "good", "nether", "chastity/sex")
    put(s, 0, "evil", "earth", "pop")
    put(s, 0, "evil", "nether", "piety/gambling")
    assert serving_slots(s, 0, POPULATION) == [1, 0]
    assert serving_slots(s, 0, CAPITAL) == [1, 0]
    events = _end_round(s, 0)
    assert deal_order(events, "B") == [0, 1]
    assert deal_order(events, "K") == [0, 1]


# --- R-DEAL-2 / R-DEAL-4: the exact order ---------------------------------------------------------


def test_r_deal_2_population_dealing_order_from_the_new_startup_player():
    """Basic good populaces clockwise from the first passer, then every first good populace,
    then every second, one card at a time."""
    s = blank(3)
    populaces(s, 0, good=2)
    populaces(s, 2, good=1)
    events = _end_round(s, 1)
    assert s.startup == 1
    assert deal_order(events, "B") == [1, 2, 0, 2, 0, 0]


def test_r_deal_4_capital_dealing_same_order_over_the_evil_side():
    s = blank(3)
    populaces(s, 0, evil=1)
    populaces(s, 1, evil=2)
    events = _end_round(s, 1)
    assert deal_order(events, "K") == [1, 2, 0, 1, 0, 1]


def test_r_deal_4_capital_dealing_comes_after_population_dealing():
    s = blank(2)
    populaces(s, 0, good=1, evil=1)
    events = _end_round(s, 0)
    backs = [e.args["back"] for e in events if e.kind == "deal"]
    assert backs == ["B", "B", "B", "K", "K", "K"]


def test_d_deal_1_extra_b_card_right_after_its_own_and_sex_after_the_good_populaces():
    """Piety at good position 0 gives its second card at once; Unbridled Sex under an evil
    populace earns a B card after that player's good populaces."""
    s = blank(2)
    put(s, 0, "good", "earth", "pop", "pop")
    put(s, 0, "good", "heaven", "m/hp")
    put(s, 0, "good", "nether", "piety/gambling")
    put(s, 0, "evil", "earth", "pop")
    put(s, 0, "evil", "nether", "chastity/sex")
    populaces(s, 1, good=2)
    assert serving_slots(s, 0, POPULATION) == [1, 2, 1, 1]
    events = _end_round(s, 0)
    # basic: 0, 1 | first good: 0, 0 (piety), 1 | second good: 0, 1 | Sex: 0
    assert deal_order(events, "B") == [0, 1, 0, 0, 1, 0, 1, 0]


def test_d_deal_2_job_earns_a_k_card_after_that_players_evil_populaces():
    s = blank(2)
    put(s, 1, "good", "earth", "pop")
    put(s, 1, "good", "heaven", "m/hp")
    put(s, 1, "good", "nether", "job/drugs")
    populaces(s, 1, evil=1)
    put(s, 0, "evil", "earth", "pop", "pop")
    put(s, 0, "evil", "nether", "job/drugs")  # Drugs: +1K right after its own card
    assert serving_slots(s, 1, CAPITAL) == [1, 1, 1]
    events = _end_round(s, 0)
    # basic: 0, 1 | first evil: 0, 0 (Drugs), 1 | second evil: 0 | Job: 1
    assert deal_order(events, "K") == [0, 1, 0, 0, 1, 0, 1]


# --- R-DEAL-3 / R-DEAL-4 / R-DEAL-5: horsemen stop the dealing ----------------------------------


def test_r_deal_3_a_horseman_stops_population_dealing_at_once():
    s = blank(3)
    populaces(s, 0, good=1)
    populaces(s, 1, good=1)
    stack(s, "B", "m/hp", "h/mp", "p/mh", "horseman1")
    events = _end_round(s, 0)
    assert deal_order(events, "B") == [0, 1, 2]  # the good populaces get nothing
    horse = [e.args for e in events if e.kind == "horseman"]
    assert horse == [{"number": 1, "deck": "B"}]


def test_r_deal_4_capital_dealing_follows_after_a_horseman_in_the_b_deck():
    s = blank(3)
    populaces(s, 1, evil=1)
    stack(s, "B", "horseman1")
    events = _end_round(s, 0)
    assert deal_order(events, "B") == []
    assert deal_order(events, "K") == [0, 1, 2, 1]


def test_r_deal_4_capital_dealing_stops_at_once_at_a_horseman():
    s = blank(3)
    populaces(s, 0, evil=2)
    stack(s, "K", "violence", "ethos", "church", "mask", "horseman1")
    events = _end_round(s, 0)
    assert deal_order(events, "B") == [0, 1, 2]
    assert deal_order(events, "K") == [0, 1, 2, 0]
    assert [e.args for e in events if e.kind == "horseman"] == [{"number": 1, "deck": "K"}]


def test_r_deal_5_horseman_resolved_after_dealing_and_rides_once_from_both_decks():
    s = blank(3)
    populaces(s, 0, good=1, evil=1)
    stack(s, "B", "m/hp", "horseman1")
    stack(s, "K", "violence", "horseman1")
    events = _end_round(s, 0)
    order = kinds(events)
    assert order.count("horseman") == 2
    assert order.count("ride") == 1
    assert order.index("ride") > max(i for i, k in enumerate(order) if k in ("deal", "horseman"))
    assert len(s.scores) == 1
    assert s.horseman == 2


def test_r_deal_5_no_horseman_no_ride_and_a_new_round_starts():
    s = blank(3)
    populaces(s, 2, good=1)
    events = _end_round(s, 2)
    assert "ride" not in kinds(events)
    assert s.scores == []
    assert s.pending == Turn(2)
    assert kinds(events)[-1] == "round-start"


def test_r_deal_2_cards_come_off_the_top_one_at_a_time_and_are_conserved():
    s = blank(2)
    populaces(s, 0, good=1)
    stack(s, "B", "p/mh", "mp/h", "hp/m")
    before = sorted(all_cards(s))
    _end_round(s, 1)
    assert sorted(s.code(c) for c in s.hands[1] if s.table.kind[c].back == "B") == ["p/mh"]
    assert sorted(s.code(c) for c in s.hands[0] if s.table.kind[c].back == "B") == [
        "hp/m",
        "mp/h",
    ]
    assert sorted(all_cards(s)) == before


# --- R-REFILL-1 -------------------------------------------------------------------------------


def _pile_split(s, deck: int, number: int) -> tuple[list[int], list[int]]:
    """(cards from the bottom up to and including horseman ``number``, cards above it)."""
    pile = s.decks[deck]
    kinds_ = s.table.kind
    at = next(
        i for i, c in enumerate(pile) if kinds_[c].role == HORSEMAN and kinds_[c].horseman == number
    )
    return pile[: at + 1], pile[at + 1 :]


def test_r_refill_1_above_next_horseman_shuffled_with_discards_current_copy_set_aside():
    s = blank(4)  # four tied players: nobody takes a horseman card from the supply
    hand(s, 1, "mask")
    s.discard(s.hands[1].pop())
    stack(s, "B", "horseman1")
    b_keep, b_above = _pile_split(s, 0, 2)
    k_keep, k_above = _pile_split(s, 1, 2)
    k_h1 = next(c for c in k_above if s.table.kind[c].role == HORSEMAN)
    b_expect = Counter(c for c in b_above if s.table.kind[c].role != HORSEMAN)
    b_expect += Counter(s.discards[0])
    k_discard = Counter(s.discards[1])
    held = Counter(c for h in s.hands for c in h)
    events = _end_round(s, 0)
    dealt = Counter(c for h in s.hands for c in h) - held
    assert "refill" in kinds(events)
    # R-REFILL-1: the copy of horseman 1 still in the K deck is set aside.
    assert k_h1 in s.horse_supply
    assert all(s.table.kind[c].horseman != 1 for d in s.decks for c in d)
    # Below (and including) the next horseman nothing moves.
    assert _pile_split(s, 0, 2)[0] == b_keep
    assert _pile_split(s, 1, 2)[0] == k_keep
    # Above it: the old cards above it (minus those dealt) and the whole discard pile.
    k_expect = Counter(c for c in k_above if c != k_h1) - dealt + k_discard
    assert Counter(_pile_split(s, 0, 2)[1]) == b_expect
    assert Counter(_pile_split(s, 1, 2)[1]) == k_expect
    assert s.discards == [[], []]
    assert events[[e.kind for e in events].index("refill")].args["above"] == [
        sum(b_expect.values()),
        sum(k_expect.values()),
    ]


def test_r_refill_1_next_horseman_comes_after_the_refilled_cards():
    s = blank(2)
    stack(s, "B", "horseman1")
    _end_round(s, 0)
    assert s.horseman == 2
    for deck in (0, 1):
        pile = s.decks[deck]
        top = pile[len(pile) - 1 - _horseman_at(s, deck) :]
        assert [s.table.kind[c].horseman for c in top[:1]] == [2]
        assert all(s.table.kind[c].role != HORSEMAN for c in top[1:])
