"""Violence, Ethos change and the out-of-turn defence (R-ATTACK, D-ATTACK-1, V-ETHOS-ORPHANS)."""

from __future__ import annotations

import pytest

from apokalypse.engine.errors import IllegalAction
from apokalypse.games.apokalypse import parse_action
from apokalypse.games.apokalypse.cards import EVIL, GOOD
from apokalypse.games.apokalypse.dealing import CAPITAL, POPULATION, serving_slots
from apokalypse.games.apokalypse.horsemen import side_protection
from apokalypse.games.apokalypse.pending import ChooseDestination, Defence, Turn
from tests.apokalypse.builders import (
    act,
    all_cards,
    blank,
    codes,
    decline_all,
    hand,
    kinds,
    populaces,
    put,
    row,
)


def _targets(s, code: str) -> list[str]:
    act(s, f"play {code} attack")
    return sorted(str(a) for a in s.legal_actions())


def _asked(s) -> list[int]:
    """Decline through the whole defence window, returning who was asked, in order."""
    asked = []
    while isinstance(s.pending, Defence):
        asked.append(s.pending.player)
        act(s, "decline")
    return asked


# --- R-ATTACK-1: the outermost populace of one side of any display ----------------------------


def test_r_attack_1_any_display_own_included_only_sides_with_populaces():
    s = blank(4)
    populaces(s, 0, good=2)
    populaces(s, 2, evil=1)
    hand(s, 0, "violence")
    assert _targets(s, "violence") == ["target p1.good", "target p3.evil"]


def test_r_attack_1_basic_populaces_are_never_targets():
    s = blank(4)
    hand(s, 0, "violence", "ethos")
    assert [str(a) for a in s.legal_actions()] == ["pass"]
    with pytest.raises(IllegalAction) as err:
        act(s, "play violence attack")
    assert err.value.rule == "R-ATTACK-1"


def test_r_attack_1_violence_hits_the_outermost_populace_only():
    """R-ATTACK-1/R-ATTACK-2: the populace at the highest position goes, the inner ones stay."""
    s = blank(4)
    put(s, 1, "good", "earth", "pop", "pop", "pop")
    put(s, 1, "good", "heaven", "m/hp", "h/mp")
    hand(s, 0, "violence")
    act(s, "play violence attack", "target p2.good")
    _asked(s)
    assert row(s, 1, "good", "earth") == ["pop", "pop"]
    assert row(s, 1, "good", "heaven") == ["m/hp", "h/mp"]  # the dead one had no Heaven card


def test_r_attack_1_music_over_or_under_the_outermost_makes_it_immune():
    """R-ATTACK-1 with R-PLAY-17: music at the outermost position blocks, inner music does not."""
    s = blank(4)
    put(s, 1, "good", "earth", "pop")
    put(s, 1, "good", "heaven", "church")
    put(s, 2, "evil", "earth", "pop")
    put(s, 2, "evil", "nether", "metal")
    put(s, 3, "good", "earth", "pop", "pop")
    put(s, 3, "good", "heaven", "church")  # protects position 0, not the outermost at 1
    hand(s, 0, "violence")
    assert _targets(s, "violence") == ["target p4.good"]


def test_r_attack_1_especially_good_or_evil_immune_to_ethos_change_not_violence():
    """R-ATTACK-1 with R-PLAY-6."""
    s = blank(4)
    put(s, 1, "good", "earth", "saint")
    put(s, 2, "evil", "earth", "fiend")
    put(s, 3, "good", "earth", "saint", "pop")  # the saint is not outermost here
    hand(s, 0, "ethos", "violence")
    assert _targets(s, "ethos") == ["target p4.good"]
    s.pending = Turn(0)
    assert _targets(s, "violence") == ["target p2.good", "target p3.evil", "target p4.good"]


def test_r_attack_1_immune_target_is_refused_with_the_rule():
    s = blank(4)
    put(s, 1, "good", "earth", "saint")
    populaces(s, 2, evil=1)
    hand(s, 0, "ethos")
    act(s, "play ethos attack")
    with pytest.raises(IllegalAction) as err:
        act(s, "target p2.good")
    assert err.value.rule == "R-PLAY-6"


