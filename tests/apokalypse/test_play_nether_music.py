"""Playing cards into displays: the Netherworld and music (R-PLAY-11 … R-PLAY-17)."""

from __future__ import annotations

import pytest

from apokalypse.engine.errors import IllegalAction
from apokalypse.games.apokalypse.dealing import serving_slots
from tests.apokalypse.builders import (
    act,
    blank,
    decline_all,
    hand,
    kinds,
    legal_texts,
    on_turn,
    populaces,
    put,
    refused,
    row,
)

# --- R-PLAY-11 … R-PLAY-14: the Netherworld ----------------------------------------------------


def test_r_play_11_netherworld_takes_netherworld_cards_and_heavy_metal() -> None:
    s = blank(4)
    populaces(s, 0, evil=3)
    hand(s, 0, "mask", "job/drugs", "metal", "h/mp", "violence", "saint")
    assert {"play mask nether", "play job/drugs nether", "play metal nether"} <= legal_texts(s)
    refused(s, "R-PLAY-11", "play h/mp nether", "play violence nether", "play saint nether")
    act(s, "play job/drugs nether")
    refused(s, "R-PLAY-11", "target p1.evil.heaven")


def test_r_play_12_evil_netherworld_needs_a_populace_above() -> None:
    s = blank(4)
    populaces(s, 0, evil=1)
    populaces(s, 1, evil=1)
    put(s, 1, "evil", "nether", "pig")
    hand(s, 0, "mask")
    act(s, "play mask nether")
    assert legal_texts(s) == {"target p1.evil.nether", "target p2.evil.nether.0"}
    refused(s, "R-PLAY-12", "target p2.evil.nether", "target p3.evil.nether")
    act(s, "target p1.evil.nether")
    assert row(s, 0, "evil", "nether") == ["mask"]


def test_r_play_12_good_netherworld_needs_heaven_above() -> None:
    s = blank(4)
    populaces(s, 0, good=2, evil=1)
    put(s, 0, "good", "heaven", "h/mp")
    hand(s, 0, "mask", "pig")
    act(s, "play mask nether")
    assert "target p1.good.nether" in legal_texts(s)
    act(s, "target p1.good.nether")
    assert row(s, 0, "good", "nether") == ["mask"]
    hand(s, 1, "pig")
    act(s, "play pig nether")
    refused(s, "R-PLAY-12", "target p1.good.nether")  # populace 1 has no Heaven card


def test_r_play_13_sides_show_their_half_heavy_metal_only_evil() -> None:
    s = blank(4)
    populaces(s, 0, good=1, evil=1)
    put(s, 0, "good", "heaven", "h/mp")
    hand(s, 0, "piety/gambling", "metal")
    metal = s.clone()
    act(s, "play piety/gambling nether", "target p1.good.nether")
    assert serving_slots(s, 0, 0) == [1, 2]  # Piety +1B
    hand(s, 1, "piety/gambling", "pig")
    icon = s.clone()
    act(s, "play piety/gambling nether", "target p1.evil.nether")
    assert serving_slots(s, 0, 1) == [1, 0]  # Gambling −1K
    act(metal, "play metal nether")
    assert legal_texts(metal) == {"target p1.evil.nether"}
    refused(metal, "R-PLAY-13", "target p1.good.nether")
    act(icon, "play pig nether")  # an icon card fits both sides (good side now full)
    assert legal_texts(icon) == {"target p1.evil.nether"}
    populaces(icon, 1, good=1)
    put(icon, 1, "good", "heaven", "mh/p")
    assert legal_texts(icon) == {"target p1.evil.nether", "target p2.good.nether"}


def test_r_play_13_first_step_heavy_metal_with_netherworld_places_only_on_the_good_side() -> None:
    """R-PLAY-13, not R-PLAY-12: the Netherworld has an open place, but only under a good
    populace."""
    s = blank(4)
    populaces(s, 1, good=1)
    put(s, 1, "good", "heaven", "h/mp")
    hand(s, 0, "metal", "pig")
    assert "play pig nether" in legal_texts(s)
    assert "play metal nether" not in legal_texts(s)
    refused(s, "R-PLAY-13", "play metal nether")
    with pytest.raises(IllegalAction) as err:
        act(s, "play metal nether")
    assert err.value.key == "play.metal-no-evil-place"
    empty = blank(4)
    hand(empty, 0, "metal")
    refused(empty, "R-PLAY-12", "play metal nether")  # no Netherworld place at all


