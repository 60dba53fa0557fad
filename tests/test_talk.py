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


# Characters that draw nothing, or nothing a reader can tell from a name without them.
UNDRAWN = [
    "\u200b",  # zero-width space
    "\u2060",  # word joiner
    "\ufeff",  # byte order mark
    "\u00ad",  # soft hyphen
    "\u061c",  # Arabic letter mark
    "\u3164",  # Hangul filler
    "\u034f",  # combining grapheme joiner
    "\u180e",  # Mongolian vowel separator
    "\u2800",  # Braille blank
    "\U000e0041",  # a tag character
    "\ufe0f",  # a variation selector
    "\U000e0100",  # a variation selector (supplement)
    "\ue000",  # a private use character
]


@pytest.mark.parametrize("undrawn", UNDRAWN, ids=[f"U+{ord(c):04X}" for c in UNDRAWN])
def test_a_name_cannot_hold_a_character_that_draws_nothing(undrawn: str) -> None:
    for raw in (f"p2{undrawn}", f"A{undrawn}nn", f"{undrawn}Ann"):
        with pytest.raises(BadText) as refused:
            check_name(raw)
        assert refused.value.key == "name-invisible", ascii(raw)


def test_a_name_has_one_spelling_and_marks_only_on_letters() -> None:
    assert check_name("\uff21\uff4e\uff4e") == "Ann"  # full width: NFKC
    assert check_name("Ann\u00a0\u3000 Lee") == "Ann Lee"  # other spaces, one between words
    assert check_name("Zoe\u0308\u0301") == "Zoë\u0301"  # two marks on a letter are writing
    for raw in ("\u0301Ann", "Ann\u0308\u0301\u0300\u0302"):  # a mark on nothing, marks piled
        with pytest.raises(BadText) as refused:
            check_name(raw)
        assert refused.value.key == "name-invisible", ascii(raw)


@pytest.mark.parametrize(
    "raw",
    [
        "p2 (you)",
        "Ann (Du)",
        "Expert (computer)",
        "Bob (p3)",
        "System",
        "server",
        "SPECTATOR",
        "Zuschauer",
        "p2",
        "P4",
        "\uff50\uff12",
        "p 3",
        "You",
        "Computer",
    ],
)
def test_a_name_is_nothing_the_page_writes_itself(raw: str) -> None:
    with pytest.raises(BadText) as refused:
        check_name(raw)
    assert refused.value.key == "name-reserved"
    assert check_name("Pat") == "Pat" and check_name("p2p") == "p2p"


def test_names_that_look_alike_are_told_apart_by_their_seats() -> None:
    kinds = ["human", "human", "human"]
    assert seat_names(3, None, "en", ["Ann", "ANN", "Bob"], kinds) == [
        "Ann (p1)",
        "ANN (p2)",
        "Bob",
    ]
    assert seat_names(2, 1, "en", ["Ann Lee", "annlee"], kinds) == [
        "Ann Lee (p1)",
        "annlee (p2) (you)",
    ]


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
        "Ann (p1) (du)",
        "Ann (p2)",
    ]
    assert seat_names(2, None, "de", [], ["human", "hard"]) == ["p1", "Schwer (Computer)"]
