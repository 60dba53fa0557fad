"""What a player may see (R-INFO-1..3): ``State.observation`` and ``Event.view``."""

from __future__ import annotations

from apokalypse.games.apokalypse.cards import GOOD, HORSEMAN
from apokalypse.games.apokalypse.dealing import above_next
from apokalypse.games.apokalypse.pending import Turn
from tests.apokalypse.builders import (
    act,
    blank,
    codes,
    deal_order,
    hand,
    new,
    populaces,
    put,
    reward,
)


def _events_of(events, kind: str):
    return [e for e in events if e.kind == kind]


# --- R-INFO-1: public -------------------------------------------------------------------------


def test_r_info_1_displays_scores_horseman_cards_and_piles_are_public():
    s = blank(3)
    put(s, 1, "good", "earth", "pop", "saint")
    put(s, 1, "good", "heaven", "church")
    put(s, 2, "evil", "earth", "fiend")
    put(s, 2, "evil", "nether", "job/drugs")
    s.scores = [(1, -2, 3)]
    reward(s, 2, 1)
    hand(s, 0, "violence")
    s.discard(s.hands[0].pop())
    for viewer in (None, 0):
        obs = s.observation(viewer)
        assert obs["displays"][1]["good"] == {
            "heaven": ["church"],
            "earth": ["populace", "saint"],  # a B populace lies back up
            "nether": [],
        }
        assert obs["displays"][2]["evil"]["nether"] == ["job/drugs"]
        assert obs["displays"][2]["evil"]["earth"] == ["fiend"]
        assert obs["scores"] == [[1, -2, 3]]
        assert obs["horseman_cards"] == [[], [], [1]]
        assert obs["discards"] == [[s.code(c) for c in pile] for pile in s.discards]
        assert obs["seal_supply"] == len(s.seal_supply)


def test_r_info_1_deck_sizes_and_cards_above_the_next_horseman_are_public():
    s = new(4, seed=3)
    obs = s.observation(None)
    for d, back in enumerate(("B", "K")):
        pile = s.decks[d]
        top_horse = max(i for i, c in enumerate(pile) if s.table.kind[c].role == HORSEMAN)
        assert obs["decks"][d] == {
            "back": back,
            "size": len(pile),
            "above_horseman": len(pile) - 1 - top_horse,
        }
        assert above_next(s, d) == len(pile) - 1 - top_horse


def test_r_info_1_hand_sizes_by_back_and_who_passed_are_public():
    s = blank(3)
    hand(s, 1, "m/hp", "h/mp", "violence")
    hand(s, 2, "church")
    act(s, "pass")
    obs = s.observation(2)
    assert obs["hand_counts"] == [[0, 0], [2, 1], [0, 1]]
    assert obs["passed"] == [True, False, False]


def test_r_info_1_who_gave_or_stole_from_whom_is_public():
    s = blank(4)
    hand(s, 0, "m/hp", "violence", "h/mp")
    hand(s, 2, "church")
    gift = act(s, "play m/hp good", "target p1.good", "give violence", "to p4")
    view = _events_of(gift, "gift")[0].view(1)
    assert view.args == {"actor": 0, "target": 3, "back": "K"} and not view.seen
    s.pending = Turn(0)
    steal = act(s, "play h/mp evil", "target p1.evil", "steal p3")
    view = _events_of(steal, "steal")[0].view(None)
    assert view.args == {"actor": 0, "target": 2, "back": "K"} and not view.seen


# --- R-INFO-2: private ------------------------------------------------------------------------


def test_r_info_2_own_hand_and_own_ethos_only():
    s = new(3, seed=11)
    for seat in range(3):
        obs = s.observation(seat)
        assert obs["hand"] == codes(s, seat)
        assert obs["ethos"] == ("good" if s.ethos[seat] == GOOD else "evil")
        assert "ethos_all" not in obs
    spectator = s.observation(None)
    assert "hand" not in spectator and "ethos" not in spectator


def test_r_info_2_gift_identity_seen_by_giver_and_recipient_only():
    s = blank(4)
    hand(s, 0, "m/hp", "job/drugs")
    events = act(s, "play m/hp good", "target p1.good", "give job/drugs", "to p3")
    gift = _events_of(events, "gift")[0]
    for seat in (0, 2):
        assert gift.view(seat).args["card"] == "job/drugs" and gift.view(seat).seen
    for viewer in (1, 3, None):
        assert "card" not in gift.view(viewer).args
    assert s.observation(0)["known"] == {"p3": ["job/drugs"]}
    assert s.observation(1)["known"] == {}


