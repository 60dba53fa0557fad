"""Setup and the dealer round: K-SETUP-1/2, K-ROUND-1 … 4, KD-ROUND-1, K-SHORT-1."""

from __future__ import annotations

import pytest

from apokalypse.engine.errors import ConfigError
from apokalypse.games.apokerlypse import Config
from apokalypse.games.apokerlypse.cards import FACTIONS
from tests.apokerlypse.builders import (
    act,
    all_cards,
    chips_total,
    content_with,
    deal_round,
    decision,
    finish_round,
    kinds,
    legal,
    new,
    of_kind,
    play_until,
)
from tests.helpers import refused

LOW = {0: ["2c", "3d", "4h", "5s", "7c"], 1: ["2d", "3h", "4s", "5c", "8d"]}


# --- K-SETUP ------------------------------------------------------------------------------


def test_k_setup_1_components_52_cards_48_chips_four_factions() -> None:
    """K-SETUP-1: 52 cards, 48 resource chips, factions ♠ Military ♥ Civilians ♦ Plunderers
    ♣ Zombies, 2–4 players."""
    for n in (2, 3, 4):
        s = new(n, seed=n)
        assert sorted(all_cards(s)) == list(range(52))
        assert chips_total(s) == 48
        assert len(set(s.factions)) == n
    assert FACTIONS == ("military", "civilians", "plunderers", "zombies")
    for players in (1, 5):
        with pytest.raises(ConfigError, match="K-SETUP-1"):
            Config(players=players)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_k_setup_2_chips_faction_action_chips_five_cards_each(n: int) -> None:
    """K-SETUP-2: 12 chips, a faction and 1 (2 players) or 2 (3–4) action chips each; a dealer;
    five cards dealt each; the rest is the draw pile; an own discard pile each. Chips not dealt
    stay in the bank."""
    s = new(n, seed=11)
    deals = of_kind(s.opening, "deal")
    assert [e.args["count"] for e in deals] == [5] * n
    assert [e.seen_by for e in deals] == [frozenset({q}) for q in range(n)]
    assert s.bank == 48 - 12 * n
    assert s.action_chips == [1 if n == 2 else 2] * n
    assert len(s.discards) == n
    pays = of_kind(s.opening, "pay")  # round 1, phase 1: everybody paid 1 of their 12
    assert s.chips == [11] * n and len(pays) == n and s.pot == n
    assert all(len(h) == 7 for h in s.hands)
    assert len(s.pile) == 52 - 7 * n
    assert 0 <= s.dealer < n


# --- K-ROUND ------------------------------------------------------------------------------


def test_k_round_1_round_r_costs_r_chips_per_draw_phase() -> None:
    """K-ROUND-1: round 1 costs 1, round 2 costs 2 … in every draw phase separately."""
    s = new(2, seed=1)
    assert s.cost == 1
    pays = of_kind(s.opening, "pay")
    assert {e.args["amount"] for e in pays} == {1}
    play_until(s, "stake")
    events = act(s, "pay")
    assert [e.args["amount"] for e in of_kind(events, "pay")] == [1]
    events = finish_round(s)
    assert s.round == 2 and s.cost == 2
    assert {e.args["amount"] for e in of_kind(events, "pay") if e.args["step"] == "draw-1"} == {2}
    play_until(s, "stake")
    assert [e.args["amount"] for e in of_kind(act(s, "pay"), "pay")] == [2]