def _first_step_refusal(s, code: str) -> IllegalAction:
    assert f"play {code} attack" not in [str(a) for a in s.legal_actions()]
    with pytest.raises(IllegalAction) as err:
        act(s, f"play {code} attack")
    return err.value


def test_r_play_17_first_step_names_music_when_every_outermost_populace_has_music():
    """R-PLAY-17, not R-ATTACK-1: there are populaces to attack, but music shields each one."""
    s = blank(4)
    populaces(s, 1, good=1)
    put(s, 1, "good", "heaven", "church")
    populaces(s, 2, evil=1)
    put(s, 2, "evil", "nether", "seal")
    hand(s, 0, "violence", "ethos")
    for code in ("violence", "ethos"):
        err = _first_step_refusal(s, code)
        assert (err.rule, err.key) == ("R-PLAY-17", "attack.all-music")


def test_r_play_6_first_step_names_the_persons_when_ethos_change_finds_only_them():
    """R-PLAY-6: every outermost populace is an especially good or evil person."""
    s = blank(4)
    put(s, 1, "good", "earth", "saint")
    put(s, 2, "evil", "earth", "pop", "fiend")
    hand(s, 0, "ethos")
    err = _first_step_refusal(s, "ethos")
    assert (err.rule, err.key) == ("R-PLAY-6", "attack.all-persons")


def test_r_play_17_r_play_6_first_step_mixed_reasons_name_the_commoner_one():
    """Music shields two sides and a person a third: R-PLAY-17 explains most of them; the
    reason names both shields."""
    s = blank(4)
    populaces(s, 1, good=1, evil=1)
    put(s, 1, "good", "heaven", "church")
    put(s, 1, "evil", "nether", "metal")
    put(s, 2, "evil", "earth", "fiend")
    hand(s, 0, "ethos")
    err = _first_step_refusal(s, "ethos")
    assert (err.rule, err.key) == ("R-PLAY-17", "attack.all-shielded")
    put(s, 3, "good", "earth", "saint")
    put(s, 3, "evil", "earth", "fiend")
    err = _first_step_refusal(s, "ethos")
    assert (err.rule, err.key) == ("R-PLAY-6", "attack.all-shielded")


def test_r_attack_1_first_step_without_any_populace_to_attack():
    s = blank(4)
    hand(s, 0, "violence")
    err = _first_step_refusal(s, "violence")
    assert (err.rule, err.key) == ("R-ATTACK-1", "attack.no-target")


# --- R-ATTACK-2: Violence ------------------------------------------------------------------


def test_r_attack_2_violence_discards_populace_with_its_heaven_and_nether_cards():
    s = blank(4)
    put(s, 1, "evil", "earth", "pop", "pop")
    put(s, 1, "evil", "nether", "pig", "job/drugs")
    put(s, 1, "evil", "heaven", "h/mp", "p/mh")
    hand(s, 0, "violence")
    before = sorted(all_cards(s))
    events = act(s, "play violence attack", "target p2.evil") + decline_all(s)
    assert kinds(events) == ["attack", "killed"]  # nobody holds a defence card
    assert row(s, 1, "evil", "earth") == ["pop"]
    assert row(s, 1, "evil", "nether") == ["pig"]
    assert row(s, 1, "evil", "heaven") == ["h/mp"]
    discarded = [s.code(c) for c in s.discards[0] + s.discards[1]]
    assert {"job/drugs", "p/mh", "violence", "m/hp"} <= set(discarded)  # m/hp: the B populace
    assert sorted(all_cards(s)) == before
    assert s.pending == Turn(1)


# --- R-ATTACK-3: Ethos change --------------------------------------------------------------


def _converting(players: int = 4, variants: tuple[str, ...] = ()):
    s = blank(players, variants=variants)
    hand(s, 0, "ethos")
    return s


def test_r_attack_3_attacker_chooses_any_display_with_to_pn():
    s = _converting()
    populaces(s, 1, good=1)
    act(s, "play ethos attack", "target p2.good")
    _asked(s)
    assert s.pending == ChooseDestination(0, 1, GOOD)
    assert sorted(str(a) for a in s.legal_actions()) == ["to p1", "to p2", "to p3", "to p4"]


