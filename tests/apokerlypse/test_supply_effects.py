"""The effects of the second standard content that act on supplies every table has: the pot
(KD-EFFECT-3), the other players' hand limit (KD-EFFECT-4) and the draw pile (KD-EFFECT-5).

"standard-2" has no block card, so effects resolve at once, without a block window. The hands
dealt hold only cards timed "when drawn", which trigger nothing when dealt (KD-SETUP-1)."""

from __future__ import annotations

from apokalypse.engine.rng import Rng
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

H0 = ["3h", "Kh", "2d", "5d", "9d"]  # all timed "when drawn": dealt, they do nothing
H1 = ["Td", "Ad", "2c", "7c", "Ac"]
H2 = ["8s", "As", "6s", "4s", "7s"]
QUIET = ["9h", "6c", "8c", "Ks", "Jh", "Qd"]  # timed "in the final scoring": quiet in a draw


def standard(players: int = 2) -> State:
    return new(players, content="standard-2")


def test_kd_effect_3_a_skim_for_everybody_takes_from_the_pot_as_far_as_it_holds() -> None:
    """2♥ Rations: every player in the round takes a chip from the pot, its drawer first."""
    s = standard()
    events = deal_round(s, {0: H0, 1: H1}, draws=["2h", *QUIET], pot=1)
    skims = [e.args for e in of_kind(events, "skim")]
    # seat 1 paid 1 (the pot 2), then drew 2♥: it takes 1, seat 0 the last one
    assert skims == [
        {"seat": 1, "amount": 1, "chips": 12, "pot": 1},
        {"seat": 0, "amount": 1, "chips": 13, "pot": 0},
    ]
    assert s.pot == 1 and chips_total(s) == 48  # seat 0 paid its own cost since
    s2 = standard()
    events = deal_round(s2, {0: H0, 1: H1}, draws=["2h", *QUIET])
    skims = [e.args for e in of_kind(events, "skim")]
    assert [a["amount"] for a in skims] == [1, 0]  # the pot held only the drawer's chip
    assert chips_total(s2) == 48


def test_kd_effect_3_an_ante_makes_every_other_player_pay_into_the_pot() -> None:
    """T♠ Checkpoint: every other player in the round pays a chip into the pot; a player
    without chips pays nothing and one who pays their last chip has run out (K-END-1)."""
    s = standard(3)
    events = deal_round(s, {0: H0, 1: H1, 2: H2}, draws=["Ts", *QUIET], chips=[1, 12, 12])
    antes = [e.args for e in of_kind(events, "ante")]
    assert antes == [
        {"seat": 2, "amount": 1, "chips": 11, "pot": 2},
        {"seat": 0, "amount": 1, "chips": 0, "pot": 3},
    ]
    assert s.broke == (0,) and chips_total(s) == 48
    assert kinds(events).count("short") == 1  # seat 0 can no longer pay its own cost


def test_kd_effect_3_an_ante_passes_a_shielded_player_by() -> None:
    """KD-EFFECT-2 with KD-EFFECT-3: 3♠ Foxhole shields its drawer before T♠ is drawn."""
    s = standard(3)
    events = deal_round(s, {0: H0, 1: H1, 2: H2}, draws=["9h", "6c", "3s", "8c", "Ts", "Ks"])
    assert of_kind(events, "shield")[0].args == {"seat": 2}
    antes = [e.args["seat"] for e in of_kind(events, "ante")]
    assert antes == [1]  # seat 0 drew T♠: seat 1 pays, seat 2 is shielded


def test_kd_effect_3_an_ante_at_a_player_of_ones_choice_needs_one_with_chips() -> None:
    """J♦ Protection racket (any time): the player chosen pays; with nobody else holding chips
    the effect does nothing and says why."""
    s = standard(3)
    deal_round(s, {0: H0, 1: [*H1[:4], "Jd"], 2: H2}, draws=QUIET)
    assert "use Jd" in legal(s)
    act(s, "use Jd")
    assert decision(s) == "choose-target" and legal(s) == ["target p3", "target p1"]
    events = act(s, "target p3")
    assert of_kind(events, "ante")[0].args == {"seat": 2, "amount": 1, "chips": 10, "pot": 4}
    s2 = standard(2)
    deal_round(s2, {0: H0, 1: [*H1[:4], "Jd"]}, draws=QUIET, chips=[0, 12])
    events = act(s2, "use Jd")
    assert of_kind(events, "void")[0].args["rule"] == "KD-EFFECT-3"
    assert chips_total(s2) == 48


