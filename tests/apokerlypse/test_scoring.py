"""Final scoring: K-SCORE-1 … 7, KV-TABLE, KV-BONUS-CAP, KD-SCORE-1."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from apokalypse.engine.errors import ConfigError, IllegalAction
from apokalypse.engine.events import Event
from apokalypse.games.apokerlypse import Config, State, parse_action
from apokalypse.games.apokerlypse.cards import FACTIONS
from apokalypse.games.apokerlypse.poker import CATEGORIES
from apokalypse.games.apokerlypse.scoring import score_line
from apokalypse.games.apokerlypse.tally import ScoreLine
from tests.apokerlypse.builders import (
    act,
    cards,
    content_with,
    deal_round,
    decision,
    default_action,
    kinds,
    legal,
    new,
    of_kind,
)

FULL = (0, 2, 5, 9, 14, 18, 25, 40, 60, 70)
SHORT = (2, 5, 9, 14, 20, 25, 35, 55, 75, 95)
HANDS = {
    "high-card": "2c 3d 4h 5s 7c",
    "pair": "2c 2d 4h 5s 6c",
    "two-pair": "2c 2d 4h 4s 6c",
    "three-of-a-kind": "2c 2d 2h 5s 6c",
    "straight": "2c 3d 4h 5s 6c",
    "flush": "2c 3c 4c 5c 8c",
    "full-house": "2c 2d 2h 5s 5c",
    "four-of-a-kind": "2c 2d 2h 2s 6c",
    "straight-flush": "2c 3c 4c 5c 6c",
    "royal-flush": "Tc Jc Qc Kc Ac",
}


def line(s: State, text: str, seat: int = 0) -> ScoreLine:
    """Score a hand as the engine does at the final scoring (a unit check of the table)."""
    s.hands[seat] = cards(*text.split())
    return score_line(s, seat)


def to_scoring(
    s: State,
    hands: Mapping[int, Sequence[str]],
    draws: Sequence[str],
    discards: Sequence[str],
    **kw: object,
) -> list[Event]:
    """Deal, discard the given cards (in turn order), stand in phase 2, everybody pays to take
    part; returns the events from the deal on, up to the first scoring decision or round end."""
    events = deal_round(s, hands, draws, **kw)  # type: ignore[arg-type]
    for text in discards:
        events += act(s, f"discard {text}")
    while decision(s) == "stake":
        events += act(s, "stand")
    while decision(s) == "participate":
        events += act(s, "pay" if "pay" in legal(s) else "stand")
    return events


# --- K-SCORE-1 ----------------------------------------------------------------------------


def test_k_score_1_weakest_hand_first_equal_categories_by_the_combination() -> None:
    """K-SCORE-1: the remaining players reveal; evaluation from the weakest hand upward, a
    pair of sevens before a pair of kings."""
    s = new(3)
    hands = {0: ["Kc", "Kd", "2h", "3s", "4c"], 1: ["7c", "7d", "Ah", "Qs", "Jc"]}
    hands[2] = ["2c", "3d", "5h", "8s", "9c"]
    draws = ["6c", "6d", "6h", "6s", "5c", "5d"]  # seat 1, seat 2, seat 0 draw two each
    discards = ["6c", "6d", "6h", "6s", "5c", "5d"]
    events = to_scoring(s, hands, draws, discards)
    reveal = of_kind(events, "reveal")[0]
    assert reveal.args["order"] == [2, 1, 0]
    assert reveal.args["hands"][1] == ["7d", "7c", "Jc", "Qs", "Ah"]  # by rank, ♠ ♥ ♦ ♣
    assert [e.args["seat"] for e in of_kind(events, "score")] == [2, 1, 0]


# --- K-SCORE-2 / KV-TABLE -----------------------------------------------------------------


@pytest.mark.parametrize("category", list(HANDS))
def test_k_score_2_base_points_of_the_full_table(category: str) -> None:
    """K-SCORE-2 (KV-TABLE full, the default): 0, 2, 5, 9, 14, 18, 25, 40, 60, 70."""
    got = line(new(2), HANDS[category])
    assert CATEGORIES[got.category] == category
    assert got.base == FULL[CATEGORIES.index(category)]


@pytest.mark.parametrize("category", list(HANDS))
def test_kv_table_short_rules_base_points(category: str) -> None:
    """KV-TABLE short: 2, 5, 9, 14, 20, 25, 35, 55, 75, 95 (high card scores 2)."""
    got = line(new(2, table="short"), HANDS[category])
    assert got.base == SHORT[CATEGORIES.index(category)]


# --- K-SCORE-3 / KV-BONUS-CAP -------------------------------------------------------------


def test_k_score_3_card_bonus_for_every_card_in_hand() -> None:
    """K-SCORE-3: 2–6 → 0, 7–10 → 1, J/Q/K/A → 2, part of the combination or not."""
    s = new(2)
    assert line(s, "2c 3d 4h 5s 6c").bonus == 0
    assert line(s, "7c 8d 9h Ts 2c").bonus == 4
    assert line(s, "Jc Qd Kh As 2c").bonus == 8
    pair = line(s, "2c 2d Kh As 5c")
    assert (pair.base, pair.bonus, pair.total) == (2, 4, 6)
    six = line(s, "2c 2d 2h 5s 5c Ac")  # more than five cards: all six count for the bonus
    assert CATEGORIES[six.category] == "full-house" and six.bonus == 2


def test_kv_bonus_cap_at_most_ten_bonus_points() -> None:
    """KV-BONUS-CAP (short rules): at most 10 bonus points; without it, no cap."""
    hand = "Ac Ad Ah As Kc Kd"
    assert line(new(2), hand).bonus == 12
    capped = line(new(2, bonus_cap=True), hand)
    assert capped.bonus == 10 and capped.total == 40 + 10


# --- K-SCORE-4 ----------------------------------------------------------------------------

STRUCTURE = content_with(
    "[card.8c]\ntiming = 'final'\nkind = 'category-up'\nsteps = 2\n\n"
    "[card.8d]\ntiming = 'final'\nkind = 'category-up'\nsteps = 1\n\n"
    "[card.9c]\ntiming = 'final'\nkind = 'gain'\namount = 1\n\n"
    "[card.9d]\ntiming = 'final'\nkind = 'gain'\namount = 1\n"
)


def test_k_score_4_one_structure_change_per_player_effects_in_player_order() -> None:
    """K-SCORE-4: final-scoring effects resolve in player order (the evaluation order); each
    player applies at most one structure change, the player choosing which by resolving it
    first; a second one is void."""
    s = new(2, content=STRUCTURE)
    hands = {0: ["9c", "2d", "3h", "4s", "6c"], 1: ["8c", "8d", "9d", "2s", "3s"]}
    events = to_scoring(s, hands, ["5c", "5d", "5h", "5s"], ["5c", "5d", "5h", "5s"])
    effects = of_kind(events, "effect")
    assert [e.args["seat"] for e in effects] == [0]  # seat 0 (weaker) first, resolved alone
    assert s.scores[0] is not None and s.scores[1] is None
    assert s.to_act == 1 and legal(s) == ["use 8d", "use 8c", "use 9d"]
    with pytest.raises(IllegalAction) as info:
        s.apply(parse_action("done"))
    assert info.value.rule == "K-SCORE-4"
    events = act(s, "use 8c")
    assert kinds(events) == ["effect", "structure"]
    events = act(s, "use 9d")  # then 8d is the only effect left: it resolves by itself
    assert kinds(events)[:5] == ["effect", "gain", "effect", "void", "score"]
    assert events[2].args["card"] == "8d" and events[3].args["rule"] == "K-SCORE-4"
    score = of_kind(events, "score")[0].args
    assert score["category"] == "three-of-a-kind"  # a pair, two categories higher


def test_k_score_4_category_up_stops_at_royal_flush() -> None:
    s = new(2, content=STRUCTURE)
    s.hands[0] = cards("8c", "9c", "Tc", "Jc", "Qc")
    s.mods[0] = s.mods[0]._replace(structure=("category-up", -1, 2))
    assert CATEGORIES[score_line(s, 0).category] == "royal-flush"


# --- K-SCORE-5 ----------------------------------------------------------------------------

ABILITY = content_with(
    "[faction.civilians]\nability = { timing = 'any', kind = 'gain', amount = 2 }\n\n"
    "[faction.zombies]\nability = { timing = 'final', kind = 'category-up' }\n\n"
    "[card.7h]\ntiming = 'any'\nkind = 'block'\n\n"
    "[card.6s]\ntiming = 'any'\nkind = 'gain'\namount = 1\n"
)


def test_k_score_5_one_faction_ability_per_round_any_time() -> None:
    """K-SCORE-5: one ability use per round, at any of the player's decisions; a use costs an
    action chip (K-SETUP-2: one with two players)."""
    s = new(2, content=ABILITY)
    s.factions = (FACTIONS.index("civilians"), FACTIONS.index("zombies"))
    deal_round(s, {0: ["2c", "3d", "4h", "5s", "6c"], 1: ["2d", "3h", "4s", "5c", "7c"]})
    act(s, legal(s)[0])
    act(s, legal(s)[0])
    assert s.to_act == 0 and "ability" in legal(s)  # offered while discarding …
    bank = s.bank
    events = act(s, "ability")
    assert kinds(events) == ["effect", "gain"]
    assert events[0].args["faction"] == "civilians" and events[0].args["card"] is None
    assert s.bank == bank - 2 and s.action_chips[0] == 0 and s.ability_used[0]
    assert "ability" not in legal(s)
    with pytest.raises(IllegalAction) as info:
        s.apply(parse_action("ability"))
    assert info.value.rule == "K-SCORE-5"


def test_kd_score_2_the_action_chip_comes_back_every_round() -> None:
    """KD-SCORE-2: with two players each faction has one action chip (K-SETUP-2); using the
    ability lays it down, and it comes back at the end of the round, so the ability is there
    again in the next round (K-SCORE-5: once per round, not once per game)."""
    s = new(2, content=ABILITY)
    s.factions = (FACTIONS.index("civilians"), FACTIONS.index("zombies"))
    deal_round(s, {0: ["2c", "3d", "4h", "5s", "6c"], 1: ["2d", "3h", "4s", "5c", "7c"]})
    until_seat_may(s, 0, "ability")
    act(s, "ability")
    assert s.action_chips[0] == 0 and "ability" not in legal(s)
    while s.round == 1:
        act(s, default_action(s))
    assert not s.is_over and s.action_chips == [1, 1] and s.ability_used == [False, False]
    until_seat_may(s, 0, "ability")
    events = act(s, "ability")
    assert kinds(events) == ["effect", "gain"] and s.action_chips[0] == 0


def until_seat_may(s: State, seat: int, action: str) -> None:
    """Take the default action until ``seat`` is offered ``action``."""
    for _ in range(50):
        if s.to_act == seat and action in legal(s):
            return
        act(s, default_action(s))
    raise AssertionError(f"p{seat + 1} was never offered {action!r}")


def test_k_score_5_an_ability_stated_for_the_final_scoring_waits_for_it() -> None:
    s = new(2, content=ABILITY)
    s.factions = (FACTIONS.index("civilians"), FACTIONS.index("zombies"))
    deal_round(s, {0: ["2c", "3d", "4h", "5s", "6c"], 1: ["2d", "3h", "4s", "5c", "8c"]})
    assert s.to_act == 1 and "ability" not in legal(s)
    with pytest.raises(IllegalAction) as info:
        s.apply(parse_action("ability"))
    assert info.value.rule == "K-SCORE-5"
    while decision(s) != "scoring" or s.to_act != 1:
        act(s, "done" if "done" in legal(s) else legal(s)[0])
    assert legal(s) == ["done", "ability"]
    events = act(s, "ability")
    assert kinds(events)[:3] == ["effect", "structure", "score"]  # no block window for it


def test_k_score_5_no_action_chips_no_ability() -> None:
    """K-SETUP-2: a faction the content gives no action chips never uses its ability."""
    s = new(
        2,
        content=ABILITY.replace(
            "[faction.civilians]\n", "[faction.civilians]\naction_chips = [0, 0, 0]\n"
        ),
    )
    s.factions = (FACTIONS.index("civilians"), FACTIONS.index("zombies"))
    deal_round(s, {0: ["2c", "3d", "4h", "5s", "6c"], 1: ["2d", "3h", "4s", "5c", "8c"]})
    act(s, legal(s)[0])
    act(s, legal(s)[0])
    assert "ability" not in legal(s)
    with pytest.raises(IllegalAction) as info:
        s.apply(parse_action("ability"))
    assert info.value.rule == "K-SETUP-2"


# --- K-SCORE-6 ----------------------------------------------------------------------------

SIX = content_with(
    "[card.Jc]\ntiming = 'final'\nkind = 'multiplier'\nfactor = 2\n\n"
    "[card.Jd]\ntiming = 'final'\nkind = 'multiplier'\nfactor = 3\n\n"
    "[card.Qd]\ntiming = 'final'\nkind = 'counts-double'\n\n"
    "[card.9c]\ntiming = 'final'\nkind = 'take'\n"
)


def test_k_score_6_one_multiplier_applied_last() -> None:
    """K-SCORE-6: at most one multiplier per player; it multiplies the total, last."""
    s = new(2, content=SIX)
    hands = {0: ["2c", "3d", "4h", "5s", "7c"], 1: ["Jc", "Jd", "2d", "3s", "4c"]}
    to_scoring(s, hands, ["5c", "5d", "6h", "6s"], ["5c", "5d", "6h", "6s"])
    assert s.to_act == 1 and legal(s) == ["use Jd", "use Jc"]
    events = act(s, "use Jd")
    assert of_kind(events, "multiplier")[0].args["factor"] == 3
    assert of_kind(events, "void")[0].args == {
        "seat": 1,
        "card": "Jc",
        "kind": "multiplier",
        "rule": "K-SCORE-6",
    }
    score = of_kind(events, "score")[0].args
    assert (score["base"], score["bonus"], score["multiplier"]) == (2, 4, 3)
    assert score["total"] == (2 + 4) * 3


def test_k_score_6_counts_double_doubles_only_that_cards_bonus() -> None:
    s = new(2, content=SIX)
    s.hands[0] = cards("Qd", "Qc", "2h", "3s", "7c")
    s.mods[0] = s.mods[0]._replace(doubled=frozenset(cards("Qd")))
    got = score_line(s, 0)
    assert (got.base, got.bonus, got.total) == (2, 4 + 2 + 1, 2 + 7)


def test_k_score_6_blocks_hit_card_effects_never_faction_abilities() -> None:
    """K-SCORE-6: a block cancels another player's card effect as it is announced; faction
    abilities open no block window at all."""
    s = new(2, content=ABILITY)
    s.factions = (FACTIONS.index("civilians"), FACTIONS.index("zombies"))
    deal_round(s, {0: ["6s", "3d", "4h", "5s", "2c"], 1: ["7h", "3h", "4s", "5c", "2d"]})
    act(s, "discard 5c")
    act(s, legal(s)[0])
    events = act(s, "ability")
    assert kinds(events) == ["effect", "gain"] and decision(s) == "discard"
    events = act(s, "use 6s")
    assert kinds(events) == ["effect"] and decision(s) == "block-window" and s.to_act == 1
    assert legal(s) == ["allow", "block 7h"]
    chips = s.chips[:]
    events = act(s, "block 7h")
    assert kinds(events) == ["blocked"] and s.chips == chips
    assert events[0].args == {
        "seat": 1,
        "card": "7h",
        "owner": 0,
        "blocked": "6s",
        "kind": "gain",
    }
    assert "use 6s" not in legal(s)  # a blocked effect is spent


def test_k_score_6_resolved_effects_never_change_afterwards() -> None:
    """K-SCORE-6: a total locked in the evaluation stays, even when a later effect takes a card
    from that hand."""
    s = new(2, content=SIX)
    hands = {0: ["Ac", "Ad", "2h", "3s", "7c"], 1: ["9c", "9d", "9h", "3d", "4c"]}
    events = to_scoring(s, hands, ["5c", "5d", "6h", "6s"], ["5c", "5d", "6h", "6s"])
    first = of_kind(events, "score")
    assert [e.args["seat"] for e in first] == [0, 1]
    take = of_kind(events, "take")[0]
    assert take.secret is None and take.args["card"] in ("Ac", "Ad", "2h", "3s", "7c")
    assert first[0].args["total"] == 2 + 5  # the pair of aces, locked before the take
    assert first[1].args["best"] != []  # seat 1 scored six cards' best five


# --- K-SCORE-7 / KD-SCORE-1 ---------------------------------------------------------------


def test_k_score_7_highest_total_takes_the_pot() -> None:
    s = new(2)
    hands = {0: ["2c", "3d", "4h", "5s", "7c"], 1: ["2d", "2h", "4s", "5c", "8d"]}
    events = to_scoring(s, hands, ["6c", "6d", "6h", "6s"], ["6c", "6d", "6h", "6s"])
    pot = of_kind(events, "pot")[0].args
    assert pot == {"winners": [1], "total": 3, "pot": 4, "share": 4, "remainder": 0}
    assert of_kind(events, "round-end")[0].args["chips"] == [10, 14]


def test_k_score_7_ties_split_the_pot_and_kd_score_1_the_remainder_stays() -> None:
    """K-SCORE-7: equal totals split the pot; KD-SCORE-1: an indivisible remainder stays in
    the pot for the next round."""
    s = new(2)
    hands = {0: ["2c", "3d", "4h", "5s", "7c"], 1: ["2d", "3h", "4s", "5c", "7d"]}
    events = to_scoring(s, hands, ["6c", "6d", "6h", "6s"], ["6c", "6d", "6h", "6s"], pot=1)
    pot = of_kind(events, "pot")[0].args
    assert pot == {"winners": [0, 1], "total": 1, "pot": 5, "share": 2, "remainder": 1}
    end = of_kind(events, "round-end")[0].args
    assert end["pot"] == 1 and end["chips"] == [12, 12]
    assert s.pot == 1 + 2 * 2  # the remainder plus round 2's payments


def test_kv_table_and_kv_bonus_cap_are_config_switches() -> None:
    """KV-TABLE (full | short) and KV-BONUS-CAP select between the two rule texts; a record
    keeps them."""
    config = Config.from_json({"players": 3, "table": "short", "bonus_cap": True})
    assert config.base_points == SHORT and config.bonus_cap
    assert Config.from_json(config.to_json()) == config
    assert Config().base_points == FULL and not Config().bonus_cap
    with pytest.raises(ConfigError, match="KV-TABLE"):
        Config(table="medium")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="KV-BONUS-CAP"):
        Config.from_json({"bonus_cap": "yes"})
    with pytest.raises(ConfigError, match="unknown field"):
        Config.from_json({"variants": []})


def test_k_score_1_the_best_five_shown_depends_on_the_cards_only() -> None:
    """With a set-rank change on one card, two equally strong fives again: the score line's best
    five is the same whatever order the cards entered the hand."""
    from apokalypse.games.apokerlypse.cards import RANKS
    from apokalypse.games.apokerlypse.tally import Mods

    RANK_SEVEN = RANKS.index("7")

    s = new(2)
    nine = cards("9h")[0]
    shown = set()
    for order in ("Kc Kd 9h 7s 2c 2d", "2d 2c 7s 9h Kd Kc"):  # 9h → 7: kings and sevens, a 2
        s.hands[0] = cards(*order.split())
        s.mods[0] = Mods(structure=("set-rank", nine, RANK_SEVEN))
        shown.add(score_line(s, 0).best)
    assert len(shown) == 1
