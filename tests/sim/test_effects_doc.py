"""The table of docs/balance.md that says how often each Apokerlypse card's effect matters cannot
drift (KD-SETUP-1): its rows are the default content's cards as they are now, no card is under
the target, and a small sample of the very run it was made from, played again here, agrees
with every one of its 156 figures."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pyarrow.dataset as ds
import pytest

from apokalypse.cli.effects import END, START, describe
from apokalypse.cli.simulate import run_simulate
from apokalypse.games.apokerlypse.cards import CODES
from apokalypse.games.apokerlypse.content import DEFAULT_CONTENT, load_content
from apokalypse.sim.effects_table import COUNTS, TARGET, effects_table, label

DOC = Path(__file__).resolve().parents[2] / "docs" / "balance.md"
# The run the table was made from (its command is in docs/balance.md): game i has seed
# SEED + i and 2 + i mod 3 players, so its first SAMPLE games are a sample of each table size.
SEED = 1000000
SAMPLE = 150
CELL = re.compile(r"^(?:\*\*)?(?P<share>[0-9.]+) % \((?P<holdings>\d+)\)(?:\*\* ✗)?$")
Z = 3.29  # standard errors: a 99.9 % interval around the sample's share (50 games a size)


def documented() -> tuple[str, dict[str, list[str]]]:
    """The block's first line and its rows by card label: name, effect, a cell per size."""
    text = DOC.read_text("utf-8")
    assert text.count(START) == 1 and text.count(END) == 1, "the effects table's markers"
    block = text.split(START)[1].split(END)[0].strip().splitlines()
    rows: dict[str, list[str]] = {}
    for line in block:
        if line.startswith("| ") and not line.startswith(("| card |", "| **below")):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            rows[cells[0]] = cells[1:]
    return block[0], rows


def test_kd_setup_1_the_documented_table_is_the_default_contents_every_card_at_target() -> None:
    """Every card of the default content, named and described as the content has it now, and
    none under the target at any table size (the issue's promise: no effect is a no-op)."""
    head, rows = documented()
    assert f"Content “{DEFAULT_CONTENT}”" in head
    sizes = {int(n): int(games) for games, n in re.findall(r"(\d+) at (\d) players", head)}
    assert sorted(sizes) == list(COUNTS) and sum(sizes.values()) >= 15000  # the study's size
    content = load_content(DEFAULT_CONTENT)
    assert list(rows) == [label(code) for code in CODES]
    for card, code in enumerate(CODES):
        effect = content.effects[card]
        assert effect is not None
        name, what, *cells = rows[label(code)]
        assert (name, what) == (effect.name, describe(effect).replace("|", "\\|")), code
        for cell in cells:
            match = CELL.match(cell)
            assert match is not None, (code, cell)
            assert float(match["share"]) >= 100 * TARGET and "✗" not in cell, (code, cell)


def clustered(rounds: list[tuple[int, int]], published: float) -> tuple[float, float]:
    """The share of a card's holdings in which it mattered, over games given as (mattered,
    holdings), and its standard error with the games as clusters (a card held in several rounds
    of one game is not several independent draws): the ratio estimator's, never below the
    binomial one at the published share (a sample of all or nothing has no spread of its own)."""
    held = sum(h for _, h in rounds)
    share = sum(m for m, _ in rounds) / held
    games = len(rounds)
    spread = sum((m - share * h) ** 2 for m, h in rounds) * games / max(games - 1, 1)
    binomial = math.sqrt(published * (1 - published) / held)
    return share, max(math.sqrt(spread) / held, binomial)


@pytest.mark.long(80)
# Not traced for coverage: it plays 150 games of the lab's own path, which the other lab tests
# cover, and tracing made it 3.2 times slower (42 s → 136 s on an idle machine; 444 s in a run
# beside the rest of the suite, its longest test by far).
@pytest.mark.no_cover
def test_kd_setup_1_a_sample_of_its_run_agrees_with_every_figure(tmp_path: Path) -> None:
    """The first games of the documented run, played again: each card's share at each size
    lies within Z standard errors of the figure published (seeded: the same games, so this
    passes or fails the same way every time, and fails when the definition, the content or the
    players move the figures beyond chance)."""
    _, rows = documented()
    folder = tmp_path / "sample"
    status = run_simulate(
        "apokerlypse", SAMPLE, "2-4", SEED, "medium", 1, None, True, [], Path(DEFAULT_CONTENT),
        folder,
    )  # fmt: skip
    assert status == 0
    assert effects_table(folder).games == {n: SAMPLE // len(COUNTS) for n in COUNTS}
    games = ds.dataset(folder / "games").to_table(
        columns=["players", "effect_holdings", "effect_mattered"]
    )
    per_card: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for game in games.to_pylist():
        held, mattered = dict(game["effect_holdings"]), dict(game["effect_mattered"] or [])
        for code, rounds in held.items():
            per_card.setdefault((game["players"], code), []).append((mattered.get(code, 0), rounds))
    checked = 0
    for (n, code), rounds in sorted(per_card.items()):
        if sum(h for _, h in rounds) < 10:
            continue  # too few to say anything
        match = CELL.match(rows[label(code)][2 + COUNTS.index(n)])
        assert match is not None
        published = float(match["share"]) / 100  # rounded down to 0.1 %
        share, error = clustered(rounds, published)
        assert abs(published + 0.0005 - share) <= Z * error + 0.0005, (code, n, share, match[0])
        checked += 1
    assert checked >= 140  # nearly every card is held often enough at every size
