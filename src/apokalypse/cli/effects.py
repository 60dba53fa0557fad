"""``apokalypse effects DIR [--out FILE.md]``: how often each Apokerlypse card's effect matters,
per table size, from a results folder of ``apokalypse simulate -g apokerlypse --out DIR``
(the figures: :mod:`apokalypse.sim.effects_table`; the definition:
``sim/collect/effect_impact.py``).

The Markdown table goes to ``--out`` or, without it, to standard output (so that it can be piped);
a summary for people, the cards under the target at each table size, goes to the console
(standard error when standard output carries the table)."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.record import atomic_write
from apokalypse.games.apokerlypse.content import Effect
from apokalypse.i18n.apokerlypse.render import effect_what, t
from apokalypse.sim.effects_table import COUNTS, TARGET, CardImpact, EffectsTable, effects_table

from .safe import printable

LANG = "en"  # the lab's tables are English, like the report


def describe(effect: Effect | None) -> str:
    """``"when drawn: gain 1 chip from the bank"``; ``"–"`` for a card without an effect."""
    if effect is None:
        return "–"
    return (
        f"{t(f'timing.{effect.timing}', LANG)}: {effect_what(effect.kind, effect.params(), LANG)}"
    )


def share(card: CardImpact, n: int) -> str:
    """``"12.3 % (340)"``: the share rounded down, so that a card under the target never shows
    as on it (4.97 % as 4.9 %), and the holdings; ``"– (0)"`` for a card never held."""
    mattered, holdings = card.counts.get(n, (0, 0))
    if not holdings:
        return "– (0)"
    return f"{1000 * mattered // holdings / 10:.1f} % ({holdings})"


def cell(card: CardImpact, n: int) -> str:
    """The table's cell: under the target in bold, with ✗."""
    text = share(card, n)
    return f"**{text}** ✗" if card.below(n) else text


def _escaped(text: str) -> str:
    """Text safe inside a Markdown table cell (a content's label is free text)."""
    return text.replace("\\", "\\\\").replace("|", "\\|") or "–"


# The block of a document (docs/balance.md) that ``--into`` replaces with the table.
START = "<!-- effects table: made by `apokalypse effects DIR --into FILE`; do not edit by hand -->"
END = "<!-- end of the effects table -->"


def table_lines(table: EffectsTable) -> list[str]:
    """The 52 cards in card order, a column per table size, and the cards under the target."""
    games = ", ".join(f"{table.games.get(n, 0)} at {n} players" for n in COUNTS)
    lines = [
        f"Content “{_escaped(table.content)}”, {games} (finished games; results folder"
        f" `{table.folder}`).",
    ]
    if table.note:
        lines += ["", f"Note: {table.note}."]
    head = ["card", "name", "effect", *(f"{n} players" for n in COUNTS)]
    lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for card in table.cards:
        cells = [card.label, _escaped(card.name), _escaped(describe(card.effect))]
        lines.append("| " + " | ".join([*cells, *(cell(card, n) for n in COUNTS)]) + " |")
    below = [str(len(table.below(n))) for n in COUNTS]
    lines.append(f"| **below {TARGET:.0%}** | | | " + " | ".join(below) + " |")
    return lines


def markdown(table: EffectsTable) -> str:
    """A page of its own: a title, what a cell means, and the table."""
    lines = [
        f"# How often each card's effect matters: content “{_escaped(table.content)}”",
        "",
        "Each cell: the share of the card's holdings in which its effect mattered, and its"
        " holdings in brackets: the rounds in which it was held at a final scoring or its effect"
        " was used. What “mattered” means, by kind of effect: `sim/collect/effect_impact.py`."
        f" Target: {TARGET:.0%} or more at every table size; ✗ marks a card below it.",
        "",
        *table_lines(table),
    ]
    return "\n".join(lines) + "\n"


def into(document: str, table: EffectsTable, where: str) -> str:
    """``document`` with the text between :data:`START` and :data:`END` replaced by the table;
    a one-line error naming ``where`` when the two markers are not there once each, in order."""
    if document.count(START) != 1 or document.count(END) != 1:
        raise ConfigError(f"{where}: needs the lines {START!r} and {END!r}, once each")
    head, rest = document.split(START)
    _, tail = rest.split(END)
    if END in head:
        raise ConfigError(f"{where}: {END!r} comes before {START!r}")
    return head + START + "\n" + "\n".join(table_lines(table)) + "\n" + END + tail


def summary(table: EffectsTable) -> Table:
    """The cards under the target, one column per table size."""
    rich = Table(title=f"Cards whose effect matters in under {TARGET:.0%} of their holdings")
    below = {n: table.below(n) for n in COUNTS}
    for n in COUNTS:
        rich.add_column(f"{n} players ({len(below[n])} of 52)")
    for i in range(max(len(cards) for cards in below.values())):
        rich.add_row(
            *(
                f"{cards[i].label} {share(cards[i], n)}" if i < len(cards) else ""
                for n, cards in below.items()
            )
        )
    return rich


def run_effects(folder: Path, out: Path | None, document: Path | None = None) -> int:
    """Read the folder, write or print the table (or put it into ``document``, between its
    markers), show the summary; the exit status (0)."""
    table = effects_table(folder)  # ResultsError (a ConfigError): one line, nothing written
    text = markdown(table)
    if document is not None:
        try:
            old = document.read_text("utf-8")
        except OSError as exc:
            raise ConfigError(f"{document}: {exc.strerror or exc}") from None
        text, out = into(old, table, str(document)), document
    if out is None:
        sys.stdout.write(text)
        console = Console(stderr=True)
    else:
        atomic_write(out, text.encode("utf-8"))
        console = Console()
    games = ", ".join(f"{table.games.get(n, 0)} at {n}" for n in COUNTS)
    about = f"content “{printable(table.content)}”, finished games by table size: {games}"
    console.print(about, markup=False)
    if table.note:
        console.print(f"note: {printable(table.note)}", markup=False)
    console.print(summary(table))
    if out is not None:
        console.print(f"wrote {printable(str(out))}", markup=False)
    return 0
