"""Rewards after a reckoning (R-REWARD, D-REWARD-1/2) and the end of the game (R-END, D-END-1,
V-GOOD-TEAM, V-EDITION-2008)."""

from __future__ import annotations

import pytest

from apokalypse.engine.errors import IllegalAction
from apokalypse.games.apokalypse import State, horsemen, parse_action
from apokalypse.games.apokalypse.cards import EVIL, GOOD
from apokalypse.games.apokalypse.ending import result, totals
from apokalypse.games.apokalypse.pending import GameOver, Pending, PlaceSeal, Turn
from tests.apokalypse.builders import (
    act,
    blank,
    codes,
    hand,
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


def _pending(s: State) -> Pending:
    """The pending decision, read afresh (no type narrowing from earlier asserts)."""
    return s.pending


def _owners(s, number: int) -> list[int]:
    return [q for q in range(s.n) for c in s.rewards[q] if s.table.kind[c].horseman == number]


# --- R-REWARD-1: the horseman card -------------------------------------------------------------


def test_r_reward_1_best_score_of_this_reckoning_takes_the_horseman_card():
    s = blank(3)
    s.scores = [(9, 0, 0)]  # an earlier reckoning does not count
    put(s, 1, "good", "earth", "pop")
    put(s, 1, "good", "heaven", "church")
    events = _ride(s, 2)
    assert s.scores[-1] == (0, 1, 0)
    assert _owners(s, 2) == [1]
    assert {"seat": 1, "number": 2} in [e.args for e in events if e.kind == "horseman-card"]


@pytest.mark.parametrize("tied", [2, 3])
def test_r_reward_1_two_or_three_tied_each_take_one(tied):
    s = blank(4)
    for seat in range(tied):
        put(s, seat, "evil", "earth", "pop")
        put(s, seat, "evil", "nether", "metal" if seat < 2 else "mask")
    _ride(s, 1)
    assert _owners(s, 1) == list(range(tied))


def test_r_reward_1_more_than_three_tied_nobody():
    s = blank(4)
    supply = len(s.horse_supply)
    events = _ride(s, 1)
    assert s.scores[-1] == (0, 0, 0, 0)
    assert _owners(s, 1) == []
    assert "horseman-card" not in kinds(events)
    assert len(s.horse_supply) == supply + 2  # the two set-aside copies join the supply


# --- R-REWARD-2 / D-REWARD-1: seals ---------------------------------------------------------------


def test_r_reward_2_most_populaces_in_display_not_best_score_gets_the_seal():
    s = blank(3)
    populaces(s, 0, good=3)
    put(s, 0, "evil", "earth", "pop", "pop")
    put(s, 0, "evil", "nether", "metal", "metal")
    put(s, 1, "good", "earth", "pop")
    put(s, 1, "good", "heaven", "church")
    _ride(s, 1)
    assert s.scores[-1] == (2 - 3, 1, 0)
    assert _owners(s, 1) == [1]
    assert s.pending == PlaceSeal(0, ())


def _two_survivors(s: State, *seats: int) -> None:
    """Each seat keeps a good populace (Church Music) and an evil one (the surplus mask), the
    evil one without a Netherworld card, so that a seal can go under it."""
    for seat in seats:
        populaces(s, seat, good=1, evil=1)
        put(s, seat, "good", "heaven", "church")
        put(s, seat, "good", "nether", "mask")


def test_d_reward_1_tied_seals_go_clockwise_from_the_startup_player():
    s = blank(3, to_act=1)
    _two_survivors(s, 0, 1)
    populaces(s, 2, good=1)
    _ride(s, 1)
    assert s.pending == PlaceSeal(1, (0,))
    act(s, "target p2.evil.nether")
    assert s.pending == PlaceSeal(0, ())
    act(s, "target p1.evil.nether")
    assert row(s, 0, "evil", "nether") == row(s, 1, "evil", "nether") == ["seal"]
    assert _pending(s) == Turn(1)


def test_r_reward_2_more_than_three_tied_nobody_gets_a_seal():
    s = blank(4)
    for seat in range(4):
        populaces(s, seat, good=1)
        put(s, seat, "good", "heaven", "church")
    events = _ride(s, 1)
    assert "seal-place" not in kinds(events)
    assert s.pending == Turn(0)


def test_d_reward_1_seals_only_while_the_supply_lasts():
    s = blank(3)
    _two_survivors(s, 0, 1)
    del s.seal_supply[1:]  # one seal left in the supply
    _ride(s, 1)
    assert s.pending == PlaceSeal(0, (1,))
    events = act(s, "target p1.evil.nether")
    assert {"seat": 1} in [e.args for e in events if e.kind == "seal-none"]
    assert _pending(s) == Turn(0)


# --- R-REWARD-3 / D-REWARD-2: placing a seal ------------------------------------------------------


def _seal_for_seat0(s: State) -> None:
    """Give seat 0 the most populaces and ride horseman 1 so that it must place a seal."""
    put(s, 0, "evil", "earth", "pop", "pop", "pop")
    put(s, 0, "evil", "nether", "metal", "mask", "mask")
    _ride(s, 1)
    assert type(s.pending) is PlaceSeal and s.pending.player == 0


def test_r_reward_3_seal_goes_as_church_music_heavy_metal_or_onto_displayed_music():
    s = blank(3)
    put(s, 1, "good", "earth", "pop")
    put(s, 1, "good", "heaven", "church")
    _two_survivors(s, 2)
    s.discard(s.own_display(2)[0].pop())
    put(s, 2, "good", "heaven", "mh/p")  # a mask instead of the Church Music
    _seal_for_seat0(s)
    legal = sorted(str(a) for a in s.legal_actions())
    assert legal == [
        "target p1.evil.nether.0",  # neutralise the Heavy Metal
        "target p1.evil.nether.1",  # as Heavy Metal, in place of a mask (R-PLAY-14)
        "target p1.evil.nether.2",
        "target p2.good.heaven.0",  # neutralise the Church Music
        "target p3.evil.nether",  # as Heavy Metal under an evil populace
        "target p3.good.heaven.0",  # as Church Music, in place of the mask (R-PLAY-10)
    ]
    assert "pass" not in legal and "decline" not in legal


def test_r_reward_3_seal_replaces_like_music_from_hand_r_play_10_r_play_14():
    """R-REWARD-3: a seal is played "genauso wie die anderen Kirchenmusik- und Heavy-Metal-
    Karten", so it may take the place of a Heaven card over a good populace (R-PLAY-10) or of a
    Netherworld card under an evil one (R-PLAY-14), never of music; the old card is discarded."""
    s = blank(3)
    populaces(s, 1, good=2, evil=1)
    put(s, 1, "good", "heaven", "mh/p", "church")
    put(s, 1, "good", "nether", "mask")
    put(s, 1, "evil", "nether", "job/drugs")
    put(s, 1, "evil", "heaven", "mp/h")
    _seal_for_seat0(s)
    legal = legal_texts(s)
    assert {"target p2.good.heaven.0", "target p2.evil.nether.0"} <= legal
    # not music's places: good Netherworld, evil Heaven, and displayed music is not replaced
    assert not {"target p2.good.nether.0", "target p2.evil.heaven.0"} & legal
    supply = len(s.seal_supply)
    events = act(s, "target p2.good.heaven.0")
    replace = [e.args for e in events if e.kind == "replace"]
    assert replace == [
        {"actor": 0, "card": "seal", "seat": 1, "side": GOOD, "plane": 0, "pos": 0, "old": "mh/p"}
    ]
    assert row(s, 1, "good", "heaven") == ["seal", "church"]
    assert s.code(s.discards[0][-1]) == "mh/p"  # a B card to the B discard pile
    assert len(s.seal_supply) == supply - 1


def test_r_reward_3_seal_replaces_a_netherworld_card_as_heavy_metal():
    s = blank(3)
    populaces(s, 1, evil=1)
    put(s, 1, "evil", "nether", "job/drugs")
    put(s, 1, "evil", "heaven", "hp/m")  # its mask half shows: the populace survives
    _seal_for_seat0(s)
    events = act(s, "target p2.evil.nether.0")
    assert [e.args["old"] for e in events if e.kind == "replace"] == ["job/drugs"]
    assert row(s, 1, "evil", "nether") == ["seal"]
    assert s.code(s.discards[1][-1]) == "job/drugs"


def test_r_reward_3_seal_not_declined_where_only_a_replacement_is_possible():
    """Every row is full and no music lies out: the only use is a replacement (R-PLAY-10/14)."""
    s = blank(3)
    put(s, 0, "evil", "earth", "pop")
    put(s, 0, "evil", "nether", "mask")
    supply = len(s.seal_supply)
    events = _ride(s, 1)
    assert "seal-declined" not in kinds(events)
    assert s.pending == PlaceSeal(0, ())
    assert legal_texts(s) == {"target p1.evil.nether.0"}
    act(s, "target p1.evil.nether.0")
    assert row(s, 0, "evil", "nether") == ["seal"] and len(s.seal_supply) == supply - 1


def test_r_reward_3_seal_is_placed_at_once_never_taken_into_hand():
    s = blank(3)
    _two_survivors(s, 1)
    _seal_for_seat0(s)
    hands = [codes(s, q) for q in range(3)]
    events = act(s, "target p2.evil.nether")
    assert "seal-place" in kinds(events)
    assert row(s, 1, "evil", "nether") == ["seal"]
    assert [codes(s, q) for q in range(3)] == hands
    assert s.pending == Turn(s.startup)


def test_r_reward_3_illegal_seal_place_refused_with_the_rule():
    s = blank(3)
    _two_survivors(s, 1)
    _seal_for_seat0(s)
    with pytest.raises(IllegalAction) as err:
        s.apply(parse_action("target p2.evil.heaven"))
    assert err.value.rule == "R-REWARD-3"
    with pytest.raises(IllegalAction):
        s.apply(parse_action("pass"))


def test_r_reward_3_seal_neutralises_a_displayed_music_card_and_returns_to_supply():
    """R-REWARD-3 with D-REWARD-2: both cards go, the seal back to the seal supply."""
    s = blank(3)
    put(s, 1, "good", "earth", "pop")
    put(s, 1, "good", "heaven", "church")
    _seal_for_seat0(s)
    supply = len(s.seal_supply)
    events = act(s, "target p2.good.heaven.0")
    assert "seal-neutralise" in kinds(events)
    assert row(s, 1, "good", "heaven") == []
    assert "church" in [s.code(c) for c in s.discards[1]]
    assert len(s.seal_supply) == supply


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_r_reward_3_seal_places_are_exactly_those_of_music_from_hand(players, seed):
    """R-REWARD-3: after every step of a random game, the places a seal would have are the
    places of Church Music as 'heaven', Heavy Metal as 'nether' and either as 'neutralise'."""
    from apokalypse.games.apokalypse.placement import seal_targets, targets
    from apokalypse.games.apokalypse.roles import Use
    from tests.apokalypse.test_properties import random_game

    music: list[tuple[str, Use]] = [
        ("church", "heaven"),
        ("metal", "nether"),
        ("church", "neutralise"),
        ("metal", "neutralise"),
    ]
    for s, _, _ in random_game(players, seed):
        if s.is_over:
            break
        hand_music = {str(a) for code, use in music for a in targets(s, code, use)}
        seal = [str(a) for a in seal_targets(s)]
        assert len(seal) == len(set(seal)) and set(seal) == hand_music


def test_r_reward_3_seal_neutralises_a_displayed_seal_in_either_row():
    """Engine reading of R-REWARD-3: a seal carries both musics, so it removes a seal lying in
    Heaven (Church Music there) with its Heavy Metal and one in the Netherworld (Heavy Metal
    there) with its Church Music; both seals go back to the supply (D-REWARD-2)."""
    s = blank(3)
    populaces(s, 1, good=1, evil=1)
    put(s, 1, "good", "heaven", "seal")
    put(s, 1, "evil", "nether", "seal")
    _seal_for_seat0(s)
    assert {"target p2.good.heaven.0", "target p2.evil.nether.0"} <= legal_texts(s)
    supply = len(s.seal_supply)
    events = act(s, "target p2.good.heaven.0")
    assert [e.args["old"] for e in events if e.kind == "seal-neutralise"] == ["seal"]
    assert row(s, 1, "good", "heaven") == [] and row(s, 1, "evil", "nether") == ["seal"]
    assert len(s.seal_supply) == supply + 1


def test_r_reward_3_seal_declined_when_nothing_is_possible():
    """No free place for music, no card that music could replace, no music to neutralise: with
    replacements allowed (R-PLAY-10/14) that happens only when no display holds a populace, since
    every populace has a free music place or a Heaven/Netherworld card that music replaces or
    neutralises. Three players tied at none each receive a seal and decline it."""
    s = blank(3)
    put(s, 1, "good", "nether", "mask")  # a Netherworld card left without its populace
    supply = len(s.seal_supply)
    events = _ride(s, 1)
    declined = [e.args for e in events if e.kind == "seal-declined"]
    assert declined == [{"seat": 0}, {"seat": 1}, {"seat": 2}]
    assert len(s.seal_supply) == supply
    assert s.pending == Turn(s.startup)


def test_d_reward_2_neutralised_displayed_seal_returns_to_the_seal_supply():
    s = blank(3)
    put(s, 1, "good", "earth", "pop")
    put(s, 1, "good", "heaven", "seal")
    hand(s, 0, "metal")
    supply = len(s.seal_supply)
    act(s, "play metal neutralise", "target p2.good.heaven.0")
    assert row(s, 1, "good", "heaven") == []
    assert len(s.seal_supply) == supply + 1
    assert "seal" not in [s.code(c) for pile in s.discards for c in pile]


# --- R-END-1 / R-END-2: the last reckoning and the totals -----------------------------------------


def test_r_end_1_game_ends_after_the_reckoning_of_horseman_4():
    s = blank(2)
    put(s, 0, "good", "earth", "pop")
    put(s, 0, "good", "heaven", "church")
    events = _ride(s, 4)
    assert kinds(events)[-1] == "game-over"
    assert s.is_over and s.pending == GameOver()
    assert s.legal_actions() == []
    with pytest.raises(IllegalAction) as err:
        s.apply(parse_action("pass"))
    assert err.value.rule == "R-END-1"
    assert _owners(s, 4) == [0]  # the reward of horseman 4 is still handed out


def test_r_end_2_total_is_reckoning_scores_plus_horseman_cards():
    s = blank(3)
    s.scores = [(3, -1, 0), (2, 4, 1), (0, 0, 5), (1, 1, 1)]
    reward(s, 0, 1, 2)
    reward(s, 1, 3)
    reward(s, 2, 4)
    assert totals(s) == (6 + 1 + 2, 4 + 4, 7 + 7)


# --- R-END-3..6: who wins ---------------------------------------------------------------------


def _final(ethos: str, scores: tuple[int, ...], good: int, evil: int, variants=()):
    """A finished game: ``ethos`` like "gge", one reckoning with ``scores``, and ``good``/``evil``
    populaces in seat 0's display."""
    s = blank(len(ethos), variants=variants)
    s.ethos = tuple(GOOD if e == "g" else EVIL for e in ethos)
    s.scores = [scores]
    populaces(s, 0, good=good, evil=evil)
    return result(s)


def test_r_end_3_all_populaces_counted_and_ethos_revealed():
    s = blank(3)
    populaces(s, 0, good=2, evil=1)
    populaces(s, 2, good=0, evil=2)
    put(s, 1, "good", "earth", "saint")
    r = result(s)
    assert (r.good_populaces, r.evil_populaces) == (3, 3)
    assert r.ethos == s.ethos
    s.pending = GameOver()
    obs = s.observation(1)
    assert obs["ethos_all"] == ["good" if e == GOOD else "evil" for e in s.ethos]


def test_r_end_4_good_majority_good_win_together_when_their_sum_is_greater():
    r = _final("gge", (3, 3, 5), good=2, evil=1)
    assert (r.case, r.winners) == ("good", (0, 1))


def test_r_end_4_good_majority_equal_sums_nobody_wins():
    r = _final("gge", (3, 2, 5), good=2, evil=1)
    assert (r.case, r.winners) == ("nobody", ())


def test_r_end_4_sums_not_single_players_decide():
    """8 > 7 by the sums though the evil player has the single best total (V-GOOD-TEAM off)."""
    r = _final("gge", (4, 4, 7), good=2, evil=1)
    assert r.winners == (0, 1)


def test_v_good_team_a_good_player_beating_an_evil_player_is_enough():
    r = _final("ggee", (10, 0, 5, 6), good=2, evil=1, variants=("V-GOOD-TEAM",))
    assert (r.case, r.winners) == ("good", (0, 1))
    assert _final("ggee", (10, 0, 5, 6), good=2, evil=1).winners == ()  # 10 < 11 by the sums


def test_v_good_team_no_good_player_beats_an_evil_player():
    r = _final("gge", (4, 4, 7), good=2, evil=1, variants=("V-GOOD-TEAM",))
    assert (r.case, r.winners) == ("nobody", ())


def test_r_end_5_not_more_good_than_evil_best_evil_player_wins_alone():
    r = _final("gege", (20, 3, 9, 5), good=1, evil=1)  # a tie is "not more good"
    assert (r.case, r.winners) == ("evil", (3,))


def test_d_end_1_tied_evil_players_share_the_win():
    r = _final("eege", (9, 9, 20, 1), good=0, evil=2)
    assert (r.case, r.winners) == ("evil", (0, 1))


def test_r_end_6_shared_ethos_best_total_wins_with_the_majority():
    r = _final("gg", (3, 5), good=2, evil=1)
    assert (r.case, r.winners) == ("shared-ethos", (1,))
    r = _final("eee", (3, 5, 5), good=1, evil=2)
    assert (r.case, r.winners) == ("shared-ethos", (1, 2))


def test_r_end_6_shared_ethos_a_tied_populace_count_is_nobodys_majority():
    """R-END-6, German 2009 text: players sharing one ethos win only if that ethos is "am meisten
    auf dem Tisch vertreten" — with as many good as evil populaces, all lose (either ethos)."""
    assert _final("eee", (3, 5, 5), good=1, evil=1).winners == ()
    assert _final("gg", (3, 5), good=2, evil=2).winners == ()
    assert _final("eee", (3, 5, 5), good=1, evil=1, variants=("V-EDITION-2008",)).winners == (1, 2)


def test_r_end_6_shared_ethos_against_the_majority_all_lose():
    assert _final("gg", (3, 5), good=1, evil=1).winners == ()
    assert _final("eee", (3, 5, 1), good=2, evil=1).winners == ()


def test_v_edition_2008_shared_ethos_best_total_wins_regardless_of_majority():
    r = _final("gg", (3, 5), good=1, evil=2, variants=("V-EDITION-2008",))
    assert (r.case, r.winners) == ("shared-ethos", (1,))
    r = _final("eee", (3, 5, 1), good=2, evil=1, variants=("V-EDITION-2008",))
    assert r.winners == (1,)


def test_v_good_ties_a_tie_in_populaces_is_decided_by_the_good_sum():
    """V-GOOD-TIES (the balance lab's proposal): as many good as evil populaces count as a good
    majority, so R-END-4 decides; strictly more evil populaces still let evil rule (R-END-5)."""
    ties = ("V-GOOD-TIES",)
    assert _final("gege", (20, 3, 9, 5), good=1, evil=1).case == "evil"  # the rule without it
    r = _final("gege", (20, 3, 9, 5), good=1, evil=1, variants=ties)
    assert (r.case, r.winners) == ("good", (0, 2))
    r = _final("gege", (2, 3, 1, 5), good=1, evil=1, variants=ties)  # the good sum is not larger
    assert (r.case, r.winners) == ("nobody", ())
    r = _final("gege", (20, 3, 9, 5), good=1, evil=2, variants=ties)
    assert (r.case, r.winners) == ("evil", (3,))


def test_v_good_ties_leaves_the_shared_ethos_case_alone():
    """R-END-6 keeps its own tie rule under V-GOOD-TIES: a tie is nobody's majority."""
    assert _final("gg", (3, 5), good=2, evil=2, variants=("V-GOOD-TIES",)).winners == ()
