"""Turns and rounds (R-TURN-1 … R-TURN-5)."""

from __future__ import annotations

from apokalypse.games.apokalypse import State
from apokalypse.games.apokalypse.actions import PASS
from apokalypse.games.apokalypse.pending import Defence, Turn
from tests.apokalypse.builders import act, blank, codes, hand, kinds, populaces, put, row
from tests.helpers import refused


def on_turn(s: State, seat: int) -> bool:
    return type(s.pending) is Turn and s.pending.player == seat


def table_with_good_populaces(players: int, to_act: int = 0) -> State:
    """Every display has two good populaces, so Heaven cards always have a place."""
    s = blank(players, to_act=to_act)
    for seat in range(players):
        populaces(s, seat, good=2)
    return s


def heaven(s: State, seat: int) -> None:
    """The seat on turn plays one Heaven card into its own display."""
    hand(s, seat, "h/mp")
    act(s, "play h/mp heaven", f"target p{seat + 1}.good.heaven")


# --- R-TURN-1 -------------------------------------------------------------------------------


def test_r_turn_1_clockwise_from_the_startup_player() -> None:
    s = table_with_good_populaces(4, to_act=2)
    order = []
    for _ in range(4):
        order.append(s.to_act)
        heaven(s, s.to_act)
    assert order == [2, 3, 0, 1]
    assert on_turn(s, 2)


def test_r_turn_1_exactly_one_card_per_turn_and_no_drawing() -> None:
    s = table_with_good_populaces(4)
    hand(s, 0, "h/mp", "p/mh", "hp/m")
    decks = [len(d) for d in s.decks]
    act(s, "play p/mh heaven", "target p1.good.heaven")
    assert codes(s, 0) == ["h/mp", "hp/m"]
    assert row(s, 0, "good", "heaven") == ["p/mh"]
    assert [len(d) for d in s.decks] == decks  # nobody draws during a round
    assert on_turn(s, 1)  # the turn is over after one card


def test_r_turn_1_a_turn_is_a_play_or_a_pass() -> None:
    s = table_with_good_populaces(4)
    hand(s, 0, "h/mp")
    hand(s, 1, "violence")
    refused(s, "R-TURN-1", "give h/mp")
    refused(s, "R-TURN-1", "steal p2")
    refused(s, "R-TURN-1", "target p1.good.heaven")
    refused(s, "R-TURN-1", "defend h/mp")


def test_r_turn_1_cards_are_played_from_hand_only() -> None:
    s = table_with_good_populaces(4)
    hand(s, 0, "h/mp")
    hand(s, 1, "p/mh")  # another player's card
    refused(s, "R-TURN-1", "play p/mh heaven")
    refused(s, "R-TURN-1", "play violence attack")
    refused(s, "R-TURN-1", "play nonsense heaven")
    refused(s, "R-TURN-1", "play seal heaven")  # seals never come into a hand


# --- R-TURN-2 -------------------------------------------------------------------------------


def test_r_turn_2_a_passed_player_takes_no_more_turns() -> None:
    s = table_with_good_populaces(3)
    act(s, "pass")
    assert s.passed == [True, False, False]
    seen = []
    for _ in range(4):
        seen.append(s.to_act)
        heaven(s, s.to_act)
    assert seen == [1, 2, 1, 2]


def test_r_turn_2_a_passed_player_may_still_defend() -> None:
    s = blank(4)
    put(s, 2, "good", "earth", "pop")
    hand(s, 0, "ethos")
    hand(s, 1, "violence")
    act(s, "pass")
    act(s, "play violence attack", "target p3.good", "decline", "decline")
    assert type(s.pending) is Defence and s.to_act == 0  # p1 has passed, and is asked
    events = act(s, "defend ethos")
    assert "defend" in kinds(events)
    assert row(s, 2, "good", "earth") == ["pop"]  # the attack failed
    assert sorted(s.code(c) for c in s.discards[1][-2:]) == ["ethos", "violence"]
    assert s.passed[0] and on_turn(s, 2)  # p1 still out of the round


