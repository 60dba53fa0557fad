"""How often each Apokerlypse card's effect matters, per table size, from a results folder of
``apokalypse simulate -g apokerlypse --out DIR`` (``apokalypse effects DIR``).

For every card and player count: its holdings (the rounds it was held at a final scoring or its
effect was used) and the share of them in which its effect mattered, summed over the run's
finished games; the definition is the collector's (``sim/collect/effect_impact.py``). A designer
wants every card at :data:`TARGET` or more at 2, 3 and 4 players: an effect that almost never
matters is a card without an effect.

The cards' names and effects are those of the content the run was played with (KD-SETUP-1): the
one its manifest names (``cards``, a packaged name or a file; ``deck`` its hash) and its variants;
when that cannot be read, the packaged default (``DEFAULT_CONTENT``), with a note.

:func:`effects_table` returns plain data (a test reads it); ``apokalypse effects``
(``cli/effects.py``) writes it out in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pyarrow as pa

from apokalypse.engine.errors import ConfigError
from apokalypse.games.apokerlypse import GAME
from apokalypse.games.apokerlypse.cards import CODES, SUIT_SYMBOLS, SUITS
from apokalypse.games.apokerlypse.content import (
    DEFAULT_CONTENT,
    PACKAGED,
    Content,
    Effect,
    load_content,
    packaged_text,
)
from apokalypse.sim.tables import ResultsError, deck_name, read_results

TARGET = 0.05  # the share of its holdings in which every card's effect should matter
COUNTS = (2, 3, 4)  # the table sizes of Apokerlypse (K-SETUP-1), one column each


@dataclass(frozen=True)
class CardImpact:
    """One card: ``counts[n]`` is (mattered, holdings) at ``n`` players, in rounds."""

    code: str  # "7h"
    label: str  # "7♥"
    name: str  # the content's label ("" without one)
    effect: Effect | None  # None: no effect in this content
    counts: dict[int, tuple[int, int]]

    def share(self, n: int) -> float | None:
        """The share of its holdings at ``n`` players in which it mattered (None: never held)."""
        mattered, holdings = self.counts.get(n, (0, 0))
        return mattered / holdings if holdings else None

    def below(self, n: int) -> bool:
        share = self.share(n)
        return share is not None and share < TARGET


@dataclass(frozen=True)
class EffectsTable:
    folder: str
    content: str  # the content's name
    note: str  # how the content was found, when not as the run named it ("" otherwise)
    games: dict[int, int]  # finished games by player count
    cards: list[CardImpact]  # the 52, in card order (2♠, 2♥ … A♣)

    def below(self, n: int) -> list[CardImpact]:
        """The cards under :data:`TARGET` at ``n`` players (those never held not among them)."""
        return [card for card in self.cards if card.below(n)]


def label(code: str) -> str:
    """``"Th"`` → ``"10♥"``, as on the cards."""
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUIT_SYMBOLS[SUITS.index(code[1])]


def run_content(manifest: dict[str, Any]) -> tuple[Content, str]:
    """The content the run was played with, and a note when it is not quite that one."""
    named, deck = manifest.get("cards"), manifest.get("deck", "default")
    text: str | None = None
    note = ""
    if deck != "default":
        text = _text(named)
        if text is None:
            return load_content(DEFAULT_CONTENT), (
                f"the run's content {named!r} cannot be read: names and effects are those of"
                f" the packaged {DEFAULT_CONTENT!r}"
            )
        if deck_name(text) != deck:
            note = f"the content {named!r} has changed since the run ({deck} then)"
    try:
        config = GAME.config_from_options(COUNTS[0], manifest.get("variants") or [], text)
    except ConfigError as exc:
        return load_content(DEFAULT_CONTENT), (
            f"the run's content cannot be used ({exc}): names and effects are those of the"
            f" packaged {DEFAULT_CONTENT!r}"
        )
    return config.rules_content, note


def _text(named: object) -> str | None:
    if not isinstance(named, str):
        return None
    if named in PACKAGED:
        return packaged_text(named)
    try:
        return Path(named).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _maps(games: pa.Table, column: str) -> list[dict[str, int] | None]:
    return [None if m is None else dict(m) for m in games.column(column).to_pylist()]


def effects_table(folder: Path) -> EffectsTable:
    """The table of a results folder; one-line :class:`ConfigError` for a folder it cannot use."""
    results = read_results(folder)
    if results.manifest["game"] != GAME.name:
        raise ResultsError(f"{folder} holds {results.manifest['game']} results, not apokerlypse")
    games = results.games
    # never null: a failed game keeps its identity columns
    players = cast("list[int]", games.column("players").to_pylist())
    errors = games.column("error").to_pylist()
    holdings, mattered = _maps(games, "effect_holdings"), _maps(games, "effect_mattered")
    totals: dict[tuple[int, str], list[int]] = {}  # (players, card) → [mattered, holdings]
    finished: dict[int, int] = {}
    for n, error, held, mat in zip(players, errors, holdings, mattered, strict=True):
        if error is not None or held is None:
            continue
        finished[n] = finished.get(n, 0) + 1
        for code, rounds in held.items():
            counts = totals.setdefault((n, code), [0, 0])
            counts[1] += rounds
            counts[0] += (mat or {}).get(code, 0)
    if not finished:
        raise ResultsError(
            f"{folder} holds no finished game with the effect columns (a folder written before"
            " they were added: run the simulation again into a new folder)"
        )
    content, note = run_content(results.manifest)
    cards = [
        CardImpact(
            code,
            label(code),
            effect.name if (effect := content.effects[card]) is not None else "",
            effect,
            {n: (c[0], c[1]) for n in COUNTS if (c := totals.get((n, code))) is not None},
        )
        for card, code in enumerate(CODES)
    ]
    return EffectsTable(str(folder), content.name, note, finished, cards)
