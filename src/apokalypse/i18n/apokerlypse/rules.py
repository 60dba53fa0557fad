"""Apokerlypse explained: the short rules as a structure (:class:`..rulebook.Rulebook`) for the
terminal's ``rules`` and the browser's rules help, and each card's facts: its bonus points and,
where the game's content gives it one, its effect.

The base points and the card bonus come from the game's own tables (``BASE_POINTS`` of the
config's table, ``CARD_BONUS``), the factions' abilities and the cards' effects from the game's
content (KD-SETUP-1), the sentences from the catalogs (``[rules]``).

>>> "(K-ROUND-2)" in short_rules(Config(players=2), "en")
True
"""

from __future__ import annotations

from apokalypse.games.apokerlypse import Config
from apokalypse.games.apokerlypse.cards import CARD_BONUS, CODES, FACTIONS, parse_card
from apokalypse.games.apokerlypse.content import Content
from apokalypse.games.apokerlypse.poker import CATEGORIES

from .. import plural
from ..rulebook import (
    CardEntry,
    CardHelp,
    Rulebook,
    Section,
    blocks,
    catalog_sections,
    plain,
    plain_blocks,
    rulebook_of,
)
from .render import (
    P,
    ability_of,
    bonus_rule,
    card_effect,
    card_label,
    category_name,
    describe_effect,
    effect_name,
    effect_what,
    faction_name,
    label,
    t,
)

# "effects" only where the content gives a card an effect.
SECTIONS = ("round", "phase1", "phase2", "phase3", "short", "scoring", "factions", "effects", "end")


def _label(kind: str, ref: str) -> str:
    return card_label(ref)  # the markup names only cards here ("[card:Th]")


def abilities(content: Content | None, lang: str) -> str:
    """The factions' abilities as list items of the rules' markup (KD-SETUP-1, K-SCORE-5)."""
    items = []
    for faction in FACTIONS:
        ability = ability_of(content, faction)
        if ability is not None:
            entry = t(
                "rules.ability_entry",
                lang,
                faction=faction_name(faction, lang, content),
                name=effect_name(label(ability, lang), lang),
                timing=t(f"timing.{ability.timing}", lang),
                what=effect_what(ability.kind, ability.params(), lang),
            )
            items.append("- " + entry)
    return "\n".join(items) or t("rules.no_abilities", lang)


def sections(config: Config, lang: str) -> list[Section]:
    """The short rules: chips and rounds, the three phases, shortage, the final scoring with the
    game's own points table, the factions' abilities and the card effects of the content, the
    pot and the end."""
    points = "\n".join(
        "- " + t("rules.base", lang, category=category_name(category, lang), points=base)
        for category, base in zip(CATEGORIES, config.base_points, strict=True)
    )
    bonus = bonus_rule(lang) + (t("ui.cap", lang) if config.bonus_cap else "")
    content = config.rules_content
    ids: tuple[str, ...] = SECTIONS
    if content is None or not any(content.effects):
        ids = tuple(key for key in SECTIONS if key != "effects")

    def say(key: str, **values: object) -> str:
        return t(key, lang, **values)

    listed = abilities(content, lang)
    return catalog_sections(ids, say, _label, points=points, bonus=bonus, abilities=listed)


def card_entries(config: Config, lang: str) -> list[CardEntry]:
    """Every card of the deck with its bonus and, where the content gives it one, its effect."""
    entries: list[CardEntry] = []
    for code in CODES:
        effect = card_effect(config.rules_content, code)
        about = _about(code, lang)
        if effect is not None:
            about += " · " + describe_effect(effect, lang)
        entries.append({"code": code, "name": card_label(code), "about": about})
    return entries


def short_rules(config: Config, lang: str) -> str:
    """The short rules as the terminal prints them, then every card with its effect (the
    content's, KD-SETUP-1) and the hint about commands."""
    cards = "\n".join(
        t("rules.card_entry", lang, name=e["name"], code=e["code"], about=e["about"])
        for e in card_entries(config, lang)
    )
    listed = f"{t('rules.cards_title', lang).upper()}\n{cards}\n\n{t('rules.cards_hint', lang)}"
    rules = plain(t("rules.title", lang), sections(config, lang))
    return f"{rules}\n\n{listed}\n\n{t('rules.hint', lang)}"


def card_rules(code: str, config: Config, lang: str) -> str:
    """One card's facts as the terminal prints them (``rules 7h``): None-safe for a code that
    is no card (then the short rules' card list helps)."""
    card = card_help(code, config, lang)
    if card is None:
        return t("notation.card", lang, text=code, arg=code)
    return "\n".join(
        [f"{card['name']} [{card['code']}] — {card['about']}", *plain_blocks(card["does"])]
    )


def _bonus(code: str, lang: str) -> str:
    return plural(P + "ui.bonus_points", CARD_BONUS[parse_card(code)], lang)


def _about(code: str, lang: str) -> str:
    return t("rules.card_about", lang, points=_bonus(code, lang))


def card_help(code: str, config: Config, lang: str) -> CardHelp | None:
    """A card's bonus points and its effect (when the content gives it one); None for a code
    that is no card. A poker card has no places, defences or attacks."""
    code = code.strip()
    code = next((c for c in CODES if c.lower() == code.lower()), "")
    if not code:
        return None
    lines = [t("rules.card_bonus", lang, points=_bonus(code, lang))]
    effect = card_effect(config.rules_content, code)
    if effect is not None:
        lines.append(t("rules.card_effect", lang, effect=describe_effect(effect, lang)))
    return {
        "code": code,
        "name": card_label(code),
        "about": _about(code, lang),
        "uses": [],
        "does": blocks("\n\n".join(lines), _label),
        "defends": [],
        "defended_by": [],
        "cannot_hit": [],
    }


def rulebook(config: Config, lang: str, card: str = "") -> Rulebook:
    """The short rules, the 52 cards and, with ``card``, that card's facts."""
    listed = sections(config, lang)
    entries = card_entries(config, lang)
    help_ = card_help(card, config, lang) if card else None
    return rulebook_of("apokerlypse", lang, t("rules.title", lang), listed, entries, help_)
