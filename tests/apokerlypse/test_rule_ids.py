"""Every rule id of ``docs/rules/apokerlypse.md`` is named by a test that checks it (in the
test's name or docstring), as docs/tests.md says: ``test_k_score_7_…`` checks
K-SCORE-7."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.rule_ids import named_in, names

RULE_IDS = (
    "K-SETUP-1",
    "K-SETUP-2",
    "KD-SETUP-1",
    "K-ROUND-1",
    "K-ROUND-2",
    "K-ROUND-3",
    "K-ROUND-4",
    "KD-ROUND-1",
    "K-SHORT-1",
    "K-SCORE-1",
    "K-SCORE-2",
    "K-SCORE-3",
    "K-SCORE-4",
    "K-SCORE-5",
    "K-SCORE-6",
    "K-SCORE-7",
    "KD-SCORE-1",
    "KD-SCORE-2",
    "KD-EFFECT-1",
    "KD-EFFECT-2",
    "KD-EFFECT-3",
    "KD-EFFECT-4",
    "KD-EFFECT-5",
    "K-END-1",
    "KD-END-1",
    "KD-END-2",
    "KV-TABLE",
    "KV-BONUS-CAP",
)
MODULES = (
    "test_content",
    "test_round",
    "test_scoring",
    "test_end",
    "test_effects",
    "test_steal_and_shield",
    "test_supply_effects",
)
ID_PATTERN = re.compile(r"\bK[DV]?-[A-Z]+(?:-[A-Z]+)*(?:-\d+)?")
RULES_FILE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "apokerlypse.md"


def _named() -> str:
    return named_in(f"tests.apokerlypse.{module}" for module in MODULES)


@pytest.mark.parametrize("rule", RULE_IDS)
def test_every_rule_id_has_a_test(rule: str) -> None:
    assert names(rule, _named()), rule


def test_the_list_matches_the_rules_reference() -> None:
    assert RULES_FILE.is_file(), f"the rules reference {RULES_FILE} is missing"
    found = set(ID_PATTERN.findall(RULES_FILE.read_text("utf-8")))
    sections = {f for f in found if any(g.startswith(f + "-") for g in found)}  # (K-SETUP) …
    assert found - sections == set(RULE_IDS)
