"""The effect kinds steal (KD-EFFECT-1) and shield (KD-EFFECT-2): chips that change hands
without passing through the bank, and a player whom other players' card effects pass by, while
faction abilities still reach them (as blocks never touch abilities, K-SCORE-6)."""

from __future__ import annotations

import pytest

from apokalypse.engine.errors import IllegalAction
from apokalypse.games.apokerlypse import State, parse_action
from tests.apokerlypse.builders import (
    act,
    chips_total,
    content_with,
    deal_round,
    decision,
    kinds,
    legal,
    new,
    of_kind,
)

CONTENT = content_with(
    "[card.2c]\ntiming = 'draw'\nkind = 'steal'\namount = 2\n\n"
    "[card.3c]\ntiming = 'any'\nkind = 'shield'\n\n"
    "[card.4c]\ntiming = 'draw'\nkind = 'lose'\namount = 1\nwho = 'others'\n\n"
    "[card.5c]\ntiming = 'draw'\nkind = 'take'\n\n"
    "[card.6c]\ntiming = 'draw'\nkind = 'steal'\n\n"
    "[faction.plunderers]\nability = { timing = 'any', kind = 'steal', amount = 1 }\n"
)
P1 = ["3c", "3s", "4h", "5h", "7d"]
P2 = ["2d", "3d", "4s", "5d", "6d"]
PLAIN = ["8s", "8h", "8c", "9s"]  # phase 1: p2 draws 8s 8h, then p1 8c 9s


def game(players: int = 2) -> State:
    factions = ("military", "plunderers", "plunderers", "zombies")[:players]
    return new(players, content=CONTENT, factions=factions)


def test_kd_effect_1_a_steal_moves_chips_from_the_target_to_the_owner() -> None:
    s = game()
    events = deal_round(s, {0: P1, 1: P2}, draws=["2c", *PLAIN])  # p2 draws 2c first
    steal = of_kind(events, "steal")
    assert [e.args for e in steal] == [
        {"seat": 1, "target": 0, "amount": 2, "chips": 13, "left": 10}
    ]
    assert s.bank == 24 and chips_total(s) == 48  # nothing went through the bank


def test_kd_effect_1_a_steal_takes_no_more_than_the_target_holds_and_can_break_them() -> None:
    s = game()
    events = deal_round(s, {0: P1, 1: P2}, draws=["2c", *PLAIN], chips=[1, 12])
    assert of_kind(events, "steal")[0].args["amount"] == 1
    assert s.chips[0] == 0 and s.broke == (0,)  # K-END-1: the game ends after this round
    assert chips_total(s) == 48


def test_kd_effect_1_a_steal_with_nobody_to_rob_does_nothing() -> None:
    """Every other player in the round has no chips: the steal is void, naming its rule."""
    s = game()
    events = deal_round(s, {0: P1, 1: P2}, draws=["2c", *PLAIN], chips=[0, 12])
    assert of_kind(events, "steal") == []
    assert [e.args["rule"] for e in of_kind(events, "void")] == ["KD-EFFECT-1"]


def shielded_p1() -> State:
    """Round 1 to p1's first discard; p1 raises the shield (3c), then discards down to five."""
    s = game()
    deal_round(s, {0: P1, 1: P2}, draws=[*PLAIN, "4c", "5c", "Kh", "Kd"])
    act(s, "discard 8h", "discard 8s")  # p2 discards first (from the dealer's left)
    assert s.to_act == 0 and "use 3c" in legal(s)
    events = act(s, "use 3c")
    assert kinds(events) == ["effect", "shield"] and s.observation(1)["modifiers"][0]["shielded"]
    act(s, "discard 9s", "discard 8c")
    assert decision(s) == "stake" and s.to_act == 1
    return s


def test_kd_effect_2_others_card_effects_pass_a_shielded_player_by() -> None:
    s = shielded_p1()
    chips, hand = s.chips[0], sorted(s.hands[0])
    events = act(s, "pay")  # p2 draws 4c (every other player loses a chip) and 5c (take)
    assert [e.args["card"] for e in of_kind(events, "effect")] == ["4c", "5c"]
    assert of_kind(events, "lose") == [] and of_kind(events, "take") == []
    assert [e.args["rule"] for e in of_kind(events, "void")] == ["KD-EFFECT-2"]
    assert s.chips[0] == chips and sorted(s.hands[0]) == hand


def test_kd_effect_2_a_faction_ability_still_reaches_a_shielded_player() -> None:
    s = shielded_p1()
    act(s, "stand")
    assert s.to_act == 0
    act(s, "stand")
    assert s.to_act == 1 and "ability" in legal(s)
    events = act(s, "ability")  # the plunderers' steal: an ability, so the shield lets it by
    assert of_kind(events, "steal")[0].args["target"] == 0


def test_kd_effect_2_a_shielded_player_is_no_target_and_the_refusal_names_why() -> None:
    """Four players: p2's steal (6c, on the draw) may aim at p3 or p4, not at the shielded p1."""
    s = game(4)
    hands = {0: P1, 1: P2, 2: ["2h", "3h", "4d", "5s", "6s"], 3: ["7h", "7s", "9d", "Th", "Td"]}
    draws = ["8s", "8h", "Qs", "Qh", "Js", "Jh", *PLAIN[2:], "6c", "Kd"]
    deal_round(s, hands, draws=draws)  # phase 1 draws: p2, p3, p4, then p1
    act(s, "discard 8h", "discard 8s", "discard Qh", "discard Qs", "discard Jh", "discard Js")
    act(s, "use 3c", "discard 9s", "discard 8c")
    events = act(s, "pay")  # p2 draws 6c: steal a chip
    assert of_kind(events, "effect")[-1].args["card"] == "6c"
    assert decision(s) == "choose-target" and legal(s) == ["target p3", "target p4"]
    with pytest.raises(IllegalAction) as info:
        s.apply(parse_action("target p1"))
    assert info.value.rule == "KD-EFFECT-2"
    assert of_kind(act(s, "target p4"), "steal")[0].args["target"] == 3
