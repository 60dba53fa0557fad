"""Names and table talk on the wire (apokalypse.wire.talk): what a name or a line may be, and who
reads a line."""

from __future__ import annotations

import pytest

from apokalypse.i18n import seat_names
from apokalypse.wire.talk import BadText, channel_of, check_name, check_text, may_read


def test_a_name_is_trimmed_normalised_and_bounded():
    assert check_name("  Ann  ") == "Ann"
    assert check_name("Zoe\u0308") == "Zoë"  # NFC: one character, not two
    assert check_name("x" * 24) == "x" * 24
    assert check_name("<img src=x onerror=1>") == "<img src=x onerror=1>"  # kept as text
    for raw, key in [
        ("", "name-empty"),
        ("   ", "name-empty"),
        ("x" * 25, "name-long"),
        ("Ann\nBob", "name-control"),
        ("Ann\x00", "name-control"),
        ("\u202eevil", "name-control"),  # a right-to-left override would disguise it
    ]:
        with pytest.raises(BadText) as refused:
            check_name(raw)
        assert refused.value.key == key, raw


def test_a_line_is_one_line_of_at_most_300_characters():
    assert check_text(" Good game! ") == "Good game!"
    assert check_text("y" * 300) == "y" * 300
    for raw, key in [("", "say-empty"), ("y" * 301, "say-long"), ("a\nb", "say-control")]:
        with pytest.raises(BadText) as refused:
            check_text(raw)
        assert refused.value.key == key


def test_the_spectators_channel_reaches_players_only_once_the_game_is_over():
    assert channel_of(0) == "players" and channel_of(None) == "spectators"
    for seat in (0, 3):
        assert may_read(seat, "players", over=False)
        assert not may_read(seat, "spectators", over=False)
        assert may_read(seat, "spectators", over=True)
    assert may_read(None, "players", over=False) and may_read(None, "spectators", over=False)


def test_seat_names_use_chosen_names_and_computer_levels():
    kinds = ["human", "medium", "human", "medium"]
    assert seat_names(4, 2, "en", ["Ann", None, None, None], kinds) == [
        "Ann",
        "Medium (computer) (p2)",  # two of a level are told apart by their seat
        "p3 (you)",
        "Medium (computer) (p4)",
    ]
    assert seat_names(2, 0, "de", ["Ann", "Ann"], ["human", "human"]) == [
        "Ann (p1) (Du)",
        "Ann (p2)",
    ]
    assert seat_names(2, None, "de", [], ["human", "hard"]) == ["p1", "Schwer (Computer)"]
