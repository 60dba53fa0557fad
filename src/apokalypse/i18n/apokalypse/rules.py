"""The game explained: the short rules and the rules of one card, as a structure
(:class:`..rulebook.Rulebook`) that the terminal prints as text (``rules``, ``rules CARD``) and
the browser draws with headings, lists and the game's icons.

The facts come from the rules' own tables (which horseman checks which icon, what a card may be
played as and where, what it defends against and what defends against it, what it is worth), the
sentences from the catalogs (``[rules]``, in the markup of :mod:`..rulebook`).

>>> "Horseman 1 (Bomb War)" in short_rules("en")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial

from apokalypse.games.apokalypse.cards import (
    HORSEMAN_VP,
    ICON_BITS,
    ICON_OF_HORSEMAN,
    SEAL,
    CardKind,
)
from apokalypse.games.apokalypse.horsemen import LAST_HORSEMAN
from apokalypse.games.apokalypse.roles import (
    DEFENDERS,
    IMMUNE,
    PLACE_RULE,
    PLACES,
    ROLES,
    SIDE_NAMES,
    USE_ROWS,
    USE_RULE,
    Role,
    Use,
)

from .. import has
from ..rulebook import (
    Block,
    CardEntry,
    CardHelp,
    CardRef,
    CardUse,
    Rulebook,
    Section,
    blocks,
    catalog_sections,
    plain,
    plain_blocks,
    rulebook_of,
)
from .render import P, card_name, describe_card, horseman_title, plane_name, t

# The sections of the short rules, in order; each has a title and a body in the catalogs
# (``rules.section.<id>``), so both languages have the same ones.
SECTIONS = ("goal", "turn", "deeds", "display", "horsemen", "reckoning", "music", "attacks", "end")


def label(kind: str, ref: str, lang: str) -> str:
    """The words an ``[icon:…]`` or ``[card:…]`` of the rules' markup reads as."""
    if kind == "card":
        return card_name(ref, lang)
    return t(f"icon.{ref}" if has(f"{P}icon.{ref}", lang) else f"rules.icon.{ref}", lang)


def _blocks(markup: str, lang: str) -> list[Block]:
    return blocks(markup, partial(label, lang=lang))


def _horsemen(lang: str) -> str:
    """The horsemen as list items of the markup: which icon each checks, and Death."""
    icon_names = {bit: name for name, bit in ICON_BITS.items()}
    items = []
    for number in range(1, LAST_HORSEMAN + 1):
        values = {"horseman": horseman_title(number, lang), "vp": HORSEMAN_VP[number]}
        if number in ICON_OF_HORSEMAN:
            icon = icon_names[ICON_OF_HORSEMAN[number]]
            items.append(t("rules.horseman", lang, icon=icon, **values))
        else:
            icons = "+".join(f"[icon:{name}]" for name in ICON_BITS)
            items.append(t("rules.death", lang, icons=icons, **values))
    return "\n".join(f"- {item}" for item in items)


def sections(lang: str) -> list[Section]:
    """The short rules: the goal, a turn, the deeds, a display, the horsemen and what protects
    against each, reckoning and rewards, music, attacks, the end and who wins."""

    def say(key: str, **values: object) -> str:
        return t(key, lang, **values)

    return catalog_sections(SECTIONS, say, partial(label, lang=lang), horsemen=_horsemen(lang))


def short_rules(lang: str) -> str:
    """The whole game on one screen, as the terminal prints it (with its hint about commands)."""
    return plain(t("rules.title", lang), sections(lang), t("rules.hint", lang))


def _refs(roles: Iterable[Role], kinds: Mapping[str, CardKind], lang: str) -> list[CardRef]:
    """The deck's cards of these roles."""
    wanted = set(roles)
    return [
        {"code": code, "name": card_name(code, lang)}
        for code, kind in kinds.items()
        if kind.role in wanted
    ]


def _uses(kind: CardKind, lang: str) -> list[CardUse]:
    """Where a card may go, use by use, with the rules that say so: the use's own rule, the rule
    of its places and those that keep it off some rows (a seal: as the music it is played like,
    R-REWARD-3)."""
    rules = ROLES[kind.role]
    uses: list[Use] = [use for (role, use) in PLACES if role == kind.role]
    out: list[CardUse] = []
    for use in uses:
        rows = PLACES[kind.role, use]
        said = [USE_RULE[use], PLACE_RULE.get(use, "")]
        said += [rules.kept_off[row] for row in USE_ROWS[use] if row in rules.kept_off]
        if use not in rules.uses:  # not from hand: as the roles it is played like
            said.append("R-REWARD-3")
        places = [_place(row, lang) for row in rows]
        out.append(
            {
                "use": use,
                "label": t(f"use.{use}", lang),
                "places": places,
                "rules": list(dict.fromkeys(rule for rule in said if rule)),
            }
        )
    return out


def _place(row: int, lang: str) -> str:
    """A row of a display in words: "Heaven, good side"."""
    side = t(f"side_f.{SIDE_NAMES[row // 3]}", lang)
    return t("rules.place", lang, plane=plane_name(row % 3, lang), side_f=side)


def card_help(code: str, kinds: Mapping[str, CardKind], lang: str) -> CardHelp | None:
    """One card explained from the rules' tables; None for a code the deck does not have."""
    kind = kinds.get(code.strip().lower())
    if kind is None:
        return None
    rules = ROLES[kind.role]
    return {
        "code": kind.code,
        "name": card_name(kind.code, lang),
        "about": describe_card(kind, lang),
        "uses": _uses(kind, lang),
        "does": _blocks(t(f"rules.card.{kind.role}", lang), lang),
        # A seal never reaches a hand, so it never defends (R-REWARD-3).
        "defends": [] if kind.role == SEAL else _refs(rules.defends, kinds, lang),
        "defended_by": _refs(DEFENDERS.get(kind.role, ()), kinds, lang),
        "cannot_hit": _refs(IMMUNE.get(kind.role, ()), kinds, lang),
    }


def card_rules(code: str, kinds: Mapping[str, CardKind], lang: str) -> str:
    """Where one card may go, what it does and what it defends (``rules CARD``), as text."""
    card = card_help(code, kinds, lang)
    if card is None:
        known = ", ".join(sorted(kinds))
        return t("rules.unknown_card", lang, card=code, known=known)
    lines = [f"{card['name']} [{card['code']}] — {card['about']}", *plain_blocks(card["does"])]
    if ROLES[kinds[card["code"]].role].uses:  # a seal is never played from hand
        played = ", ".join(use["label"] for use in card["uses"])
        lines.append(t("rules.played_as", lang, uses=played))
    if card["defends"]:
        attacks = ", ".join(ref["name"] for ref in card["defends"])
        lines.append(t("rules.defends", lang, attacks=attacks))
    for key in ("defended_by", "cannot_hit"):
        names = ", ".join(ref["name"] for ref in card[key])
        if names:
            lines.append(t(f"rules.{key}", lang, cards=names))
    return "\n".join(lines)


def rulebook(kinds: Mapping[str, CardKind], lang: str, card: str = "") -> Rulebook:
    """The short rules, every card of the deck and, with ``card``, that card's help."""
    listed = sections(lang)
    entries: list[CardEntry] = [
        {"code": code, "name": card_name(code, lang), "about": describe_card(kind, lang)}
        for code, kind in kinds.items()
    ]
    help_ = card_help(card, kinds, lang) if card else None
    return rulebook_of("apokalypse", lang, t("rules.title", lang), listed, entries, help_)