def test_r_play_14_replace_evil_netherworld_card() -> None:
    s = blank(4)
    populaces(s, 1, good=1, evil=2)
    put(s, 1, "evil", "nether", "piety/gambling", "mask")
    hand(s, 0, "job/drugs")
    act(s, "play job/drugs nether", "target p2.evil.nether.0")
    assert row(s, 1, "evil", "nether") == ["job/drugs", "mask"]
    assert s.code(s.discards[1][-1]) == "piety/gambling"
    assert serving_slots(s, 1, 1) == [1, 2, 1]  # Drugs +1K now


def test_r_play_14_no_replacing_heavy_metal_or_good_netherworld() -> None:
    s = blank(4)
    populaces(s, 1, good=1, evil=1)
    put(s, 1, "good", "heaven", "h/mp")
    put(s, 1, "good", "nether", "job/drugs")
    put(s, 1, "evil", "nether", "metal")
    populaces(s, 2, evil=1)
    hand(s, 0, "mask")
    act(s, "play mask nether")
    assert legal_texts(s) == {"target p3.evil.nether"}
    refused(s, "R-PLAY-15", "target p2.evil.nether.0")
    refused(s, "R-PLAY-14", "target p2.good.nether.0")


# --- R-PLAY-15 … R-PLAY-17: music ---------------------------------------------------------------


def test_r_play_15_heavy_metal_neutralises_church_music_and_the_row_closes() -> None:
    s = blank(4)
    populaces(s, 1, good=3)
    put(s, 1, "good", "heaven", "m/hp", "church", "h/mp")
    hand(s, 0, "metal")
    act(s, "play metal neutralise")
    assert legal_texts(s) == {"target p2.good.heaven.1"}
    events = act(s, "target p2.good.heaven.1")
    assert "neutralise" in kinds(events)
    assert row(s, 1, "good", "heaven") == ["m/hp", "h/mp"]
    assert s.code(s.discards[0][-1]) == "metal" and s.code(s.discards[1][-1]) == "church"
    assert row(s, 1, "good", "earth") == ["pop"] * 3 and on_turn(s, 1)


def test_r_play_15_church_music_neutralises_heavy_metal_and_seals_in_the_netherworld() -> None:
    s = blank(4)
    populaces(s, 2, good=1, evil=3)
    put(s, 2, "evil", "nether", "metal", "mask", "seal")
    put(s, 2, "good", "heaven", "seal")
    hand(s, 0, "church", "church")
    act(s, "play church neutralise")
    assert legal_texts(s) == {"target p3.evil.nether.0", "target p3.evil.nether.2"}
    act(s, "target p3.evil.nether.0")
    assert row(s, 2, "evil", "nether") == ["mask", "seal"]
    hand(s, 1, "metal")
    seals = len(s.seal_supply)
    act(s, "play metal neutralise", "target p3.good.heaven.0")
    assert row(s, 2, "good", "heaven") == [] and len(s.seal_supply) == seals + 1


def test_r_play_15_a_displayed_seal_is_the_music_of_its_row() -> None:
    """R-PLAY-15: "Eine ausliegende Kirchenmusik kann nur durch Heavy-Metal von seinem Platz
    entfernt werden und umgekehrt". A seal in Heaven is Church Music: Heavy Metal removes it,
    Church Music does not. A seal in the Netherworld is Heavy Metal: the other way round."""
    s = blank(4)
    populaces(s, 2, good=1, evil=1)
    put(s, 2, "good", "heaven", "seal")
    put(s, 2, "evil", "nether", "seal")
    hand(s, 0, "church", "metal")
    church = s.clone()
    act(church, "play church neutralise")
    assert legal_texts(church) == {"target p3.evil.nether.0"}
    refused(church, "R-PLAY-15", "target p3.good.heaven.0")
    with pytest.raises(IllegalAction) as info:
        act(church, "target p3.good.heaven.0")
    assert info.value.key == "play.same-music"
    act(s, "play metal neutralise")
    assert legal_texts(s) == {"target p3.good.heaven.0"}
    refused(s, "R-PLAY-15", "target p3.evil.nether.0")
    with pytest.raises(IllegalAction) as info:
        act(s, "target p3.evil.nether.0")
    assert info.value.key == "play.same-music"


