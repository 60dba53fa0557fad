"""The game explained: the short rules and the rules of one card, for the ``rules`` command (the
terminal) and the rules help (the browser).

The facts come from the rules' own tables (which horseman checks which icon, what a card may be
played as, what it defends against, what it is worth), the sentences from the catalogs.

>>> "Horseman 1 (Bomb War)" in short_rules("en")
True
"""

from __future__ import annotations

from collections.abc import Mapping

from apokalypse.games.apokalypse.cards import (
    HORSEMAN_VP,
    ICON_BITS,
    ICON_OF_HORSEMAN,
    SEAL,
    CardKind,
)
from apokalypse.games.apokalypse.horsemen import LAST_HORSEMAN
from apokalypse.games.apokalypse.roles import ROLES

from .render import card_name, describe_card, horseman_title, t


def short_rules(lang: str) -> str:
    """The whole game on one screen: goal, turn, deeds, horsemen and what protects against each,
    reckoning, rewards, the end and who wins."""
    icon_names = {bit: name for name, bit in ICON_BITS.items()}
    horsemen = []
    for number in range(1, LAST_HORSEMAN + 1):
        values = {"horseman": horseman_title(number, lang), "vp": HORSEMAN_VP[number]}
        if number in ICON_OF_HORSEMAN:
            icon = t(f"icon.{icon_names[ICON_OF_HORSEMAN[number]]}", lang)
            horsemen.append(t("rules.horseman", lang, icon=icon, **values))
        else:
            icons = "+".join(t(f"icon.{name}", lang) for name in ICON_BITS)
            horsemen.append(t("rules.death", lang, icons=icons, **values))
    return t("rules.short", lang, horsemen="\n".join(horsemen))


def card_rules(code: str, kinds: Mapping[str, CardKind], lang: str) -> str:
    """Where one card may go, what it does and what it defends (``rules CARD``)."""
    kind = kinds.get(code.strip().lower())
    if kind is None:
        known = ", ".join(sorted(kinds))
        return t("rules.unknown_card", lang, card=code, known=known)
    lines = [f"{card_name(kind.code, lang)} [{kind.code}] — {describe_card(kind, lang)}"]
    lines.append(t(f"rules.card.{kind.role}", lang))
    uses = ROLES[kind.role].uses
    if uses:
        played = ", ".join(t(f"use.{use}", lang) for use in uses)
        lines.append(t("rules.played_as", lang, uses=played))
    against = ROLES[kind.role].defends
    if against and kind.role != SEAL:
        names = ", ".join(t(f"card.{_card_code(a)}", lang) for a in against)
        lines.append(t("rules.defends", lang, attacks=names))
    return "\n".join(lines)


def _card_code(role: str) -> str:
    return "ethos" if role == "ethos-change" else role
