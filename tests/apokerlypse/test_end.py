"""Between rounds and the end of the game: K-END-1, KD-END-1, KD-END-2, and the engine's
"nobody can pay" end (see the package notes)."""

from __future__ import annotations

import io

from rich.console import Console

from apokalypse.cli.ui import make_ui
from apokalypse.games.apokerlypse import State
from tests.apokerlypse.builders import (
    act,
    all_cards,
    chips_total,
    deal_round,
    finish_round,
    kinds,
    new,
    of_kind,
    play_until,
)

ROYAL = ["As", "Ks", "Qs", "Js", "Ts"]
LOW = ["2c", "3d", "4h", "5s", "7c"]


def _won_back() -> State:
    """Seat 0 runs out of chips in round 1 and wins chips back in its scoring (K-END-1)."""
    s = new(2)
    deal_round(s, {0: ROYAL, 1: LOW}, draws=["2d", "3h", "2h", "3s"], chips=[1, 23])
    act(s, "discard 2d", "discard 3h", "discard 2h", "discard 3s")
    finish_round(s)
    return s


def test_k_end_1_the_end_names_who_ran_out_even_with_chips_won_back() -> None:
    """K-END-1: the game's end says who ran out of chips, like the game-over event, although
    they won chips back: the observation (the page, the terminal) carries them; the record's
    result stays as it was."""
    s = _won_back()
    assert s.result is not None and s.result.chips == (3, 21)
    assert "broke" not in s.result.to_json()  # records unchanged
    for viewer in (None, 0, 1):
        assert s.observation(viewer)["result"]["broke"] == [0]
    names = ["Anna", "Ben"]
    for lang, said in (
        ("en", "Anna ran out of chips during dealer round 1"),
        ("de", "im Lauf von Geberrunde 1 sind Anna die Chips ausgegangen"),
    ):
        ui = make_ui("apokerlypse", s.config.to_json(), lang)
        out = io.StringIO()
        Console(width=120, file=out, color_system=None).print(
            ui.result_view(s.observation(None)["result"], names)
        )
        assert said in " ".join(out.getvalue().split()), out.getvalue()


def test_k_end_1_the_game_ends_after_the_round_in_which_a_player_runs_out() -> None:
    """K-END-1: a player at 0 chips ends the game after the current round, even if they win
    chips back in it; the most chips win."""
    s = new(2)
    events = deal_round(s, {0: ROYAL, 1: LOW}, draws=["2d", "3h", "2h", "3s"], chips=[1, 23])
    assert s.chips[0] == 0 and not s.is_over  # the round goes on
    assert s.observation(1)["ends_after_round"]  # public: everyone saw the chips run out
    act(s, "discard 2d", "discard 3h", "discard 2h", "discard 3s")
    events = finish_round(s)
    assert of_kind(events, "pot")[0].args["winners"] == [0]  # won chips back …
    assert s.is_over  # … and the game still ends
    assert s.result is not None
    assert s.result.to_json() == {
        "winners": [1],
        "chips": [3, 21],
        "rounds": 1,
        "reason": "no-chips",
    }
    assert kinds(events)[-1] == "game-over"
    assert s.legal_actions() == []


def test_kd_end_1_tied_chip_leaders_share_the_win() -> None:
    """KD-END-1: players tied for the most chips share the win."""
    s = new(2)
    hands = {0: ["2c", "3d", "4h", "5s", "7c"], 1: ["2d", "3h", "4s", "5c", "7d"]}
    deal_round(s, hands, draws=["6c", "6d", "6h", "6s"], chips=[1, 1])
    events = finish_round(s)
    assert of_kind(events, "pot")[0].args["winners"] == [0, 1]
    assert s.result is not None
    assert s.result.winners == (0, 1) and s.result.chips == (1, 1)


def test_kd_end_2_dealer_passes_clockwise_and_all_cards_are_shuffled_together() -> None:
    """KD-END-2: between rounds the dealer passes clockwise; hands, discard piles and the draw
    pile are shuffled together and five cards dealt again."""
    s = new(3, seed=4)
    deal_round(s, {}, dealer=2)
    events = finish_round(s)
    start = of_kind(events, "round-start")[0].args
    assert start["dealer"] == 0 and start["round"] == 2 and s.dealer == 0
    assert [e.args["count"] for e in of_kind(events, "deal")] == [5, 5, 5]
    assert sorted(all_cards(s)) == list(range(52))
    assert all(pile == [] for pile in s.discards)
    first = [e.args["seat"] for e in of_kind(events, "pay") if e.args["step"] == "draw-1"]
    assert first == [1, 2, 0]  # round 2 starts left of the new dealer


def test_kd_end_2_an_empty_draw_pile_is_refilled_from_the_discard_piles() -> None:
    """KD-END-2: when the draw pile runs out mid-round, the discard piles are shuffled into a
    new draw pile."""
    s = new(2)
    deal_round(s, {0: LOW, 1: ["2d", "3h", "4s", "5c", "8d"]}, draws=["9c", "9d", "Tc", "Td"])
    play_until(s, "stake")
    s.discards[0].extend(s.pile[1:])
    del s.pile[1:]
    assert len(s.pile) == 1
    events = act(s, "pay")
    assert kinds(events) == ["pay", "draw", "reshuffle", "draw"]
    assert all(pile == [] for pile in s.discards)
    assert sorted(all_cards(s)) == list(range(52)) and chips_total(s) == 48


def test_when_nobody_can_pay_the_round_is_the_last() -> None:
    """Engine decision (costs only rise): once no player can pay a round's cost, nobody ever
    will; that round is played with everybody short, and the game ends after it."""
    s = new(2)
    events = deal_round(s, {0: ROYAL, 1: LOW}, chips=[2, 2], round=3)
    assert s.last_round and kinds(events)[:2] == ["short", "short"]
    events = finish_round(s)
    assert s.result is not None and s.result.reason == "nobody-can-pay"
    assert s.result.winners == (0, 1)  # the pot was empty: 2 chips each
    assert of_kind(events, "pot")[0].args["winners"] == [0]
