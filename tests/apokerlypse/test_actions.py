"""Action notation: every action's text parses back to it; bad text gets a NotationError."""

from __future__ import annotations

import pytest

from apokalypse.engine.errors import NotationError
from apokalypse.games.apokerlypse import Action, parse_action
from apokalypse.games.apokerlypse.actions import VERBS
from apokalypse.games.apokerlypse.cards import CODES, parse_card


def test_every_action_round_trips() -> None:
    actions = [Action(v) for v in ("pay", "stand", "drop", "ability", "done", "allow")]
    for verb in ("discard", "use", "give", "swap", "block"):
        actions += [Action(verb, card) for card in range(52)]
    actions += [Action("target", seat=q) for q in range(4)]
    assert {a.verb for a in actions} == set(VERBS)
    for action in actions:
        assert parse_action(str(action)) == action
    assert str(Action("discard", parse_card("Th"))) == "discard Th"
    assert str(Action("target", seat=2)) == "target p3"


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("  PAY ", Action("pay")),
        ("discard 10h", Action("discard", parse_card("Th"))),
        ("Use as", Action("use", parse_card("As"))),
        ("block 7S", Action("block", parse_card("7s"))),
        ("target P2", Action("target", seat=1)),
    ],
)
def test_notation_is_forgiving_about_case_and_tens(text: str, action: Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(
    "text",
    ["", "fold", "pay now", "discard", "discard 1h", "discard 7x", "use joker", "target p0",
     "target 2", "target p", "block 7h 7s"],
)  # fmt: skip
def test_bad_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_card_codes_are_rank_then_suit() -> None:
    assert CODES[:4] == ("2s", "2h", "2d", "2c") and CODES[-1] == "Ac"


@pytest.mark.parametrize(
    "text",
    ["target p²", "target p1²", "target p٣", "target p" + "9" * 5000, "target p1234",
     "target p+1", "target p 1", "target p-1", "target p1.", "target p1_0", "discard ²h",
     "discard 1٠h", "use ⅰh", "target p\x1b[31m"],
)  # fmt: skip
def test_seats_and_cards_take_ascii_digits_only(text: str) -> None:
    """``str.isdigit()`` is true for '²' and int() refuses 5,000 digits: both were crashes."""
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert "\n" not in str(info.value) and "\x1b" not in str(info.value)


def test_a_huge_action_text_gets_a_short_error() -> None:
    with pytest.raises(NotationError) as info:
        parse_action("target p" + "1" * 100_000)
    assert len(str(info.value)) < 200