def test_r_attack_3_bundle_moves_flipped_to_the_opposite_side_as_outermost():
    s = _converting()
    put(s, 1, "good", "earth", "pop", "pop")
    put(s, 1, "good", "heaven", "h/mp", "m/hp")
    put(s, 1, "good", "nether", "pig", "job/drugs")
    populaces(s, 2, evil=1)
    act(s, "play ethos attack", "target p2.good")
    _asked(s)
    events = act(s, "to p3")
    assert "converted" in kinds(events)
    assert row(s, 1, "good", "earth") == ["pop"]
    assert row(s, 1, "good", "heaven") == ["h/mp"]
    assert row(s, 1, "good", "nether") == ["pig"]
    assert row(s, 2, "evil", "earth") == ["pop", "pop"]
    assert row(s, 2, "evil", "heaven") == ["m/hp"]
    assert row(s, 2, "evil", "nether") == ["job/drugs"]


def test_r_attack_3_icons_flip_to_the_other_half():
    """m/hp showed its mask on the good side; on the evil side it shows helmet and pig."""
    s = _converting()
    put(s, 1, "good", "earth", "pop")
    put(s, 1, "good", "heaven", "m/hp")
    assert side_protection(s, 1, GOOD) == (0, 1, 0, 0)
    act(s, "play ethos attack", "target p2.good")
    _asked(s)
    act(s, "to p2")
    assert row(s, 1, "evil", "heaven") == ["m/hp"]
    assert side_protection(s, 1, EVIL) == (0, 0, 1, 1)
    assert side_protection(s, 1, GOOD) == (0, 0, 0, 0)


def test_r_attack_3_dual_cards_flip_to_the_other_half():
    """Drugs (+1K, evil half) under a converted evil populace becomes Job (+1K, good half):
    dealt after the good populaces as D-DEAL-2 says; Sex (+1B) becomes Chastity (−1B)."""
    s = _converting()
    put(s, 1, "evil", "earth", "pop", "pop")
    put(s, 1, "evil", "nether", "chastity/sex", "job/drugs")
    put(s, 2, "evil", "earth", "pop")
    put(s, 2, "evil", "nether", "chastity/sex")
    assert serving_slots(s, 1, CAPITAL) == [1, 1, 2]
    act(s, "play ethos attack", "target p2.evil")
    _asked(s)
    act(s, "to p2")
    assert row(s, 1, "good", "nether") == ["job/drugs"]
    assert serving_slots(s, 1, CAPITAL) == [1, 1, 1]  # Drugs → Job: still +1K, from the good side
    s2 = _converting()
    put(s2, 1, "evil", "earth", "pop")
    put(s2, 1, "evil", "nether", "chastity/sex")
    assert serving_slots(s2, 1, POPULATION) == [1, 1]  # Sex: +1B
    act(s2, "play ethos attack", "target p2.evil")
    _asked(s2)
    act(s2, "to p2")
    assert serving_slots(s2, 1, POPULATION) == [1, 0]  # Chastity: −1B


def test_r_attack_3_cards_join_the_outermost_free_position_not_their_populace():
    """The Heaven card of a converted good populace lands at the first free Heaven position of
    the evil side, over whatever populace lies there."""
    s = _converting()
    put(s, 1, "good", "earth", "pop")
    put(s, 1, "good", "heaven", "p/mh")
    put(s, 2, "evil", "earth", "pop", "pop")
    put(s, 2, "evil", "nether", "mask")
    act(s, "play ethos attack", "target p2.good")
    _asked(s)
    act(s, "to p3")
    assert row(s, 2, "evil", "earth") == ["pop", "pop", "pop"]
    assert row(s, 2, "evil", "heaven") == ["p/mh"]  # position 0, over the first evil populace
    assert row(s, 2, "evil", "nether") == ["mask"]


def test_r_attack_3_no_good_or_evil_deed_happens():
    s = _converting()
    hand(s, 0, "m/hp")
    hand(s, 2, "h/mp")
    populaces(s, 1, evil=1)
    act(s, "play ethos attack", "target p2.evil")
    _asked(s)
    events = act(s, "to p1")
    assert row(s, 0, "good", "earth") == ["pop"]
    assert "gift" not in kinds(events) and "steal" not in kinds(events)
    assert codes(s, 0) == ["m/hp"] and codes(s, 2) == ["h/mp"]
    assert s.pending == Turn(1)


