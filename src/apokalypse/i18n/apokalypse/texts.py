"""Apokalypse's texts for one game in progress (see :mod:`..texts`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event
from apokalypse.games.apokalypse import Action, Config, Observation
from apokalypse.games.apokalypse.cards import SIDE_NAMES, deck_kinds
from apokalypse.games.apokalypse.forecast import forecast

from . import render as r
from . import rules


class Texts:
    def __init__(self, config: Mapping[str, Any], lang: str) -> None:
        self.lang = lang
        # The card texts come from the game's own deck (D-COMP-1).
        self.kinds = deck_kinds(Config.from_json(dict(config)).deck_text)

    def render_events(
        self, events: Sequence[Event], seat: int | None, names: Sequence[str]
    ) -> list[str]:
        return r.render_events(events, seat, self.lang, names)

    def render_action(self, action: Action, obs: Observation | None, names: Sequence[str]) -> str:
        return r.render_action(action, self.lang, obs, names, self.kinds)

    def cards(self) -> dict[str, dict[str, str]]:
        """By code: the name, the half each side shows (a display cell), what it does."""
        return {
            code: {
                "name": r.card_name(code, self.lang),
                "good": r.card_short(code, self.lang, "good"),
                "evil": r.card_short(code, self.lang, "evil"),
                "about": r.describe_card(kind, self.lang),
            }
            for code, kind in self.kinds.items()
        }

    def refusal(self, exc: IllegalAction) -> str:
        return r.render_refusal(exc, self.lang)

    def rules(self, topic: str) -> str:
        if topic:
            return rules.card_rules(topic, self.kinds, self.lang)
        return rules.short_rules(self.lang)

    def forecast(self, public: Observation) -> dict[str, Any]:
        return forecast(public, self.kinds).to_json()

    def decision_text(self, seat: int, obs: Observation, names: Sequence[str]) -> str:
        values = {"name": names[seat]}
        choice = obs.get("choice")
        if choice is not None:
            values["card"] = r.card_name(choice["code"], self.lang)
        attack = obs["attack"]  # public while a defence window or a conversion is open
        if attack:
            side = SIDE_NAMES.index(attack["side"])
            args = {"actor": attack["attacker"], "card": attack["card"], "seat": attack["seat"]}
            event = Event("attack", {**args, "side": side})
            values["attack"] = r.render_event(event, seat, self.lang, names)
            values["other"] = r.t(f"side.{SIDE_NAMES[1 - side]}", self.lang)
        return r.t(f"ui.decision.{obs['decision']}", self.lang, **values)
