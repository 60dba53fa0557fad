"""Texts that read right for every player, whatever their screen: the lobby's computer levels
say what each is and what the ladder measured (docs/players.md, "The ladder"), and a hint on a
touch screen says "tap" where a mouse would point or click (in the browser:
tests/browser/test_touch.py; whole names on every screen: tests/browser/test_fit.py)."""

from __future__ import annotations

import re
from pathlib import Path

from apokalypse.server.catalog import catalog

ROOT = Path(__file__).parents[1]
WEB = ROOT / "web" / "src"


def _ladder() -> dict[str, float]:
    """The measured steps of the ladder's table as they stand now ("medium − easy": +25.0)."""
    doc = (ROOT / "docs" / "players.md").read_text("utf-8")
    section = doc.split("### The ladder", 1)[1]
    steps: dict[str, float] = {}
    for row in (line for line in section.splitlines() if line.startswith("| ")):
        cells = [c.strip() for c in row.strip("|").split("|")]
        found = re.search(r"\*\*([+−-]\d+\.\d)\*\*", row)
        if found and (cells[0].endswith("(now; 400 games)") or "(" not in cells[0]):
            steps[cells[0].split(",")[0]] = float(found.group(1).replace("−", "-"))
    return steps


def test_the_lobby_levels_say_what_the_ladder_measured():
    """Each level says what it is in one line: the measured steps of the ladder (medium beats
    easy by 25 points of 100, hard medium by 21) and that expert is not yet shown stronger."""
    ladder = _ladder()
    assert round(ladder["medium − easy"]) == 25 and round(ladder["hard − medium"]) == 21
    for lang, (medium, hard, expert) in {
        "en": ("wins 25 in 100", "wins 21 in 100", "not yet shown stronger than hard"),
        "de": ("gewinnt 25 von 100", "gewinnt 21 von 100", "noch nicht als stärker als schwer"),
    }.items():
        choices = catalog(lang)["seats"]
        seats = {seat["kind"]: seat["about"] or "" for seat in choices}
        assert medium in seats["medium"] and hard in seats["hard"], seats
        assert expert in seats["expert"], seats
        assert "40 %" in seats["easy"]  # docs/players.md: 40 % of its decisions random
        assert all("\n" not in about and len(about) <= 90 for about in seats.values())
        # the labels in the seats' selects stay short enough to show whole
        assert all(len(seat["label"]) <= 24 for seat in choices if seat["about"]), choices


def test_a_hint_on_a_touch_screen_says_tap():
    """Where no pointer can hover (``(hover: none)``: a phone), "Point at a card" and "Click …"
    cannot be done: the page says "Tap …" / "Tippe …" there."""
    words = (WEB / "i18n.ts").read_text("utf-8")
    english, german = words.split("\nconst de", 1)
    for block, tap in ((english, "Tap "), (german, "Tippe auf ")):
        hints = dict(re.findall(r'^  (tap\w+|cardHelpHintTouch): "([^"]*)"', block, re.M))
        assert set(hints) == {"tapCard", "tapPlace", "tapPlayer", "tapHand", "cardHelpHintTouch"}
        assert all(hint.startswith(tap) for hint in hints.values()), hints
    # Where the page shows them (a touch screen, not a desktop): tests/browser/test_touch.py.
