"""The horsemen and the reckoning (R-HORSE, D-HORSE-1, D-HORSE-2) with the rulebook's worked
examples A, B and C (German rules of 23.01.2009, section VII)."""

from __future__ import annotations

from apokalypse.games.apokalypse import horsemen
from apokalypse.games.apokalypse.horsemen import losses
from apokalypse.games.apokalypse.pending import PlaceSeal
from tests.apokalypse.builders import (
    all_cards,
    blank,
    kinds,
    legal_texts,
    populaces,
    put,
    reward,
    row,
)


def _ride(s, number: int):
    s.horseman = number
    return horsemen.ride(s, [])


# --- R-HORSE-1: the good side -----------------------------------------------------------------


def test_r_horse_1_icons_in_heaven_and_nether_plus_church_music_protect_good_populaces():
    s = blank(2)
    put(s, 0, "good", "earth", "pop", "pop", "pop", "pop", "pop")
    put(s, 0, "good", "heaven", "m/hp", "church", "mh/p")
    put(s, 0, "good", "nether", "mask")
    assert losses(s, 0, 1) == (1, 0)  # 3 masks + 1 music protect 4 of 5


def test_r_horse_1_only_visible_icons_of_that_horsemans_kind_count():
    """hp/m shows helmet and pig on the good side; its mask half is covered."""
    s = blank(2)
    put(s, 0, "good", "earth", "pop", "pop")
    put(s, 0, "good", "heaven", "hp/m", "hp/m")
    assert losses(s, 0, 1) == (2, 0)
    assert losses(s, 0, 2) == (0, 0)
    assert losses(s, 0, 3) == (0, 0)


def test_r_horse_1_a_seal_over_a_good_populace_counts_as_church_music():
    s = blank(2)
    put(s, 0, "good", "earth", "pop", "pop")
    put(s, 0, "good", "heaven", "seal", "hp/m")
    assert losses(s, 0, 1) == (1, 0)
    assert losses(s, 0, 2) == (0, 0)


def test_r_horse_1_dual_cards_give_no_protection():
    s = blank(2)
    put(s, 0, "good", "earth", "pop")
    put(s, 0, "good", "heaven", "h/mp")
    put(s, 0, "good", "nether", "job/drugs")
    assert losses(s, 0, 1) == (1, 0)


def test_r_horse_1_the_basic_populace_never_dies_nor_needs_protection():
    s = blank(2)
    assert losses(s, 0, 1) == (0, 0)
    events = _ride(s, 1)
    assert "deaths" not in kinds(events)
    assert s.scores == [(0, 0)]


def test_r_horse_1_die_from_the_outside_in_regardless_of_where_the_icons_lie():
    """Both masks lie on the two outermost populaces: they protect two, and die with them."""
    s = blank(2)
    put(s, 0, "good", "earth", "saint", "pop", "pop", "pop")
    put(s, 0, "good", "heaven", "hp/m", "hp/m", "m/hp", "mh/p")
    events = _ride(s, 1)
    assert {"seat": 0, "good": 2, "evil": 0} in [e.args for e in events if e.kind == "deaths"]
    assert row(s, 0, "good", "earth") == ["saint", "pop"]
    assert row(s, 0, "good", "heaven") == ["hp/m", "hp/m"]


# --- R-HORSE-2: surplus passes from good to evil only, within one display ------------------------


def test_r_horse_2_surplus_passes_good_to_evil():
    s = blank(2)
    put(s, 0, "good", "earth", "pop")
    put(s, 0, "good", "heaven", "p/mh")
    put(s, 0, "good", "nether", "pig")
    populaces(s, 0, evil=2)
    assert losses(s, 0, 3) == (0, 1)


def test_r_horse_2_evil_counts_own_icons_and_heavy_metal():
    s = blank(2)
    put(s, 0, "evil", "earth", "pop", "pop", "pop", "pop")
    put(s, 0, "evil", "nether", "metal", "helmet", "job/drugs")
    put(s, 0, "evil", "heaven", "p/mh", "m/hp")  # right halves: mask+helmet, helmet+pig
    assert losses(s, 0, 2) == (0, 0)  # metal + 3 helmets
    assert losses(s, 0, 1) == (0, 2)  # metal + 1 mask
    assert losses(s, 0, 3) == (0, 2)  # metal + 1 pig


def test_r_horse_2_evil_surplus_never_passes_to_good():
    s = blank(2)
    put(s, 0, "evil", "earth", "pop")
    put(s, 0, "evil", "nether", "metal")
    put(s, 0, "evil", "heaven", "m/hp")  # helmet + pig visible: unused by the evil side
    populaces(s, 0, good=1)
    assert losses(s, 0, 2) == (1, 0)
    assert losses(s, 0, 3) == (1, 0)