def test_r_info_2_stolen_card_identity_seen_by_thief_and_victim_only():
    s = blank(4)
    hand(s, 0, "m/hp")
    hand(s, 3, "church")
    events = act(s, "play m/hp evil", "target p1.evil", "steal p4")
    steal = _events_of(events, "steal")[0]
    for seat in (0, 3):
        assert steal.view(seat).args["card"] == "church"
    for viewer in (1, 2, None):
        assert "card" not in steal.view(viewer).args
    assert s.observation(3)["known"] == {"p1": ["church"]}  # the victim knows what it lost
    assert s.observation(2)["known"] == {}
    assert s.observation(0)["hand"] == ["church"]


def test_r_info_2_dealt_cards_seen_by_their_receiver_only():
    s = blank(3)
    populaces(s, 1, good=1)
    s.pending = Turn(0)
    events = act(s, "pass", "pass")
    deals = _events_of(events, "deal")
    assert deal_order(events, "B") == [0, 1, 2, 1]
    for e in deals:
        target = e.args["target"]
        assert e.view(target).seen and "card" in e.view(target).args
        for other in {0, 1, 2, None} - {target}:
            assert e.view(other).args == {"target": target, "back": e.args["back"]}
    mine = sorted(e.view(1).args["card"] for e in deals if e.args["target"] == 1)
    assert mine == codes(s, 1)


# --- R-INFO-3: hidden from all ------------------------------------------------------------------


def _same_back_swap(s, seat: int) -> None:
    """Exchange every card in ``seat``'s hand with an unseen card of the same back in a deck."""
    kinds_ = s.table.kind
    for i, card in enumerate(s.hands[seat]):
        pile = s.own_decks()[0 if kinds_[card].back == "B" else 1]
        j = next(
            k
            for k in range(len(pile) - 1, -1, -1)
            if kinds_[pile[k]].role != HORSEMAN and kinds_[pile[k]].code != kinds_[card].code
        )
        s.hands[seat][i], pile[j] = pile[j], card


def test_r_info_3_other_hands_cards_are_hidden():
    s = new(4, seed=5)
    before = s.observation(0)
    other = s.clone()
    _same_back_swap(other, 2)
    assert codes(other, 2) != codes(s, 2)
    assert other.observation(0) == before
    assert other.observation(None) == s.observation(None)
    assert other.observation(2) != s.observation(2)


def test_r_info_3_other_ethos_cards_are_hidden():
    s = new(3, seed=2)
    other = s.clone()
    other.ethos = tuple(e if q == 0 else 1 - e for q, e in enumerate(s.ethos))
    assert other.ethos != s.ethos
    assert other.observation(0) == s.observation(0)
    assert other.observation(None) == s.observation(None)


def test_r_info_3_order_of_the_draw_decks_is_hidden():
    s = new(4, seed=9)
    other = s.clone()
    for pile in other.own_decks():
        top = max(i for i, c in enumerate(pile) if s.table.kind[c].role == HORSEMAN)
        pile[top + 1 :] = reversed(pile[top + 1 :])
    assert other.decks != s.decks
    for viewer in (None, 0, 1, 2, 3):
        assert other.observation(viewer) == s.observation(viewer)
    for deck in s.observation(0)["decks"]:
        assert set(deck) == {"back", "size", "above_horseman"}  # sizes only, never the cards


def test_r_info_3_the_front_of_a_b_populace_is_known_to_its_player_only():
    s = blank(3)
    hand(s, 0, "p/mh")
    events = act(s, "play p/mh evil", "target p2.evil")
    placed = _events_of(events, "populace")[0]
    assert placed.view(0).args["card"] == "p/mh"
    assert "card" not in placed.view(1).args and "card" not in placed.view(None).args
    assert s.observation(1)["displays"][1]["evil"]["earth"] == ["populace"]


def test_r_info_3_a_defence_window_does_not_show_who_holds_a_defence_card():
    s = blank(4)
    populaces(s, 1, good=1)
    hand(s, 0, "violence")
    hand(s, 3, "church")
    act(s, "play violence attack", "target p2.good")
    assert s.pending.player == 1  # holds nothing, is asked all the same (R-ATTACK-4)
    act(s, "decline", "decline")
    assert s.pending.player == 3
    for viewer in (None, 0, 1, 2):
        obs = s.observation(viewer)
        assert obs["to_act"] is None and obs["decision"] == "defence"
    assert s.observation(3)["to_act"] == 3