def test_k_round_2_phase_1_pays_and_draws_two_from_the_dealers_left() -> None:
    """K-ROUND-2: from the dealer's left each player must pay and draws two cards one after
    another; then, in the same order, each discards down to five."""
    s = new(3, seed=2)
    events = deal_round(s, {0: LOW[0], 1: LOW[1]}, draws=["9c", "9d", "Tc", "Td", "Jc", "Jd"])
    seq = [(e.kind, e.args.get("seat")) for e in events if e.kind in ("pay", "draw")]
    assert seq == [
        ("pay", 1), ("draw", 1), ("draw", 1),
        ("pay", 2), ("draw", 2), ("draw", 2),
        ("pay", 0), ("draw", 0), ("draw", 0),
    ]  # fmt: skip
    draws = of_kind(events, "draw")
    assert [e.secret for e in draws] == [{"card": c} for c in ("9c", "9d", "Tc", "Td", "Jc", "Jd")]
    assert all(e.seen_by == frozenset({e.args["seat"]}) for e in draws)
    assert s.chips == [11, 11, 11] and s.pot == 3
    for seat in (1, 2, 0):  # discarding in the same order
        assert decision(s) == "discard" and s.to_act == seat
        act(s, legal(s)[0])
        act(s, legal(s)[0])
        assert len(s.hands[seat]) == 5
    assert decision(s) == "stake" and s.to_act == 1


def test_k_round_2_draw_and_discard_effects_resolve_at_once() -> None:
    """K-ROUND-2: a draw effect is announced and resolved before the second card is drawn; a
    discard effect as the card is discarded."""
    text = content_with(
        "[card.9c]\ntiming = 'draw'\nkind = 'gain'\namount = 2\n\n"
        "[card.5s]\ntiming = 'discard'\nkind = 'gain'\namount = 3\n"
    )
    s = new(2, content=text)
    events = deal_round(s, LOW, draws=["9c", "9d", "Tc", "Td"], chips=[12, 12])
    assert kinds(events)[:6] == ["pay", "draw", "effect", "gain", "draw", "pay"]
    assert s.chips == [11, 13] and s.bank == 24 - 2
    assert s.to_act == 1
    events = act(s, "discard 5c")
    assert kinds(events) == ["discard"]
    s2 = new(2, content=text)
    deal_round(s2, LOW, draws=["9h", "9d", "Tc", "Td"], chips=[12, 12])
    act(s2, "discard 9d", "discard 8d")
    events = act(s2, "discard 5s")
    assert kinds(events) == ["discard", "effect", "gain"]
    assert s2.chips[0] == 11 + 3


def test_k_round_2_discard_down_to_five_only() -> None:
    """K-ROUND-2: a player discards exactly down to five; not asked below that."""
    s = new(2)
    deal_round(s, LOW, draws=["9c", "9d", "Tc", "Td"])
    assert s.to_act == 1 and len(legal(s)) == 7
    act(s, "discard 9c", "discard 9d")
    assert s.to_act == 0
    refused(s, "K-ROUND-2", "discard 9c")
    refused(s, "K-ROUND-2", "stand")


def test_k_round_3_phase_2_payment_is_voluntary_and_players_may_drop() -> None:
    """K-ROUND-3: in phase 2 a player pays (and draws two), stands (no cards), or drops out."""
    s = new(3)
    deal_round(s, {}, draws=[])
    play_until(s, "stake")
    assert s.to_act == 1 and legal(s) == ["pay", "stand", "drop"]
    events = act(s, "pay")
    assert kinds(events) == ["pay", "draw", "draw"] and len(s.hands[1]) == 7
    events = act(s, "stand")
    assert kinds(events) == ["stand"] and len(s.hands[2]) == 5
    events = act(s, "drop")
    assert kinds(events)[0] == "drop" and s.in_round == [False, True, True]
    assert s.chips == [11, 10, 11]
    events = finish_round(s)
    reveal = of_kind(events, "reveal")[0]
    assert reveal.args["hands"][0] is None  # a dropped player's hand stays hidden
    assert 0 not in reveal.args["order"]


def test_k_round_3_players_without_chips_stay_in_but_draw_nothing() -> None:
    """K-ROUND-3 / K-SHORT-1: without the cost in chips, only stand or drop."""
    s = new(2)
    deal_round(s, LOW, draws=["9c", "9d", "Tc", "Td"], chips=[12, 2], round=2)
    play_until(s, "stake")
    assert s.to_act == 1 and legal(s) == ["stand", "drop"]
    refused(s, "K-SHORT-1", "pay")
    assert s.short[1]


