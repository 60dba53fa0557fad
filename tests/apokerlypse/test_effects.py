"""Every effect kind and every faction ability of the example content (KD-SETUP-1), and the
secrecy of what effects show (a peek, a card taken, given or swapped)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from apokalypse.engine.events import Event
from apokalypse.games.apokerlypse import State
from tests.apokerlypse.builders import (
    act,
    all_cards,
    chips_total,
    deal_round,
    decision,
    default_action,
    kinds,
    legal,
    new,
    of_kind,
)

H0 = ["2h", "3s", "4h", "5h", "7d"]  # no effects in the example content
H1 = ["2c", "3d", "4s", "5d", "6d"]
PLAIN_DRAWS = ["8s", "8h", "8c", "9s"]


def example(players: int = 2, factions: Sequence[str] = ()) -> State:
    return new(players, content="example", factions=factions)


def through(s: State, discards: Sequence[str]) -> list[Event]:
    """Play to the end of the round: discard the given cards in turn order, otherwise
    :func:`default_action` (stand, take part, allow effects, first choice)."""
    left = list(discards)
    events: list[Event] = []
    start = s.round
    while not s.is_over and s.round == start:
        text = f"discard {left.pop(0)}" if decision(s) == "discard" else default_action(s)
        events += act(s, text)
    return events


def score_of(events: Sequence[Event], seat: int) -> Mapping[str, object]:
    return next(e.args for e in of_kind(events, "score") if e.args["seat"] == seat)


def test_gain_on_draw_from_the_bank_after_the_block_window() -> None:
    s = example()
    events = deal_round(s, {0: H0, 1: H1}, draws=["2s", *PLAIN_DRAWS])
    assert kinds(events)[-3:] == ["pay", "draw", "effect"]
    assert decision(s) == "block-window" and s.to_act == 0 and legal(s) == ["allow"]
    events = act(s, "allow")
    assert events[0].kind == "gain" and events[0].args == {"seat": 1, "amount": 1, "chips": 12}
    assert s.bank == 24 - 1 and chips_total(s) == 48


def test_gain_is_capped_by_the_bank() -> None:
    """Four players hold all 48 chips: the bank is empty, a gain yields nothing."""
    s = example(4)
    deal_round(s, {0: H0, 1: H1}, draws=["2s", *PLAIN_DRAWS])
    assert s.bank == 0
    events = act(s, "allow", "allow")
    assert kinds(events) == []  # three players are asked, clockwise from the owner
    events = act(s, "allow")
    assert events[0].args["amount"] == 0 and s.chips[1] == 11


def test_lose_on_draw_hits_every_other_player_in_the_round() -> None:
    s = example(3)
    deal_round(s, {0: H0, 1: H1}, draws=["2d", *PLAIN_DRAWS, "9h"])
    events = act(s, "allow", "allow")
    losses = of_kind(events, "lose")
    assert [(e.args["seat"], e.args["amount"]) for e in losses] == [(2, 1), (0, 1)]
    assert s.bank == 12 + 2 and chips_total(s) == 48


def test_peek_shows_a_hand_to_the_peeker_only() -> None:
    s = example()
    deal_round(s, {0: H0, 1: H1}, draws=["3h", *PLAIN_DRAWS])
    events = act(s, "allow")
    assert kinds(events)[:2] == ["target", "peek"]
    peek = events[1]
    assert peek.view(1).args["cards"] == ["2h", "3s", "4h", "5h", "7d"]
    assert "cards" not in peek.view(0).args and "cards" not in peek.view(None).args
    assert s.observation(1)["known"] == {"p1": ["2h", "3s", "4h", "5h", "7d"]}
    assert s.observation(0)["known"] == {"p2": ["3h"]}  # the announced card only
    assert s.observation(None)["known"] == {"p2": ["3h"]}


def test_take_on_discard_moves_a_random_card_seen_by_the_two_players() -> None:
    s = example()
    deal_round(s, {0: H0, 1: ["4d", "3d", "4s", "5d", "6d"]}, draws=PLAIN_DRAWS)
    events = act(s, "discard 4d", "allow")
    assert kinds(events) == ["discard", "effect", "target", "take"]
    take = events[-1]
    card = take.view(1).args["card"]
    assert card in H0 and take.view(0).args["card"] == card
    assert "card" not in take.view(None).args
    assert len(s.hands[1]) == 7 and len(s.hands[0]) == 6
    assert s.observation(0)["known"] == {"p2": [card]}
    assert sorted(all_cards(s)) == list(range(52))


def test_lose_one_asks_for_the_target() -> None:
    s = example(3)
    deal_round(s, {0: H0, 1: ["5c", "3d", "4s", "5d", "6d"]}, draws=[*PLAIN_DRAWS, "9d", "9h"])
    act(s, "discard 5c")
    assert decision(s) == "block-window" and s.to_act == 2
    act(s, "allow")
    assert s.to_act == 0
    act(s, "allow")
    assert decision(s) == "choose-target" and legal(s) == ["target p3", "target p1"]
    assert s.observation(1)["choice"] == {"targets": [2, 0]}
    events = act(s, "target p1")
    assert kinds(events) == ["target", "lose"] and s.chips[0] == 10


def test_gain_on_discard() -> None:
    s = example()
    deal_round(s, {0: H0, 1: ["3c", "3d", "4s", "5d", "6d"]}, draws=PLAIN_DRAWS)
    events = act(s, "discard 3c", "allow")
    assert kinds(events)[-1] == "gain" and s.chips[1] == 11 + 2


def test_give_chooses_the_card_and_only_the_two_players_see_it() -> None:
    s = example()
    deal_round(s, {0: H0, 1: ["6s", "3d", "4s", "5d", "6d"]}, draws=PLAIN_DRAWS)
    assert "use 6s" in legal(s)
    act(s, "use 6s", "allow")
    assert decision(s) == "choose-card" and "give 3d" in legal(s)
    events = act(s, "give 3d")
    give = events[0]
    assert give.kind == "give" and give.view(0).args["card"] == "3d"
    assert "card" not in give.view(None).args
    assert "3d" in s.observation(0)["hand"] and len(s.hands[1]) == 6


def test_swap_gives_a_chosen_card_for_a_random_one() -> None:
    s = example()
    deal_round(s, {0: H0, 1: ["Ah", "3d", "4s", "5d", "6d"]}, draws=PLAIN_DRAWS)
    act(s, "use Ah", "allow")
    events = act(s, "swap 3d")
    swap = events[0]
    taken = swap.view(1).args["taken"]
    assert swap.view(0).args == {"seat": 1, "target": 0, "given": "3d", "taken": taken}
    assert taken in H0 and "3d" in s.observation(0)["hand"]
    assert len(s.hands[0]) == 7 and len(s.hands[1]) == 7


def test_block_cancels_a_card_effect() -> None:
    s = example()
    deal_round(s, {0: ["7h", *H0[1:]], 1: ["6s", "3d", "4s", "5d", "6d"]}, draws=PLAIN_DRAWS)
    act(s, "use 6s")
    assert legal(s) == ["allow", "block 7h"]
    events = act(s, "block 7h")
    assert kinds(events) == ["blocked"] and len(s.hands[1]) == 7
    assert s.observation(None)["known"] == {"p1": ["7h"], "p2": ["6s"]}


def test_category_up_set_suit_set_rank_at_the_final_scoring() -> None:
    s = example(3)
    hands = {
        0: ["8d", "2h", "2c", "4s", "5h"],  # a pair, one category higher: two pair
        1: ["9c", "3h", "4h", "6h", "Jh"],  # 9c counts as a heart: a flush
        2: ["9h", "Tc", "Td", "2d", "3s"],  # 9h counts as a ten: three of a kind
    }
    events = deal_round(s, hands, draws=["8s", "8h", "8c", "9s", "9d", "Ts"])
    events += through(s, ["8s", "8h", "8c", "9s", "9d", "Ts"])
    assert score_of(events, 0)["category"] == "two-pair"
    assert score_of(events, 1)["category"] == "flush"
    assert score_of(events, 2)["category"] == "three-of-a-kind"
    order = [e.args["kind"] for e in of_kind(events, "structure")]
    assert order == ["set-suit", "category-up", "set-rank"]  # evaluation order: seats 1, 0, 2


def test_multiplier_counts_double_and_gain_all_at_the_final_scoring() -> None:
    s = example()
    hands = {0: ["Jc", "2h", "3s", "4h", "5d"], 1: ["Qd", "Kh", "2c", "3d", "6d"]}
    events = deal_round(s, hands, draws=PLAIN_DRAWS)
    events += through(s, ["8s", "8h", "8c", "9s"])
    assert score_of(events, 0)["total"] == (0 + 2) * 2
    assert score_of(events, 1)["bonus"] == 4 + 2
    gains = [e.args["seat"] for e in of_kind(events, "gain")]
    assert gains == [1, 0]  # Kh: everybody in the round gains one, the owner first


def test_hand_limit_keeps_a_sixth_card() -> None:
    s = example()
    deal_round(s, {0: H0, 1: H1}, draws=["Ks", *PLAIN_DRAWS])
    events = act(s, "allow")
    assert of_kind(events, "hand-limit")[0].args == {"seat": 1, "limit": 6}
    act(s, "discard 8s")
    assert s.to_act == 0 and len(s.hands[1]) == 6
    assert s.observation(None)["modifiers"][1]["hand_limit"] == 6


def test_faction_abilities_military_civilians_plunderers() -> None:
    s = example(3, ["military", "civilians", "plunderers"])
    deal_round(
        s,
        {0: H0, 1: H1, 2: ["2d", "3c", "4d", "5c", "7c"]},
        draws=["9d", "9h", "Ts", "Td", "Tc", "Jd"],
    )
    # seat 1 (civilians) is first to discard
    events = act(s, "ability")
    assert kinds(events) == ["effect", "gain"] and s.chips[1] == 11 + 2
    act(s, "discard 9h", "discard 9d")
    assert s.to_act == 2
    events = act(s, "ability")  # plunderers: swap, no block window
    assert decision(s) == "choose-target"
    events = act(s, "target p1")
    assert decision(s) == "choose-card"
    events = act(s, "swap 2d")
    assert kinds(events) == ["swap"]
    act(s, "discard Ts", "discard Td")
    assert s.to_act == 0
    events = act(s, "ability")  # military: take
    assert decision(s) == "choose-target"
    events = act(s, "target p2")
    assert kinds(events) == ["target", "take"] and s.action_chips == [1, 1, 1]


def test_faction_ability_zombies_in_the_final_scoring() -> None:
    s = example(2, ["zombies", "civilians"])
    events = deal_round(s, {0: H0, 1: H1}, draws=PLAIN_DRAWS)
    while not (decision(s) == "scoring" and s.to_act == 0):
        text = default_action(s)
        events += act(s, "done" if text == "ability" else text)
    assert legal(s) == ["done", "ability"]
    events = act(s, "ability")
    assert kinds(events)[:3] == ["effect", "structure", "score"]
    assert events[2].args["category"] == "pair"  # high card, one category higher


def test_a_card_taken_unseen_does_not_tell_others_which_one() -> None:
    """After a hidden take, a third player knows only that each card they had placed in the
    victim's hand may now be in either hand: their view is the same whichever card moved."""
    s = example(3, ["military", "civilians", "plunderers"])
    hands = {0: H0, 1: ["6s", "3d", "4s", "5d", "6d"], 2: ["2d", "3c", "4d", "5c", "7c"]}
    deal_round(s, hands, draws=["9d", "9h", "Ts", "Td", "Tc", "Jd"])
    act(s, "use 6s", "allow", "allow", "target p3", "give 3d")  # 6s is now public, in p2
    assert s.observation(2)["known"] == {"p2": ["6s"]}
    act(s, "discard 9h", "discard Ts", "discard Td", "discard 2d")
    assert s.to_act == 0
    act(s, "ability")  # military: take from …
    views = []
    taken = set()
    for seed in range(12):
        t = s.clone()
        t.rng.state = seed
        events = act(t, "target p2")
        taken.add(events[-1].secret["card"] if events[-1].secret else None)
        views.append(t.observation(2))
    assert len(taken) > 1  # different cards were taken …
    assert all(v == views[0] for v in views)  # … and seat 2 cannot tell which
    assert views[0]["maybe"] == {"6s": [0, 1]} and "p2" not in views[0]["known"]
    taker = t.observation(0)
    # the taker did not see which card p2 gave p3 earlier (it might have been 6s itself)
    assert "6s" in taker["hand"] or taker["maybe"] == {"6s": [1, 2]}
