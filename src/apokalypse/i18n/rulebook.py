"""The rules of a game as a structure: sections of paragraphs and lists, each a run of spans that
are plain text or one of the game's own things (an icon, a card, a rule id). One source, two
renderings: the terminal prints :func:`plain`, the server sends the structure itself (a
:class:`Rulebook`) and the browser draws headings, lists and the game's icons from it.

The sentences live in the catalogs (``[rules.section.<id>]`` of ``i18n/<game>/<lang>.toml``) in a
small markup: a blank line ends a paragraph, a line that begins with ``- `` is a list item, and
``[icon:mask]`` / ``[card:metal]`` name an icon or a card (the game's renderer gives the words);
a rule id (``R-DEAL-5``, ``K-SHORT-1``) is found by itself. Pure functions, no I/O.

>>> [b["kind"] for b in blocks("One [icon:mask] here (R-PLAY-8).\\n\\n- a\\n- b", lambda k, r: r)]
['paragraph', 'list']
>>> plain_spans(spans("Each [icon:mask] (R-HORSE-1)", lambda kind, ref: ref.title()))
'Each Mask (R-HORSE-1)'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from typing_extensions import TypedDict

SpanKind = Literal["text", "icon", "card", "rule"]


class Span(TypedDict):
    """A piece of a sentence: plain ``text``, or an ``icon`` / ``card`` / ``rule`` named by
    ``ref`` (its icon name, card code or rule id) that reads as ``text``."""

    kind: SpanKind
    text: str
    ref: str


class Paragraph(TypedDict):
    kind: Literal["paragraph"]
    spans: list[Span]


class Items(TypedDict):
    """A list; each item a run of spans."""

    kind: Literal["list"]
    items: list[list[Span]]


Block = Paragraph | Items


class Section(TypedDict):
    id: str  # the same in every language: the browser's anchor
    title: str
    blocks: list[Block]


class CardRef(TypedDict):
    code: str
    name: str


class CardUse(TypedDict):
    """One way a card may be played: the use (as the notation's ``play CARD USE``), in words,
    where it may go and the rules that say so."""

    use: str
    label: str
    places: list[str]
    rules: list[str]


class CardEntry(TypedDict):
    """A card in the rules' card list: enough to find it by its name and to open its help."""

    code: str
    name: str
    about: str


class CardHelp(TypedDict):
    """One card explained: where it may go, what it does, which attacks it fends off, which
    cards fend it off and which populaces it cannot hit (empty where the game has none)."""

    code: str
    name: str
    about: str
    uses: list[CardUse]
    does: list[Block]
    defends: list[CardRef]
    defended_by: list[CardRef]
    cannot_hit: list[CardRef]


class Rulebook(TypedDict):
    """What ``GET /api/rules/{game}`` sends: the short rules as sections, every card of the game,
    one card's help when asked for (``card``), and the whole as plain text (what the terminal
    prints, without its hint about commands)."""

    game: str
    lang: str
    title: str
    sections: list[Section]
    cards: list[CardEntry]
    card: CardHelp | None
    text: str


def rulebook_of(
    game: str,
    lang: str,
    title: str,
    sections: list[Section],
    cards: list[CardEntry],
    card: CardHelp | None,
) -> Rulebook:
    """A game's :class:`Rulebook`, its plain text rendered from the same sections."""
    return {
        "game": game,
        "lang": lang,
        "title": title,
        "sections": sections,
        "cards": cards,
        "card": card,
        "text": plain(title, sections),
    }


Label = Callable[[str, str], str]  # (kind, ref) -> the words an icon or card reads as

_RULE_ID = r"\b((?:R|D|V|K|KD|KV)-[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)\b"
_TOKEN = re.compile(r"\[(icon|card):([^\]\s]+)\]|" + _RULE_ID)


def spans(line: str, label: Label) -> list[Span]:
    """A line of markup as spans; neighbouring text is kept as one span."""
    out: list[Span] = []
    at = 0
    for match in _TOKEN.finditer(line):
        if match.start() > at:
            out.append({"kind": "text", "text": line[at : match.start()], "ref": ""})
        if match.group(3):
            out.append({"kind": "rule", "text": match.group(3), "ref": match.group(3)})
        else:
            kind: SpanKind = "icon" if match.group(1) == "icon" else "card"
            ref = match.group(2)
            out.append({"kind": kind, "text": label(kind, ref), "ref": ref})
        at = match.end()
    if at < len(line):
        out.append({"kind": "text", "text": line[at:], "ref": ""})
    return out


def blocks(body: str, label: Label) -> list[Block]:
    """Markup as blocks: paragraphs (lines joined) and lists (``- `` lines)."""
    out: list[Block] = []
    lines: list[str] = []
    items: list[list[Span]] = []

    def flush() -> None:
        if lines:
            out.append({"kind": "paragraph", "spans": spans(" ".join(lines), label)})
            lines.clear()
        if items:
            out.append({"kind": "list", "items": list(items)})
            items.clear()

    for raw in body.strip().splitlines():
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("- "):
            if lines:
                flush()
            items.append(spans(line[2:].strip(), label))
        else:
            if items:
                flush()
            lines.append(line)
    flush()
    return out


def catalog_sections(
    ids: Sequence[str], say: Callable[..., str], label: Label, **values: object
) -> list[Section]:
    """The sections ``ids`` from a game's catalog: ``say(key, **values)`` gives the text of
    ``rules.section.<id>.title`` and ``.body`` (the body filled in with ``values``)."""
    return [
        {
            "id": key,
            "title": say(f"rules.section.{key}.title"),
            "blocks": blocks(say(f"rules.section.{key}.body", **values), label),
        }
        for key in ids
    ]


def plain_spans(run: Iterable[Span]) -> str:
    return "".join(span["text"] for span in run)


def plain_blocks(content: Sequence[Block], indent: str = "") -> list[str]:
    """Blocks as lines of text: a paragraph a line, a list item a line with a bullet."""
    lines = []
    for block in content:
        if block["kind"] == "paragraph":
            lines.append(indent + plain_spans(block["spans"]))
        else:
            lines.extend(f"{indent}• {plain_spans(item)}" for item in block["items"])
    return lines


def plain(title: str, sections: Sequence[Section], ending: str = "") -> str:
    """The rules as the terminal prints them: the title, then each section's title over its
    paragraphs and lists, a blank line between sections; ``ending`` (a hint) last."""
    parts = [title.upper()]
    for section in sections:
        parts.append("\n".join([section["title"].upper(), *plain_blocks(section["blocks"])]))
    if ending:
        parts.append(ending)
    return "\n\n".join(parts)


def section_text(section: Section) -> str:
    """Everything a section says, for searching it."""
    return "\n".join([section["title"], *plain_blocks(section["blocks"])])