def test_k_round_3_the_last_player_in_the_round_cannot_drop() -> None:
    s = new(2)
    deal_round(s, LOW)
    play_until(s, "stake")
    act(s, "drop")
    assert s.to_act == 0 and legal(s) == ["pay", "stand"]
    refused(s, "K-ROUND-3", "drop")


def test_k_round_4_participation_pay_or_drop() -> None:
    """K-ROUND-4: after phase 2 anyone may drop out; a player with chips who takes part pays."""
    s = new(3)
    deal_round(s, {})
    play_until(s, "participate")
    assert s.to_act == 1 and legal(s) == ["pay", "drop"]
    refused(s, "K-ROUND-4", "stand")
    pot = s.pot
    events = act(s, "pay")
    assert kinds(events) == ["pay"] and s.pot == pot + 1
    events = act(s, "drop")
    assert kinds(events) == ["drop"] and not s.in_round[2]


def test_k_round_4_the_last_player_in_the_round_takes_part() -> None:
    s = new(2)
    deal_round(s, LOW)
    play_until(s, "participate")
    act(s, "drop")
    assert s.to_act == 0 and legal(s) == ["pay"]
    refused(s, "K-ROUND-4", "drop")


def test_kd_round_1_who_cannot_pay_takes_part_without_paying() -> None:
    """KD-ROUND-1: a player who cannot pay the full cost takes part free (and is short)."""
    s = new(2)
    deal_round(s, LOW, chips=[12, 3], round=3)
    play_until(s, "stake")
    assert s.chips[1] == 0  # it paid its 3 chips in phase 1
    act(s, "stand")
    play_until(s, "participate")
    assert s.to_act == 1 and legal(s) == ["stand", "drop"]
    refused(s, "KD-ROUND-1", "pay")
    events = act(s, "stand")  # short in phase 2, found short again for phase 3 (K-SHORT-1)
    assert kinds(events) == ["short", "stand"] and s.short[1] and s.chips[1] == 0
    events = finish_round(s)
    assert 1 in of_kind(events, "reveal")[0].args["order"]


# --- K-SHORT ------------------------------------------------------------------------------


def test_k_short_1_a_short_player_draws_nothing_keeps_the_hand_and_can_win() -> None:
    """K-SHORT-1: cannot pay → draws nothing, keeps the hand, is not asked to discard, and still
    wins the round with the best hand."""
    s = new(2)
    royal = ["As", "Ks", "Qs", "Js", "Ts"]
    events = deal_round(s, {0: LOW[0], 1: royal}, draws=["9c", "9d"], chips=[20, 2], round=3)
    assert kinds(events)[:4] == ["short", "pay", "draw", "draw"]
    assert s.short == [False, True] and s.hand_limit(1) == 5 and len(s.hands[1]) == 5
    assert s.to_act == 0  # seat 1 has nothing to discard
    act(s, "discard 9d", "discard 9c")
    assert legal(s) == ["stand", "drop"]
    act(s, "stand")
    act(s, "stand")  # seat 0 stands too
    events = act(s, "stand", "pay")  # participation: seat 1 free, seat 0 pays 3
    pot = of_kind(events, "pot")[0].args
    assert pot["winners"] == [1] and pot["share"] == 6  # the short player won the round
    assert of_kind(events, "round-end")[0].args["chips"] == [20 - 3 - 3, 2 + 6]


