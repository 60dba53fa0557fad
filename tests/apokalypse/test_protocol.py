"""Protocol details of the Apokalypse state that are not rules: stepping back out of an
unfinished choice, and what the observation tells about an attack on the table."""

from __future__ import annotations

from typing import get_args

import pytest

from apokalypse.engine.errors import IllegalAction
from apokalypse.games.apokalypse import parse_action
from apokalypse.games.apokalypse.cards import PLANE_NAMES, SIDE_NAMES
from apokalypse.games.apokalypse.observation import PLANES, SIDES
from apokalypse.games.apokalypse.pending import (
    DECISION,
    ChooseGift,
    Decision,
    Pending,
    Turn,
)
from tests.apokalypse.builders import act, blank, codes, hand, populaces, put


def test_back_returns_from_the_target_step_with_nothing_played():
    s = blank(3)
    hand(s, 0, "m/hp", "violence")
    before = s.observation(0)
    act(s, "play m/hp good")
    assert "back" not in {str(a) for a in s.legal_actions()}  # never offered to a search
    act(s, "back")
    assert s.pending == Turn(0)
    after = s.observation(0)
    assert after == {**before, "move": before["move"] + 2}  # two actions applied, nothing played


def test_back_from_the_recipient_step_chooses_another_gift_but_the_deed_stands():
    """R-PLAY-4: once the good populace is placed, a gift is owed; back only re-opens the card."""
    s = blank(3)
    hand(s, 0, "m/hp", "violence", "church")
    act(s, "play m/hp good", "target p1.good", "give violence")
    assert s.observation(0)["decision"] == "choose-recipient"
    act(s, "back")
    assert s.pending == ChooseGift(0)
    act(s, "give church", "to p2")
    assert codes(s, 1) == ["church"] and codes(s, 0) == ["violence"]


def test_back_on_a_turn_is_refused():
    s = blank(3)
    with pytest.raises(IllegalAction) as err:
        s.apply(parse_action("back"))
    assert err.value.rule == "R-TURN-1"


def test_the_attack_on_the_table_is_public_with_its_target():
    s = blank(3)
    populaces(s, 1, evil=1)
    hand(s, 0, "ethos")
    assert s.observation(None)["attack"] is None
    act(s, "play ethos attack", "target p2.evil")
    expected = {"attacker": 0, "card": "ethos", "seat": 1, "side": "evil"}
    assert s.observation(None)["attack"] == expected
    act(s, "decline", "decline")
    assert s.observation(0)["attack"] == expected  # the attacker now picks the destination
    act(s, "to p1")
    assert s.observation(None)["attack"] is None


def test_a_refusal_survives_pickling_for_worker_processes():
    import pickle

    exc = IllegalAction("R-PLAY-5", "p3 holds no cards", key="steal.no-cards", params={"seat": 2})
    back = pickle.loads(pickle.dumps(exc))
    assert (str(back), back.rule, back.key, dict(back.params)) == (
        str(exc),
        "R-PLAY-5",
        "steal.no-cards",
        {"seat": 2},
    )


def test_r_play_10_refusal_names_the_side_where_replacing_is_allowed():
    s = blank(3)
    populaces(s, 0, good=1)  # somewhere the Heaven card may legally go
    populaces(s, 1, evil=1)
    put(s, 1, "evil", "nether", "mask")
    put(s, 1, "evil", "heaven", "m/hp")
    hand(s, 0, "h/mp")
    act(s, "play h/mp heaven")
    with pytest.raises(IllegalAction) as err:
        s.apply(parse_action("target p2.evil.heaven.0"))
    assert err.value.rule == "R-PLAY-10"
    assert "good side" in err.value.message


def test_the_observation_types_name_what_the_engine_uses():
    """The observation's ``decision`` names every kind of pending decision, in kebab-case (the
    wire format's names); its sides are the card table's."""
    assert set(DECISION) == set(get_args(Pending))
    assert sorted(DECISION.values()) == sorted(get_args(Decision))
    for cls, name in DECISION.items():  # ChooseTarget → choose-target
        assert name.replace("-", "") == cls.__name__.lower()
    assert (SIDES, PLANES) == (SIDE_NAMES, PLANE_NAMES)
