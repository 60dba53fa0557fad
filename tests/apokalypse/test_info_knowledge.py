"""What a player knows of other hands (R-INFO-2) follows what they can deduce, never which
physical card moved; dead face-down populaces stay face down in the discard pile (D-INFO-1)."""

from __future__ import annotations

import pytest

from apokalypse.engine.errors import ProtocolError
from apokalypse.games.apokalypse import State
from apokalypse.games.apokalypse.pending import Turn
from tests.apokalypse.builders import act, blank, decline_all, hand, populaces, put, stack


def _gift(s: State, giver: int, code: str, recipient: int) -> None:
    """``giver`` plays a face-down good populace and gives ``code`` to ``recipient``; then it
    is ``recipient``'s turn."""
    hand(s, giver, "p/mh", code)
    s.pending = Turn(giver)
    act(s, "play p/mh good", f"target p{giver + 1}.good", f"give {code}", f"to p{recipient + 1}")
    s.pending = Turn(recipient)
    s.legal_cache = None


def _others(s: State, actor: int) -> dict[int | None, object]:
    return {q: s.observation(q) for q in (None, *range(s.n)) if q != actor}


def test_r_info_2_playing_some_b_card_face_down_reads_the_same_whichever_it_was():
    """p2 gave p1 an m/hp. Whether p1 then plays that m/hp or an h/mp face down, every other
    player's observation is the same: p2 only knows that p1 *may* still hold the m/hp."""
    seen = []
    for code in ("m/hp", "h/mp"):
        s = blank(3, to_act=1)
        _gift(s, 1, "m/hp", 0)
        hand(s, 0, "h/mp")
        assert s.observation(1)["known"] == {"p1": ["m/hp"]}
        act(s, f"play {code} evil", "target p1.evil")
        seen.append(_others(s, 0))
    assert seen[0] == seen[1]
    assert seen[0][1]["known"] == {}  # type: ignore[index]


def test_r_info_2_which_copy_of_a_known_card_went_face_down_is_not_told():
    """p1 holds the m/hp p2 gave and another m/hp; the hand's order decides which physical card
    is taken, and nobody may learn that order from p2's knowledge."""
    seen = []
    for order in (0, 1):
        s = blank(3, to_act=1)
        _gift(s, 1, "m/hp", 0)
        hand(s, 0, "m/hp")
        if order:
            s.hands[0].reverse()
        act(s, "play m/hp evil", "target p1.evil")
        seen.append(_others(s, 0))
    assert seen[0] == seen[1]


def test_r_info_2_knowledge_is_a_lower_bound_per_code():
    """Two m/hp given, one played face down: p1 still holds at least one of them. A face-up play
    of an m/hp is seen by all: one fewer."""
    s = blank(3, to_act=1)
    _gift(s, 1, "m/hp", 0)
    s.pending = Turn(1)
    _gift(s, 1, "m/hp", 0)
    assert s.observation(1)["known"] == {"p1": ["m/hp", "m/hp"]}
    hand(s, 0, "h/mp", "violence")
    act(s, "play h/mp evil", "target p1.evil")  # face down: may have been an m/hp
    assert s.observation(1)["known"] == {"p1": ["m/hp"]}
    s.pending = Turn(0)
    populaces(s, 0, good=1)
    act(s, "play m/hp heaven", "target p1.good.heaven")  # face up: everyone sees it
    assert s.observation(1)["known"] == {}
    assert s.observation(0)["known"] == {}


def test_r_info_2_a_gift_between_others_leaves_a_bystander_unsure():
    """p3 knows p1 holds a violence card (p3 gave it); p1 gives a K card to p2: p3 cannot tell
    which, so p1 may no longer hold the violence card. A B-card gift leaves it known."""
    s = blank(4, to_act=2)
    _gift(s, 2, "violence", 0)
    hand(s, 0, "ethos", "h/mp", "p/mh")
    act(s, "play p/mh good", "target p1.good", "give h/mp", "to p2")
    assert s.observation(2)["known"] == {"p1": ["violence"]}  # a B card left: not the violence
    s.pending = Turn(0)
    hand(s, 0, "m/hp")
    act(s, "play m/hp good", "target p1.good", "give ethos", "to p2")
    assert s.observation(2)["known"] == {}
    assert s.observation(0)["known"] == {"p2": ["ethos", "h/mp"]}


def test_r_info_2_a_thief_does_not_know_the_victim_still_holds_what_was_stolen():
    """p2 gave p1 an m/hp and steals it back: p2 holds it, p1 does not."""
    s = blank(3, to_act=1)
    _gift(s, 1, "m/hp", 0)
    s.pending = Turn(1)
    hand(s, 1, "h/mp")
    act(s, "play h/mp evil", "target p2.evil", "steal p1")
    assert s.code(s.hands[1][-1]) == "m/hp"
    assert s.observation(1)["known"] == {}
    assert s.observation(0)["known"] == {"p2": ["m/hp"]}  # the victim knows what it lost


def test_d_info_1_a_populace_killed_by_violence_stays_face_down_in_the_discard_pile():
    """The killed event, the discard pile and every view agree: the front stays hidden."""
    s = blank(3)
    populaces(s, 2, good=1)
    put(s, 2, "good", "heaven", "h/mp")
    hand(s, 0, "violence")
    events = act(s, "play violence attack", "target p3.good") + decline_all(s)
    killed = next(e for e in events if e.kind == "killed")
    assert killed.view(None).args["populace"] == "populace"
    for viewer in (None, 0, 1, 2):
        assert s.observation(viewer)["discards"][0][-2:] == ["populace", "h/mp"]


def test_d_info_1_a_populace_killed_by_a_horseman_stays_face_down():
    """Horseman 4 (no refill after it): both dead populaces lie face down in the pile."""
    s = blank(3)
    populaces(s, 0, good=2)
    s.horseman = 4
    stack(s, "B", "horseman4")
    act(s, "pass", "pass")
    assert s.is_over
    for viewer in (None, 0, 1, 2):
        assert s.observation(viewer)["discards"][0][-2:] == ["populace", "populace"]


@pytest.mark.parametrize("seat", [-1, 3, 99, True, "0", 0.0])
def test_r_info_2_observation_of_a_seat_that_does_not_exist_is_refused(seat: object):
    """``observation(-1)`` (the ``to_act`` of a finished game) once returned the last seat's
    hand and ethos."""
    s = blank(3)
    with pytest.raises(ProtocolError):
        s.observation(seat)  # the State takes any object here and refuses it itself
    with pytest.raises(ProtocolError):
        s.determinize(seat, s.rng.clone())
