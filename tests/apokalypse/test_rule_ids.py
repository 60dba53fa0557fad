"""Every rule, decision and variant id of ``docs/rules/apokalypse.md`` is named by a test that
checks it, in the test's name or docstring (``test_r_play_8_…`` checks R-PLAY-8), and the list
below is exactly the ids of that file."""

from __future__ import annotations

import pkgutil
import re
from pathlib import Path

import pytest

import tests.apokalypse
from tests.rule_ids import named_in, names

RULE_IDS = (
    "R-DEAL-3",
    "R-COMP-1",
    "R-COMP-2",
    "R-COMP-3",
    "R-COMP-4",
    "R-COMP-5",
    "D-COMP-1",
    "D-COMP-2",
    "R-SETUP-1",
    "R-SETUP-2",
    "R-SETUP-3",
    "V-ETHOS-BALANCED",
    "R-SETUP-4",
    "R-SETUP-5",
    "R-REWARD-1",
    "R-SETUP-6",
    "R-TURN-1",
    "R-TURN-2",
    "R-ATTACK-4",
    "R-TURN-3",
    "R-TURN-4",
    "R-TURN-5",
    "R-PLAY-1",
    "R-PLAY-2",
    "R-PLAY-3",
    "R-PLAY-4",
    "R-PLAY-5",
    "D-PLAY-1",
    "R-PLAY-6",
    "R-PLAY-7",
    "R-PLAY-8",
    "R-PLAY-9",
    "R-PLAY-10",
    "R-PLAY-11",
    "R-PLAY-12",
    "R-PLAY-13",
    "R-PLAY-14",
    "R-PLAY-15",
    "R-PLAY-16",
    "R-PLAY-17",
    "R-ATTACK-1",
    "R-ATTACK-2",
    "R-ATTACK-3",
    "V-ETHOS-ORPHANS",
    "R-REWARD-3",
    "D-ATTACK-1",
    "R-DEAL-1",
    "R-DEAL-2",
    "D-DEAL-1",
    "R-DEAL-4",
    "D-DEAL-2",
    "R-DEAL-5",
    "R-HORSE-1",
    "R-HORSE-2",
    "R-HORSE-3",
    "R-HORSE-4",
    "D-HORSE-1",
    "R-HORSE-5",
    "D-HORSE-2",
    "R-REWARD-2",
    "D-REWARD-1",
    "D-REWARD-2",
    "R-REFILL-1",
    "R-END-1",
    "R-END-2",
    "R-END-3",
    "R-END-4",
    "V-GOOD-TEAM",
    "R-END-5",
    "V-GOOD-TIES",
    "D-END-1",
    "R-END-6",
    "V-EDITION-2008",
    "R-INFO-1",
    "R-INFO-2",
    "R-INFO-3",
    "D-INFO-1",
)
ID_PATTERN = re.compile(r"\b(?:R|D)-[A-Z]+-\d+\b|\bV-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
RULES_FILE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "apokalypse.md"


def _named() -> str:
    return named_in(
        f"tests.apokalypse.{m.name}" for m in pkgutil.iter_modules(tests.apokalypse.__path__)
    )


@pytest.mark.parametrize("rule", RULE_IDS)
def test_every_rule_id_has_a_test(rule: str) -> None:
    assert names(rule, _named()), rule


def test_the_list_matches_the_rules_reference() -> None:
    assert RULES_FILE.is_file(), f"the rules reference {RULES_FILE} is missing"
    assert set(ID_PATTERN.findall(RULES_FILE.read_text("utf-8"))) == set(RULE_IDS)