def test_kd_effect_4_a_squeeze_lowers_the_others_hand_limit_for_their_discard() -> None:
    """9♣ Infection: the other player keeps four cards at the discard step, the drawer five."""
    s = standard()
    events = deal_round(s, {0: H0, 1: H1}, draws=["9c", *QUIET])
    assert of_kind(events, "squeeze")[0].args == {
        "seat": 1,
        "targets": [0],
        "less": 1,
        "limits": [4],
    }
    assert s.hand_limit(0) == 4 and s.hand_limit(1) == 5
    while decision(s) == "discard":
        options = [a for a in legal(s) if a.startswith("discard")]
        act(s, options[-1])
    assert len(s.hands[0]) == 4 and len(s.hands[1]) == 5
    assert s.observation(None)["modifiers"][0]["hand_limit"] == 4


def test_kd_effect_4_a_hand_limit_never_falls_below_three() -> None:
    """Two squeezes of two (a designer's content) stop at three cards."""
    from apokalypse.games.apokerlypse.content import parse_content

    text = '[content]\nname = "t"\n[card.9c]\ntiming = "draw"\nkind = "squeeze"\nless = 2\n'
    text += '[card.9d]\ntiming = "draw"\nkind = "squeeze"\nless = 2\n'
    content = parse_content(text)
    effects = [e for e in content.effects if e is not None]
    assert [e.less for e in effects] == [2, 2]
    s = new(2, content=text)
    events = deal_round(s, {0: ["2h", "3h", "4h", "5h", "6h"], 1: H1}, draws=["9c", "9d"])
    limits = [e.args["limits"] for e in of_kind(events, "squeeze")]
    assert limits == [[3], [3]] and s.hand_limit(0) == 3


def test_kd_effect_5_drawing_more_takes_cards_that_trigger_nothing() -> None:
    """2♠ Supply drop: one more card from the draw pile; A♠ drawn so is no multiplier."""
    s = standard()
    before = sorted(all_cards(s))
    events = deal_round(s, {0: H0, 1: H1}, draws=["2s", "As", *QUIET])
    assert of_kind(events, "extra")[0].args == {"seat": 1, "count": 1}
    announced = [e.args["card"] for e in of_kind(events, "effect")]
    assert announced == ["2s"]  # A♠ came by the effect: no announcement, no multiplier
    assert len(s.hands[1]) == 8  # five, two drawn, one more
    draws = [e for e in events if e.kind == "draw" and e.args["seat"] == 1]
    assert [e.secret for e in draws] == [{"card": "2s"}, {"card": "As"}, {"card": "9h"}]
    assert all(e.seen_by == frozenset({1}) for e in draws)  # only the drawer sees them
    assert sorted(all_cards(s)) == before


def test_kd_effect_5_a_short_player_draws_nothing() -> None:
    """K-SHORT-1 with KD-EFFECT-5: 5♥ Care package used by a player short of the phase's
    cost."""
    s = standard()
    deal_round(s, {0: H0, 1: [*H1[:4], "5h"]}, draws=QUIET, chips=[12, 0])
    while s.to_act != 1 or decision(s) == "discard":
        options = [a for a in legal(s) if a.startswith("discard")]
        act(s, options[-1])
    assert s.short[1] and "use 5h" in legal(s)
    events = act(s, "use 5h")
    assert of_kind(events, "void")[0].args == {
        "seat": 1,
        "card": "5h",
        "kind": "draw",
        "rule": "K-SHORT-1",
    }
    assert len(s.hands[1]) == 5


def test_kd_effect_5_cards_drawn_in_the_final_scoring_are_drawn_face_up() -> None:
    """KD-EFFECT-5 with K-SCORE-1: A♥ Care crate (two more cards, in the final scoring) draws
    into a hand already revealed, so everybody sees the cards drawn: in the event, in every
    observation, and in what a world sampled for another seat must keep (``determinize``)."""
    s = standard()
    deal_round(s, {0: [*H0[:4], "Ah"], 1: H1}, draws=QUIET)
    while not (decision(s) == "scoring" and s.to_act == 0):
        options = legal(s)
        discards = [o for o in options if o.startswith("discard ") and o != "discard Ah"]
        act(s, discards[-1] if discards else default_action(s))
    assert "use Ah" in legal(s)
    events = act(s, "use Ah")
    draws = [e for e in events if e.kind == "draw"]
    assert len(draws) == 2 and all(e.secret is None and e.seen_by == frozenset() for e in draws)
    drawn = [e.args["card"] for e in draws]
    for viewer in (None, 0, 1):
        revealed = s.observation(viewer)["revealed"][0]
        assert revealed is not None and set(drawn) <= set(revealed), (viewer, revealed)
    for seed in range(20):
        world = s.determinize(1, Rng(seed))
        assert world.observation(1) == s.observation(1), seed