def test_r_horse_2_protection_never_passes_to_another_player():
    s = blank(2)
    put(s, 0, "good", "earth", "pop")
    put(s, 0, "good", "heaven", "church")
    put(s, 0, "good", "nether", "mask")  # one spare unit, and seat 0 has no evil populace
    populaces(s, 1, evil=1)
    assert losses(s, 0, 1) == (0, 0)
    assert losses(s, 1, 1) == (0, 1)


# --- R-HORSE-3: the dead ----------------------------------------------------------------------


def test_r_horse_3_cards_of_the_dead_are_discarded_and_the_dead_follow_after_the_reckoning():
    s = blank(2)
    put(s, 0, "good", "earth", "pop", "saint")
    put(s, 0, "good", "heaven", "h/mp", "mp/h")  # one mask: one of two good populaces
    put(s, 0, "good", "nether", "job/drugs", "pig")
    put(s, 0, "evil", "earth", "fiend")
    put(s, 0, "evil", "nether", "chastity/sex")
    rows = s.displays[0]
    gone = {rows[0][1], rows[1][1], rows[2][1], rows[4][0], rows[5][0]}
    before = sorted(all_cards(s))
    events = _ride(s, 1)
    assert row(s, 0, "good", "earth") == ["pop"]
    assert row(s, 0, "good", "heaven") == ["h/mp"]
    assert row(s, 0, "good", "nether") == ["job/drugs"]
    assert row(s, 0, "evil", "earth") == []
    assert row(s, 0, "evil", "nether") == []
    order = kinds(events)
    assert order.index("deaths") < order.index("reckoning") < order.index("refill")
    assert sorted(all_cards(s)) == before
    # Discarded (then shuffled back into the decks by R-REFILL-1), not kept anywhere else.
    assert gone <= {c for d in s.decks for c in d}


def test_r_horse_3_seal_of_a_dead_populace_returns_to_the_seal_supply():
    """With D-REWARD-2: the seal leaves the display, so it goes back to the supply."""
    s = blank(2)
    put(s, 0, "evil", "earth", "pop", "pop", "pop")
    put(s, 0, "evil", "nether", "mask", "mask", "seal")
    supply = len(s.seal_supply)
    events = _ride(s, 2)  # one music, no helmet: the two outermost die, the seal with them
    assert row(s, 0, "evil", "nether") == ["mask"]
    assert "seal-declined" not in kinds(events)
    assert len(s.seal_supply) == supply + 1
    # seat 0 earns a seal (R-REWARD-3); its only use is in place of the mask (R-PLAY-14)
    assert s.pending == PlaceSeal(0, ())
    assert legal_texts(s) == {"target p1.evil.nether.0"}


# --- R-HORSE-4 / D-HORSE-1: death ---------------------------------------------------------------


def test_r_horse_4_each_populace_needs_a_complete_set_or_music():
    s = blank(2)
    put(s, 0, "good", "earth", "pop", "pop", "pop")
    put(s, 0, "good", "heaven", "m/hp", "h/mp", "church")  # mask, helmet, music
    put(s, 0, "good", "nether", "pig", "mask")
    assert losses(s, 0, 4) == (1, 0)  # the music and one set: two of three
    assert losses(s, 0, 1) == (0, 0)  # horseman 1 would have been content with masks


def test_r_horse_4_heavy_metal_protects_an_evil_populace():
    s = blank(2)
    put(s, 0, "evil", "earth", "pop", "pop")
    put(s, 0, "evil", "nether", "metal")
    assert losses(s, 0, 4) == (0, 1)


def test_r_horse_4_owned_horseman_card_removes_the_need_for_its_icon():
    s = blank(2)
    put(s, 0, "good", "earth", "pop", "pop")
    put(s, 0, "good", "heaven", "hp/m", "hp/m")  # helmets and pigs, no mask
    assert losses(s, 0, 4) == (2, 0)
    reward(s, 0, 1)
    assert losses(s, 0, 4) == (0, 0)


def test_r_horse_4_two_horseman_cards_leave_one_icon_to_find():
    s = blank(2)
    put(s, 0, "good", "earth", "pop", "pop", "pop")
    put(s, 0, "good", "heaven", "p/mh", "h/mp")  # one pig
    reward(s, 0, 1, 2)
    assert losses(s, 0, 4) == (2, 0)


def test_r_horse_4_all_three_horseman_cards_mean_no_losses():
    s = blank(4)
    populaces(s, 0, good=3, evil=4)
    reward(s, 0, 1, 2, 3)
    assert losses(s, 0, 4) == (0, 0)
    assert losses(s, 1, 4) == (0, 0)  # seat 1 owns nothing but has no populaces