# --- R-ATTACK-4 / D-ATTACK-1: the defence window --------------------------------------------


def test_r_attack_4_window_runs_clockwise_from_the_attacker():
    s = blank(4, to_act=2)
    populaces(s, 0, good=1)
    hand(s, 2, "violence")
    for seat in (0, 1, 3):
        hand(s, seat, "church")
    act(s, "play violence attack", "target p1.good")
    assert _asked(s) == [3, 0, 1]


def test_r_attack_4_passed_players_may_defend():
    s = blank(4)
    populaces(s, 2, good=1)
    hand(s, 1, "ethos")
    hand(s, 2, "church")
    act(s, "pass")
    assert s.passed[0] and s.pending == Turn(1)
    hand(s, 0, "metal")
    hand(s, 1, "violence")
    act(s, "play violence attack", "target p3.good")
    assert s.pending.player == 2
    act(s, "decline")
    assert s.pending.player == 3  # holds nothing, asked all the same
    act(s, "decline")
    assert s.pending.player == 0  # passed, still asked
    events = act(s, "defend metal")
    assert kinds(events)[0] == "defend"
    assert row(s, 2, "good", "earth") == ["pop"]


def test_r_attack_4_players_without_a_fitting_defence_card_are_asked_and_can_only_decline():
    """Seat 2 holds only Violence, which does not defend against Violence; seat 3 holds nothing.
    They are asked all the same: a window that opened only when somebody can defend would tell
    everyone that somebody can (R-INFO-3)."""
    s = blank(4)
    populaces(s, 1, good=1)
    hand(s, 0, "violence")
    hand(s, 1, "ethos")
    hand(s, 2, "violence", "m/hp", "job/drugs")
    act(s, "play violence attack", "target p2.good")
    assert _asked(s.clone()) == [1, 2, 3]
    assert [str(a) for a in s.legal_actions()] == ["decline", "defend ethos"]
    act(s, "decline")
    assert [str(a) for a in s.legal_actions()] == ["decline"]
    act(s, "decline")
    assert [str(a) for a in s.legal_actions()] == ["decline"]
    events = act(s, "decline")
    assert kinds(events)[0] == "killed"


def test_r_attack_4_the_window_looks_the_same_whether_or_not_anyone_can_defend():
    """R-INFO-3: the public view of a defence window does not depend on the hands."""
    views = []
    for defender_hand in ((), ("church",)):
        s = blank(3)
        populaces(s, 1, good=1)
        hand(s, 0, "violence")
        hand(s, 1, "m/hp")
        hand(s, 2, "job/drugs")
        if defender_hand:
            s.hands[2].pop()
            hand(s, 2, *defender_hand)
        act(s, "play violence attack", "target p2.good")
        # Where the test took the defender's card from is no part of the window.
        views.append({k: v for k, v in s.observation(0).items() if k not in ("discards", "decks")})
    assert views[0] == views[1]
    assert views[0]["to_act"] is None and views[0]["decision"] == "defence"


@pytest.mark.parametrize("defence", ["ethos", "church", "metal"])
def test_r_attack_4_violence_is_defended_by_ethos_change_or_music(defence):
    s = blank(3)
    populaces(s, 1, good=1)
    hand(s, 0, "violence")
    hand(s, 1, defence)
    act(s, "play violence attack", "target p2.good")
    assert [str(a) for a in s.legal_actions()] == ["decline", f"defend {defence}"]
    act(s, f"defend {defence}")
    assert row(s, 1, "good", "earth") == ["pop"]


@pytest.mark.parametrize("defence", ["violence", "church", "metal"])
def test_r_attack_4_ethos_change_is_defended_by_violence_or_music(defence):
    s = blank(3)
    populaces(s, 1, good=1)
    hand(s, 0, "ethos")
    hand(s, 1, defence)
    act(s, "play ethos attack", "target p2.good")
    assert [str(a) for a in s.legal_actions()] == ["decline", f"defend {defence}"]
    act(s, f"defend {defence}")
    assert row(s, 1, "good", "earth") == ["pop"]
    assert s.pending == Turn(1)


