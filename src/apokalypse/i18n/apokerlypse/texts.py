"""Apokerlypse's texts for one game in progress (see :mod:`..texts`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from typing_extensions import TypedDict

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import EventView
from apokalypse.games.apokerlypse import Action, Config, Observation
from apokalypse.games.apokerlypse.cards import CODES

from . import choices
from . import render as r


class CardFacts(TypedDict):
    name: str  # the card as printed ("10♥")


class Texts:
    def __init__(self, config: Mapping[str, Any], lang: str) -> None:
        self.lang = lang
        # The content is public (KD-SETUP-1): every card's effect may be shown to everybody.
        self.content = Config.from_json(dict(config)).rules_content

    def render_events(self, views: Sequence[EventView], names: Sequence[str]) -> list[str]:
        return r.render_events(views, self.lang, names)

    def render_indexed(
        self, views: Sequence[EventView], names: Sequence[str]
    ) -> list[tuple[int, str]]:
        return r.render_indexed(views, self.lang, names)

    def render_action(self, action: Action, obs: Observation | None, names: Sequence[str]) -> str:
        return choices.render_action(action, self.lang, obs, names, self.content)

    def cards(self) -> dict[str, CardFacts]:
        """By code: the card as printed ("10♥")."""
        return {code: {"name": r.card_label(code)} for code in CODES}

    def refusal(self, exc: IllegalAction) -> str:
        return r.render_refusal(exc, self.lang)

    def rules(self, topic: str) -> str:
        return r.t("rules.short", self.lang)  # cards are explained on the board and in hand

    def forecast(self, public: Observation) -> None:
        return None

    def decision_text(self, seat: int, obs: Observation, names: Sequence[str]) -> str:
        return choices.decision_text(seat, obs, self.content, self.lang, names)