def test_d_horse_1_good_side_uses_music_first_and_unused_icons_pass_to_evil():
    """The good populace is saved by its Church Music; its unused mask completes the evil
    side's set of helmet and pig."""
    s = blank(2)
    put(s, 0, "good", "earth", "pop")
    put(s, 0, "good", "heaven", "church")
    put(s, 0, "good", "nether", "mask")
    put(s, 0, "evil", "earth", "pop")
    put(s, 0, "evil", "nether", "pig")
    put(s, 0, "evil", "heaven", "mp/h")  # right half: helmet
    assert losses(s, 0, 4) == (0, 0)


# --- R-HORSE-5 / D-HORSE-2: the reckoning --------------------------------------------------------


def test_r_horse_5_score_is_populaces_left_minus_populaces_killed_written_publicly():
    s = blank(3)
    put(s, 0, "good", "earth", "pop", "pop", "pop")
    put(s, 0, "good", "heaven", "m/hp")
    populaces(s, 1, evil=2)
    put(s, 1, "evil", "nether", "metal", "mask")
    events = _ride(s, 1)
    assert s.scores == [(1 - 2, 2, 0)]
    assert [e.args for e in events if e.kind == "reckoning"] == [
        {"number": 1, "scores": [-1, 2, 0]}
    ]
    assert kinds(events)[0] == "ride"


def test_d_horse_2_basic_populaces_do_not_count_and_scores_may_be_negative():
    s = blank(2)
    populaces(s, 0, good=3)
    events = _ride(s, 1)
    assert s.scores[-1] == (-3, 0)
    assert s.populaces(0) == 0
    assert "reckoning" in kinds(events)


# --- Worked examples of the 2009 rulebook, section VII -----------------------------------------


def test_example_a_annelie_three_masks_and_a_church_music_protect_four_of_six():
    """R-HORSE-1, Beispiel A: six good populaces, three masks and one Church Music: the two
    outermost good populaces die and the cards over or under them are discarded."""
    s = blank(4)  # the 2–3 player deck has too few B cards for this display
    put(s, 0, "good", "earth", *["pop"] * 6)
    put(s, 0, "good", "heaven", "church", "m/hp", "hp/m", "mh/p", "mp/h", "h/mp")
    put(s, 0, "good", "nether", "job/drugs", "helmet", "pig", "helmet", "chastity/sex")
    put(s, 0, "evil", "earth", "pop")
    put(s, 0, "evil", "nether", "metal")
    assert losses(s, 0, 1) == (2, 0)
    _ride(s, 1)
    assert row(s, 0, "good", "earth") == ["pop"] * 4
    assert row(s, 0, "good", "heaven") == ["church", "m/hp", "hp/m", "mh/p"]
    assert row(s, 0, "good", "nether") == ["job/drugs", "helmet", "pig", "helmet"]
    assert row(s, 0, "evil", "earth") == ["pop"]
    assert s.scores[-1][0] == 5 - 2


def test_example_b_kurt_two_surplus_helmets_save_two_of_three_evil_populaces():
    """R-HORSE-2, Beispiel B: three good populaces with three helmets (two in the
    Netherworld) and two Church Music; three unprotected evil populaces: one dies."""
    s = blank(2)
    put(s, 0, "good", "earth", "pop", "pop", "pop")
    put(s, 0, "good", "heaven", "h/mp", "church", "church")
    put(s, 0, "good", "nether", "helmet", "helmet")
    put(s, 0, "evil", "earth", "pop", "pop", "pop")
    assert losses(s, 0, 2) == (0, 1)
    _ride(s, 2)
    assert row(s, 0, "good", "earth") == ["pop"] * 3
    assert row(s, 0, "evil", "earth") == ["pop"] * 2
    assert s.scores[-1][0] == 5 - 1


def test_example_c_paul_four_good_three_evil_after_losing_two_scores_five():
    """R-HORSE-5, Beispiel C: after the first horseman Paul has 4 good and 3 evil populaces
    and lost two: 7 − 2 = 5 points."""
    s = blank(4)
    put(s, 0, "good", "earth", *["pop"] * 6)
    put(s, 0, "good", "heaven", "mh/p", "mp/h", "mh/p", "mp/h")
    put(s, 0, "evil", "earth", "pop", "pop", "pop")
    put(s, 0, "evil", "nether", "metal", "metal", "mask")
    _ride(s, 1)
    assert (len(row(s, 0, "good", "earth")), len(row(s, 0, "evil", "earth"))) == (4, 3)
    assert s.scores == [(5, 0, 0, 0)]