def test_r_play_15_no_neutralise_when_the_only_music_is_the_same_kind() -> None:
    """The first step already knows: a seal in good Heaven is no target for Church Music, a seal
    in the evil Netherworld none for Heavy Metal."""
    s = blank(4)
    populaces(s, 1, good=1, evil=1)
    put(s, 1, "good", "heaven", "seal")
    put(s, 1, "evil", "nether", "mask")
    hand(s, 0, "church")
    assert "play church neutralise" not in legal_texts(s)
    refused(s, "R-PLAY-15", "play church neutralise")
    t = blank(4)
    populaces(t, 1, good=1, evil=1)
    put(t, 1, "good", "heaven", "mh/p")
    put(t, 1, "evil", "nether", "seal")
    hand(t, 0, "metal")
    assert "play metal neutralise" not in legal_texts(t)
    refused(t, "R-PLAY-15", "play metal neutralise")


def test_r_play_15_only_music_against_the_other_music() -> None:
    s = blank(4)
    populaces(s, 1, good=2, evil=1)
    put(s, 1, "good", "heaven", "church", "h/mp")
    hand(s, 0, "church", "m/hp")
    # Church Music against Church Music has no target; m/hp is no music card
    refused(s, "R-PLAY-15", "play church neutralise", "play m/hp neutralise")
    hand(s, 0, "metal")
    act(s, "play metal neutralise")
    refused(s, "R-PLAY-15", "target p2.good.heaven.1", "target p2.good.heaven.4")


def test_r_play_16_after_the_shift_orphaned_cards_stay() -> None:
    s = blank(4)
    populaces(s, 0, good=2, evil=2)
    put(s, 0, "good", "heaven", "church", "h/mp")
    put(s, 0, "good", "nether", "mask", "helmet")
    put(s, 0, "evil", "nether", "metal", "chastity/sex")
    put(s, 0, "evil", "heaven", "hp/m", "mh/p")
    hand(s, 0, "metal")
    act(s, "play metal neutralise", "target p1.good.heaven.0")
    assert row(s, 0, "good", "heaven") == ["h/mp"]
    assert row(s, 0, "good", "nether") == ["mask", "helmet"]  # populace 1: Netherworld only
    hand(s, 1, "church")
    act(s, "play church neutralise", "target p1.evil.nether.0")
    assert row(s, 0, "evil", "nether") == ["chastity/sex"]
    assert row(s, 0, "evil", "heaven") == ["hp/m", "mh/p"]  # populace 1: Heaven only
    assert s.code(s.discards[0][-1]) == "metal" and s.code(s.discards[1][-1]) == "church"
    hand(s, 2, "p/mh")
    act(s, "play p/mh heaven")  # the good populace 1 may get its Heaven card now
    assert legal_texts(s) == {"target p1.good.heaven", "target p1.good.heaven.0"}
    act(s, "target p1.good.heaven")
    assert row(s, 0, "good", "heaven") == ["h/mp", "p/mh"]
    hand(s, 3, "p/mh", "pig")
    pig = s.clone()
    act(s, "play p/mh heaven")
    refused(s, "R-PLAY-8", "target p1.evil.heaven")  # evil Heaven already longer
    act(pig, "play pig nether")  # … but the evil populace 1 may get its Netherworld card
    assert legal_texts(pig) == {"target p1.evil.nether", "target p1.evil.nether.0"}


def test_r_play_17_music_above_or_below_makes_a_populace_immune() -> None:
    s = blank(4)
    populaces(s, 1, good=1, evil=1)
    put(s, 1, "good", "heaven", "church")
    put(s, 1, "evil", "nether", "metal")
    populaces(s, 2, evil=1)
    put(s, 2, "evil", "nether", "seal")
    populaces(s, 3, good=1)
    hand(s, 0, "violence", "ethos")
    for card in ("violence", "ethos"):
        c = s.clone()
        act(c, f"play {card} attack")
        assert legal_texts(c) == {"target p4.good"}
        refused(c, "R-PLAY-17", "target p2.good", "target p2.evil", "target p3.evil")


def test_r_play_17_only_music_at_the_outermost_position_counts() -> None:
    s = blank(4)
    populaces(s, 1, good=2)
    put(s, 1, "good", "heaven", "church")
    hand(s, 0, "violence")
    act(s, "play violence attack", "target p2.good")
    decline_all(s)
    assert row(s, 1, "good", "earth") == ["pop"] and row(s, 1, "good", "heaven") == ["church"]
    populaces(s, 2, evil=1)
    hand(s, 1, "violence")
    act(s, "play violence attack")
    refused(s, "R-PLAY-17", "target p2.good")  # now the church protects populace 0
