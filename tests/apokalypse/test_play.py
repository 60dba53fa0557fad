"""Playing cards into displays: Earth and Heaven (R-PLAY-1 … R-PLAY-10, D-PLAY-1).

The Netherworld and music (R-PLAY-11 … R-PLAY-17) are in test_play_nether_music.py.
"""

from __future__ import annotations

import pytest

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.rng import Rng
from apokalypse.games.apokalypse import State
from apokalypse.games.apokalypse.pending import ChooseGift, ChooseRecipient, ChooseVictim
from tests.apokalypse.builders import (
    act,
    blank,
    codes,
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


def decision(s: State) -> type:
    return type(s.pending)


# --- R-PLAY-1 / R-PLAY-2: any display, packed rows ---------------------------------------------


def test_r_play_1_card_goes_into_another_players_display_outermost() -> None:
    s = blank(4)
    populaces(s, 1, good=3)
    put(s, 1, "good", "heaven", "h/mp")
    hand(s, 0, "p/mh", "mask")
    t = s.clone()
    act(s, "play p/mh heaven")
    assert legal_texts(s) == {"target p2.good.heaven", "target p2.good.heaven.0"}
    refused(s, "R-PLAY-1", "target p5.good.heaven", "target p2.good.heaven.3")
    act(s, "target p2.good.heaven")
    assert row(s, 1, "good", "heaven") == ["h/mp", "p/mh"] and row(s, 0, "good", "heaven") == []
    act(t, "play mask nether", "target p2.good.nether")  # packed from position 0
    assert row(t, 1, "good", "nether") == ["mask"]


def test_r_play_2_heaven_and_netherworld_never_longer_than_earth() -> None:
    s = blank(4)
    populaces(s, 0, good=1, evil=1)
    put(s, 0, "good", "heaven", "h/mp")
    put(s, 0, "evil", "nether", "mask")
    put(s, 1, "evil", "earth", "pop")  # p2 still has a free evil Netherworld place
    hand(s, 0, "p/mh", "helmet")
    heaven = s.clone()
    act(heaven, "play p/mh heaven")
    assert legal_texts(heaven) == {"target p1.good.heaven.0", "target p1.evil.heaven"}
    refused(heaven, "R-PLAY-8", "target p1.good.heaven")
    act(s, "play helmet nether")
    refused(s, "R-PLAY-12", "target p1.evil.nether")
    assert legal_texts(s) == {
        "target p2.evil.nether",
        "target p1.good.nether",
        "target p1.evil.nether.0",  # replacing stays possible (R-PLAY-14)
    }


def test_r_play_2_cards_belong_to_the_populace_at_their_position() -> None:
    s = blank(4)
    populaces(s, 1, good=2)
    put(s, 1, "good", "heaven", "h/mp")  # belongs to populace 0
    hand(s, 0, "violence")
    act(s, "play violence attack", "target p2.good")
    decline_all(s)
    assert row(s, 1, "good", "earth") == ["pop"]
    assert row(s, 1, "good", "heaven") == ["h/mp"]  # the outermost populace had no Heaven card


# --- R-PLAY-3 … R-PLAY-6: the Earthly row -------------------------------------------------------


def test_r_play_3_b_card_from_its_back_on_the_chosen_side() -> None:
    s = blank(4)
    hand(s, 0, "mh/p", "metal")
    hand(s, 2, "church")
    assert {
        "play mh/p good",
        "play mh/p evil",
        "play metal good",
        "play metal evil",
    } <= legal_texts(s)
    act(s, "play mh/p good")
    assert "target p3.good" in legal_texts(s) and "target p3.evil" not in legal_texts(s)
    refused(s, "R-PLAY-3", "target p3.evil", "target p3.good.heaven")
    act(s, "target p3.good", "give metal", "to p2")
    assert row(s, 2, "good", "earth") == ["pop"] and row(s, 2, "evil", "earth") == []
    assert s.observation(1)["displays"][2]["good"]["earth"] == ["populace"]  # face down
    act(s, "play metal evil", "target p3.evil", "steal p3")
    assert row(s, 2, "evil", "earth") == ["pop"] and codes(s, 1) == ["church"]


def test_r_play_3_only_b_cards_become_populaces() -> None:
    s = blank(4)
    hand(s, 0, "job/drugs", "violence", "church", "mask")
    bad = ("play job/drugs good", "play violence evil", "play church good", "play mask evil")
    refused(s, "R-PLAY-3", *bad)


def test_r_play_4_good_deed_gives_a_card_to_another_player() -> None:
    s = blank(4)
    hand(s, 0, "m/hp", "church", "violence")
    act(s, "play m/hp good", "target p1.good")
    assert decision(s) is ChooseGift and s.to_act == 0
    assert legal_texts(s) == {"give church", "give violence"}
    act(s, "give church")
    assert decision(s) is ChooseRecipient
    assert legal_texts(s) == {"to p2", "to p3", "to p4"}
    events = act(s, "to p3")
    assert codes(s, 0) == ["violence"] and codes(s, 2) == ["church"]
    assert row(s, 0, "good", "earth") == ["pop"]
    gift = next(e for e in events if e.kind == "gift")
    assert gift.view(1).args == {"actor": 0, "target": 2, "back": "K"}  # hidden from p2
    assert gift.view(2).args["card"] == "church"
    assert on_turn(s, 1)


def test_r_play_4_gift_refusals() -> None:
    s = blank(4)
    hand(s, 0, "m/hp", "church")
    act(s, "play m/hp good", "target p2.good")
    refused(s, "R-PLAY-4", "give violence", "steal p2", "pass")  # violence is not in hand
    act(s, "give church")
    refused(s, "R-PLAY-4", "to p1", "give church", "pass")  # the gift goes to another player
    refused(s, "R-PLAY-1", "to p7")


def test_r_play_4_no_good_populace_without_another_card() -> None:
    s = blank(4)
    hand(s, 0, "m/hp")
    assert "play m/hp good" not in legal_texts(s)
    assert "play m/hp evil" in legal_texts(s)
    refused(s, "R-PLAY-4", "play m/hp good")


def test_r_play_5_evil_deed_steals_a_card() -> None:
    s = blank(4)
    hand(s, 0, "m/hp")
    hand(s, 1, "violence")
    hand(s, 3, "church")
    act(s, "play m/hp evil", "target p3.evil")
    assert decision(s) is ChooseVictim
    assert legal_texts(s) == {"steal p2", "steal p4"}  # only players holding cards
    events = act(s, "steal p4")
    assert codes(s, 0) == ["church"] and codes(s, 3) == []
    assert row(s, 2, "evil", "earth") == ["pop"]
    steal = next(e for e in events if e.kind == "steal")
    assert steal.view(1).args == {"actor": 0, "target": 3, "back": "K"}
    assert steal.view(3).args["card"] == "church"  # the victim learns what it lost
    assert on_turn(s, 1)  # no defence window although p2 holds Violence: it cannot be defended


def test_r_play_5_the_stolen_card_is_random() -> None:
    s = blank(4)
    hand(s, 0, "m/hp")
    hand(s, 1, "violence", "church", "mask", "job/drugs")
    act(s, "play m/hp evil", "target p1.evil")
    stolen = set()
    for seed in range(40):
        c = s.clone()
        c.rng = Rng(seed)
        act(c, "steal p2")
        assert len(c.hands[0]) == 1 and len(c.hands[1]) == 3
        stolen.add(codes(c, 0)[0])
    assert stolen == {"violence", "church", "mask", "job/drugs"}


def test_r_play_5_steal_refusals() -> None:
    s = blank(4)
    hand(s, 0, "m/hp", "pig")
    hand(s, 1, "violence")
    act(s, "play m/hp evil", "target p1.evil")
    refused(s, "R-PLAY-5", "steal p1", "steal p3", "give pig", "pass")  # p3 holds no card


def test_d_play_1_evil_populace_when_nobody_else_holds_a_card() -> None:
    s = blank(4)
    hand(s, 0, "m/hp", "pig")
    assert "play m/hp evil" in legal_texts(s)
    events = act(s, "play m/hp evil", "target p1.evil")
    assert "no-steal" in kinds(events)
    assert row(s, 0, "evil", "earth") == ["pop"] and codes(s, 0) == ["pig"]
    assert on_turn(s, 1)


def test_r_play_6_especially_good_and_evil_persons_only_on_their_side() -> None:
    s = blank(4)
    hand(s, 0, "saint", "fiend", "pig")
    refused(s, "R-PLAY-6", "play saint evil", "play fiend good")
    act(s, "play saint good", "target p2.good", "give pig", "to p3")  # a good deed
    assert row(s, 1, "good", "earth") == ["saint"]
    assert s.observation(None)["displays"][1]["good"]["earth"] == ["saint"]
    act(s, "pass")  # p2
    hand(s, 2, "fiend")
    act(s, "play fiend evil", "target p2.evil", "steal p1")  # an evil deed
    assert row(s, 1, "evil", "earth") == ["fiend"]
    assert codes(s, 2) == ["fiend", "pig"] and codes(s, 0) == []
    hand(s, 3, "saint")
    refused(s, "R-PLAY-4", "play saint good")  # no other card to give


def test_r_play_6_immune_to_ethos_change_but_not_to_violence() -> None:
    s = blank(4)
    put(s, 1, "good", "earth", "saint")
    put(s, 1, "evil", "earth", "fiend")
    put(s, 2, "good", "earth", "pop")
    hand(s, 0, "ethos", "violence")
    violence = s.clone()
    act(s, "play ethos attack")
    assert legal_texts(s) == {"target p3.good"}
    refused(s, "R-PLAY-6", "target p2.good", "target p2.evil")
    act(violence, "play violence attack", "target p2.good")
    decline_all(violence)
    assert row(violence, 1, "good", "earth") == []


# --- R-PLAY-7 … R-PLAY-10: Heaven ---------------------------------------------------------------


def test_r_play_7_heaven_takes_protection_cards_and_church_music() -> None:
    s = blank(4)
    populaces(s, 0, good=2)
    hand(s, 0, "h/mp", "church", "mask", "job/drugs", "metal", "violence")
    assert {"play h/mp heaven", "play church heaven"} <= legal_texts(s)
    bad = ("mask", "job/drugs", "metal", "violence")
    refused(s, "R-PLAY-7", *(f"play {code} heaven" for code in bad))
    act(s, "play h/mp heaven")
    refused(s, "R-PLAY-7", "target p1.good.nether")
    act(s, "target p1.good.heaven")
    assert row(s, 0, "good", "heaven") == ["h/mp"]


def test_r_play_8_good_heaven_needs_a_populace_below() -> None:
    s = blank(4)
    populaces(s, 0, good=1)
    put(s, 0, "good", "heaven", "m/hp")
    populaces(s, 1, good=1)
    hand(s, 0, "h/mp")
    act(s, "play h/mp heaven")
    assert legal_texts(s) == {"target p2.good.heaven", "target p1.good.heaven.0"}
    # p1: Heaven row as long as the Earth row; p3: the basic populace only
    refused(s, "R-PLAY-8", "target p1.good.heaven", "target p3.good.heaven")


def test_r_play_8_evil_heaven_needs_netherworld() -> None:
    s = blank(4)
    populaces(s, 0, good=1, evil=2)
    hand(s, 0, "h/mp")
    later = s.clone()
    act(s, "play h/mp heaven")
    refused(s, "R-PLAY-8", "target p1.evil.heaven")
    s = later
    put(s, 0, "evil", "nether", "pig")
    act(s, "play h/mp heaven", "target p1.evil.heaven")
    assert row(s, 0, "evil", "heaven") == ["h/mp"]
    hand(s, 1, "p/mh")
    act(s, "play p/mh heaven")
    refused(s, "R-PLAY-8", "target p1.evil.heaven")  # as long as the Netherworld row now


def test_r_play_9_church_music_only_on_the_good_side() -> None:
    s = blank(4)
    populaces(s, 0, good=1, evil=1)
    put(s, 0, "evil", "nether", "pig")
    hand(s, 0, "church")
    refused(s, "R-PLAY-9", "play church nether")
    act(s, "play church heaven")
    assert legal_texts(s) == {"target p1.good.heaven"}
    refused(s, "R-PLAY-9", "target p1.evil.heaven")
    act(s, "target p1.good.heaven")
    assert row(s, 0, "good", "heaven") == ["church"]


def test_r_play_9_first_step_church_music_with_heaven_places_only_on_the_evil_side() -> None:
    """R-PLAY-9, not R-PLAY-8: Heaven has an open place, but only over an evil populace."""
    s = blank(4)
    populaces(s, 1, evil=1)
    put(s, 1, "evil", "nether", "pig")
    hand(s, 0, "church", "p/mh")
    assert "play p/mh heaven" in legal_texts(s)
    assert "play church heaven" not in legal_texts(s)
    refused(s, "R-PLAY-9", "play church heaven")
    with pytest.raises(IllegalAction) as err:
        act(s, "play church heaven")
    assert err.value.key == "play.church-no-good-place"
    empty = blank(4)
    hand(empty, 0, "church")
    refused(empty, "R-PLAY-8", "play church heaven")  # no Heaven place at all


def test_r_play_10_replace_good_heaven_card_but_not_evil() -> None:
    s = blank(4)
    populaces(s, 1, good=2, evil=1)
    put(s, 1, "good", "heaven", "m/hp", "h/mp")
    put(s, 1, "evil", "nether", "pig")
    put(s, 1, "evil", "heaven", "hp/m")
    hand(s, 0, "p/mh")
    act(s, "play p/mh heaven")
    assert legal_texts(s) == {"target p2.good.heaven.0", "target p2.good.heaven.1"}
    refused(s, "R-PLAY-10", "target p2.evil.heaven.0")
    act(s, "target p2.good.heaven.0")
    assert row(s, 1, "good", "heaven") == ["p/mh", "h/mp"]
    assert s.code(s.discards[0][-1]) == "m/hp"
    assert on_turn(s, 1)


def test_r_play_10_church_music_may_replace_but_is_never_replaced() -> None:
    s = blank(4)
    populaces(s, 1, good=2)
    put(s, 1, "good", "heaven", "church", "h/mp")
    hand(s, 0, "p/mh", "church")
    other = s.clone()
    act(s, "play p/mh heaven")
    assert legal_texts(s) == {"target p2.good.heaven.1"}
    refused(s, "R-PLAY-15", "target p2.good.heaven.0")
    act(other, "play church heaven", "target p2.good.heaven.1")
    assert row(other, 1, "good", "heaven") == ["church", "church"]