def test_r_turn_2_passed_player_is_skipped_after_a_defence() -> None:
    s = blank(3)
    put(s, 0, "good", "earth", "pop")
    hand(s, 0, "church")
    hand(s, 1, "ethos")
    act(s, "pass")  # p1
    act(s, "play ethos attack", "target p1.good", "decline")
    assert type(s.pending) is Defence and s.to_act == 0
    act(s, "defend church")
    assert on_turn(s, 2)
    act(s, "pass")  # p3 — only p2 is left: round over
    assert s.round == 2


# --- R-TURN-3 -------------------------------------------------------------------------------


def test_r_turn_3_first_to_pass_starts_the_next_round() -> None:
    s = table_with_good_populaces(3, to_act=0)
    heaven(s, 0)
    act(s, "pass")  # p2 passes first
    heaven(s, 2)
    assert on_turn(s, 0)
    events = act(s, "pass")  # p1: only p3 is left
    assert "round-end" in kinds(events)
    assert s.startup == 1 and on_turn(s, 1) and s.round == 2
    assert s.passed == [False, False, False]


def test_r_turn_3_startup_does_not_keep_the_lead_if_someone_else_passes_first() -> None:
    s = blank(4, to_act=3)
    act(s, "pass", "pass", "pass")  # p4, p1, p2
    assert s.startup == 3 and on_turn(s, 3)
    act(s, "pass", "pass", "pass")  # p4, p1, p2 again
    assert s.startup == 3
    s2 = blank(4, to_act=3)
    hand(s2, 3, "metal")
    populaces(s2, 0, evil=1)
    act(s2, "play metal nether", "target p1.evil.nether")
    act(s2, "pass", "pass", "pass")  # p1, p2, p3
    assert s2.startup == 0 and on_turn(s2, 0)


# --- R-TURN-4 -------------------------------------------------------------------------------


def test_r_turn_4_round_ends_at_once_when_all_but_one_passed() -> None:
    s = blank(4)
    hand(s, 3, "violence")
    act(s, "pass", "pass")
    assert on_turn(s, 2)
    events = act(s, "pass")  # p4 never gets its turn this round
    assert kinds(events)[:2] == ["pass", "round-end"]
    assert "round-start" in kinds(events)
    assert s.round == 2 and on_turn(s, 0)
    # then cards are dealt: one B and one K for the two basic populaces of each display
    for seat in range(4):
        backs = sorted(s.table.kind[c].back for c in s.hands[seat])
        assert backs == (["B", "K", "K"] if seat == 3 else ["B", "K"])


def test_r_turn_4_nobody_takes_two_turns_in_a_row() -> None:
    s = table_with_good_populaces(2)
    hand(s, 0, "p/mh", "hp/m")
    act(s, "play p/mh heaven", "target p1.good.heaven")
    assert on_turn(s, 1)
    act(s, "pass")  # p2 passes: p1 would play twice in a row, so the round ends
    assert s.round == 2 and on_turn(s, 1)
    assert s.startup == 1


def test_r_turn_4_round_does_not_end_while_two_players_remain() -> None:
    s = blank(4)
    act(s, "pass", "pass")
    assert s.round == 1 and on_turn(s, 2)
    assert s.passed == [True, True, False, False]


# --- R-TURN-5 -------------------------------------------------------------------------------


def test_r_turn_5_empty_hand_can_only_pass() -> None:
    s = table_with_good_populaces(4)
    assert s.legal_actions() == [PASS]
    refused(s, "R-TURN-1", "play h/mp heaven")
    act(s, "pass")
    assert s.passed[0] and on_turn(s, 1)


def test_r_turn_5_no_hand_limit() -> None:
    s = blank(3)
    big = ["h/mp", "p/mh", "hp/m", "mp/h", "mh/p"] * 3 + ["mask", "helmet", "pig"] * 3
    hand(s, 0, *big)
    assert len(s.hands[0]) == 24
    act(s, "pass", "pass")  # round ends, cards are dealt, nothing is discarded
    assert len(s.hands[0]) == 26
    assert all(codes(s, 0).count(c) >= big.count(c) for c in set(big))
