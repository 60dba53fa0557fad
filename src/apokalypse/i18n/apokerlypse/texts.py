"""Apokerlypse's texts for one game in progress (see :mod:`..texts`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from typing_extensions import TypedDict

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import EventView
from apokalypse.games.apokerlypse import Action, Config, Observation
from apokalypse.games.apokerlypse.cards import CODES, FACTIONS

from ..rulebook import Rulebook
from . import choices, rules
from . import render as r


class CardFacts(TypedDict):
    """What a client shows of a card, or (keyed by the faction's name) of a faction."""

    name: str  # the card as printed ("10♥"); a faction's name with its suit ("♠ Military")
    # What it does, in the table's language, from the content (KD-SETUP-1): a card's effect
    # (label, timing, what it does) or a faction's ability (K-SCORE-5, KD-SCORE-2); "" for none.
    about: str


class Texts:
    def __init__(self, config: Mapping[str, Any], lang: str) -> None:
        self.lang = lang
        # The content is public (KD-SETUP-1): every card's effect may be shown to everybody.
        self.config = Config.from_json(dict(config))
        self.content = self.config.rules_content

    def render_events(self, views: Sequence[EventView], names: Sequence[str]) -> list[str]:
        return r.render_events(views, self.lang, names, self.content)

    def render_indexed(
        self, views: Sequence[EventView], names: Sequence[str]
    ) -> list[tuple[int, str]]:
        return r.render_indexed(views, self.lang, names, self.content)

    def render_action(self, action: Action, obs: Observation | None, names: Sequence[str]) -> str:
        return choices.render_action(action, self.lang, obs, names, self.content)

    def cards(self) -> dict[str, CardFacts]:
        """By code: the card as printed ("10♥") and its effect; by faction name (``military`` …):
        the faction and its ability. The content is public, so everybody gets all of it."""
        facts: dict[str, CardFacts] = {}
        for code in CODES:
            effect = r.card_effect(self.content, code)
            about = r.describe_effect(effect, self.lang) if effect is not None else ""
            facts[code] = {"name": r.card_label(code), "about": about}
        for faction in FACTIONS:
            ability = r.ability_of(self.content, faction)
            about = r.describe_ability(ability, self.lang) if ability is not None else ""
            facts[faction] = {
                "name": r.faction_name(faction, self.lang, self.content),
                "about": about,
            }
        return facts

    def refusal(self, exc: IllegalAction) -> str:
        return r.render_refusal(exc, self.lang)

    def rules(self, topic: str) -> str:
        if topic:
            return rules.card_rules(topic, self.config, self.lang)
        return rules.short_rules(self.config, self.lang)

    def rulebook(self, card: str) -> Rulebook:
        return rules.rulebook(self.config, self.lang, card)

    def forecast(self, public: Observation) -> None:
        return None

    def decision_text(self, seat: int, obs: Observation, names: Sequence[str]) -> str:
        return choices.decision_text(seat, obs, self.content, self.lang, names)