def test_k_short_1_short_in_phase_1_may_pay_in_phase_2_when_it_can() -> None:
    """K-SHORT-1 / K-ROUND-1: "Die Kosten gelten für jede Zieh-Phase separat": who can pay is
    decided for each draw phase on its own. Short in phase 1 (2 chips, cost 3), seat 1 gains 3
    chips from seat 0's draw effect; in phase 2 it may pay and draw like anyone, discards down to
    five like anyone, and in phase 3 the cost is decided afresh again (2 chips left: free)."""
    text = content_with("[card.9c]\ntiming = 'draw'\nkind = 'gain'\namount = 3\nwho = 'others'\n")
    s = new(2, content=text)
    events = deal_round(
        s, {0: LOW[0], 1: LOW[1]}, draws=["9c", "9d", "Tc", "Td"], chips=[20, 2], round=3
    )
    assert kinds(events)[0] == "short" and s.short[1]
    assert s.chips[1] == 5  # the effect reached the short player's chips, not its cards
    act(s, "discard 9d", "discard 9c")
    assert decision(s) == "stake" and s.to_act == 1
    assert not s.short[1]  # phase 2 decides afresh
    assert legal(s) == ["pay", "stand", "drop"]
    events = act(s, "pay")
    assert kinds(events) == ["pay", "draw", "draw"] and s.chips[1] == 2
    assert len(s.hands[1]) == 7
    act(s, "stand")  # seat 0
    assert decision(s) == "discard" and s.to_act == 1  # not short: it discards to five
    act(s, "discard Td", "discard Tc")
    assert decision(s) == "participate" and s.to_act == 1
    assert legal(s) == ["stand", "drop"]  # 2 chips < 3: takes part free (KD-ROUND-1)
    events = act(s, "stand")
    assert s.short[1]


def test_k_short_1_shortage_lasts_for_its_phase_only() -> None:
    """K-SHORT-1: short in phase 1 does not carry over into phase 2: a player who cannot pay in
    phase 2 either is found short again when phase 2 comes to it (a new ``short`` event), and a
    player who could pay in phase 2 but stands is not short."""
    s = new(2)
    deal_round(s, LOW, draws=["9c", "9d"], chips=[20, 2], round=3)
    assert s.short == [False, True]
    events = act(s, "discard 9d", "discard 9c")
    assert s.to_act == 1 and decision(s) == "stake" and s.short[1]
    assert [e.args["seat"] for e in of_kind(events, "short")] == [1]
    act(s, "stand")
    assert decision(s) == "stake" and s.to_act == 0 and not s.short[0]
    act(s, "stand")  # seat 0 could pay, stands: not short
    # phase 3 decides afresh too (KD-ROUND-1): nobody is short until it comes to them
    assert decision(s) == "participate" and s.short == [False, False]
    events = act(s, "stand")
    assert kinds(events) == ["short", "stand"] and s.short == [False, True]


def test_k_short_1_a_short_player_cannot_receive_or_lose_cards() -> None:
    """K-SHORT-1: immune to effects that would remove cards; cannot take or receive either."""
    text = content_with(
        "[card.6s]\ntiming = 'any'\nkind = 'take'\n\n[card.6h]\ntiming = 'any'\nkind = 'give'\n"
    )
    s = new(2, content=text)
    deal_round(
        s,
        {0: ["6s", "6h", "2c", "3c", "4c"], 1: LOW[1]},
        draws=["9c", "9d"],
        chips=[20, 2],
        round=3,
    )
    act(s, "discard 9d", "discard 9c")
    assert s.short[1] and s.to_act == 1
    act(s, "stand")
    events = act(s, "use 6s")
    assert kinds(events) == ["effect", "void"] and events[1].args["rule"] == "K-SHORT-1"
    events = act(s, "use 6h")
    assert kinds(events) == ["effect", "void"] and len(s.hands[1]) == 5
    s2 = new(2, content=text)
    deal_round(s2, {1: ["6s", "6h", "2s", "3s", "4s"], 0: LOW[0]}, chips=[20, 2], round=3)
    play_until(s2, "stake")
    events = act(s2, "use 6s")  # the short owner cannot take
    assert events[-1].kind == "void" and events[-1].args["rule"] == "K-SHORT-1"