def test_r_attack_4_a_card_of_the_attack_kind_does_not_defend():
    s = blank(3)
    populaces(s, 1, good=1)
    hand(s, 0, "ethos")
    hand(s, 1, "ethos", "violence")
    act(s, "play ethos attack", "target p2.good")
    before = s.clone()
    for text in ("defend ethos", "defend seal", "defend m/hp"):
        with pytest.raises(IllegalAction) as err:
            s.apply(parse_action(text))
        assert err.value.rule == "R-ATTACK-4"
    assert s.pending == before.pending and s.hands == before.hands


def test_r_attack_4_first_defence_ends_the_attack_and_both_cards_are_discarded():
    s = blank(4)
    populaces(s, 3, evil=1)
    hand(s, 0, "violence")
    hand(s, 1, "church")
    hand(s, 2, "ethos")
    hand(s, 3, "metal")
    act(s, "play violence attack", "target p4.evil")
    events = act(s, "defend church")
    assert kinds(events) == ["defend"]
    assert s.pending == Turn(1)  # no more asking; the turn passes on from the attacker
    assert [s.code(c) for c in s.discards[1]][-2:] == ["violence", "church"]
    assert s.table_cards == []
    assert codes(s, 2) == ["ethos"] and codes(s, 3) == ["metal"]
    assert row(s, 3, "evil", "earth") == ["pop"]


def test_r_attack_4_an_undefended_attack_goes_through_after_all_decline():
    s = blank(4)
    populaces(s, 3, evil=1)
    hand(s, 0, "violence")
    hand(s, 1, "church")
    hand(s, 3, "metal")
    act(s, "play violence attack", "target p4.evil", "decline", "decline")
    assert s.pending.player == 3  # the attacked player is asked too
    events = act(s, "decline")
    assert kinds(events) == ["killed"]
    assert row(s, 3, "evil", "earth") == []


def test_d_attack_1_the_attacker_cannot_defend_their_own_attack():
    s = blank(3)
    populaces(s, 1, good=1)
    hand(s, 0, "violence", "church", "ethos")
    assert _asked(s.clone()) == []  # not yet attacked
    act(s, "play violence attack", "target p2.good")
    assert _asked(s.clone()) == [1, 2]  # the others only, never the attacker
    events = decline_all(s)
    assert kinds(events) == ["killed"]
    assert codes(s, 0) == ["church", "ethos"]


# --- V-ETHOS-ORPHANS ------------------------------------------------------------------------


def _orphan_case(variants: tuple[str, ...], from_side: str):
    """A good populace with only a Heaven card, or an evil one with only a Netherworld card,
    converted into seat 2's empty display."""
    s = _converting(variants=variants)
    put(s, 1, from_side, "earth", "pop")
    if from_side == "good":
        put(s, 1, "good", "heaven", "mh/p")
    else:
        put(s, 1, "evil", "nether", "helmet")
    act(s, "play ethos attack", f"target p2.{from_side}")
    _asked(s)
    return s, act(s, "to p3")


def test_v_ethos_orphans_default_keeps_nether_card_of_good_populace_without_heaven():
    s, events = _orphan_case((), "evil")
    assert row(s, 2, "good", "earth") == ["pop"]
    assert row(s, 2, "good", "heaven") == []
    assert row(s, 2, "good", "nether") == ["helmet"]
    assert events[0].args["orphans"] == []


def test_v_ethos_orphans_variant_discards_nether_card_of_good_populace_without_heaven():
    s, events = _orphan_case(("V-ETHOS-ORPHANS",), "evil")
    assert row(s, 2, "good", "nether") == []
    assert events[0].args["orphans"] == ["helmet"]
    assert "helmet" in [s.code(c) for c in s.discards[1]]


def test_v_ethos_orphans_default_keeps_heaven_card_of_evil_populace_without_nether():
    s, _ = _orphan_case((), "good")
    assert row(s, 2, "evil", "heaven") == ["mh/p"]
    assert row(s, 2, "evil", "nether") == []


def test_v_ethos_orphans_variant_discards_heaven_card_of_evil_populace_without_nether():
    s, events = _orphan_case(("V-ETHOS-ORPHANS",), "good")
    assert row(s, 2, "evil", "heaven") == []
    assert events[0].args["orphans"] == ["mh/p"]
