"""Apokalypse's texts for one game in progress (see :mod:`..texts`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from typing_extensions import TypedDict

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import EventView
from apokalypse.games.apokalypse import Action, Config, Observation, Variant
from apokalypse.games.apokalypse.cards import HELMET, MASK, PIG, SIDE_NAMES, deck_kinds
from apokalypse.games.apokalypse.forecast import Forecast, forecast
from apokalypse.games.apokalypse.roles import ROLES, Role, Use

from ..rulebook import Rulebook
from . import render as r
from . import rules


class CardFacts(TypedDict):
    """What a client needs to draw and explain one card of the game's deck."""

    name: str
    good: str  # the half its good side shows, in a word or two
    evil: str
    about: str  # where it goes and what it does, in a line
    role: Role  # the card's role in the rules (games/apokalypse/roles.py)
    back: str  # "B", "K", "seal" or "horseman"
    music: bool
    icons: dict[str, list[str]]  # by side: "mask", "helmet", "pig" as printed on that half
    modifier: dict[str, dict[str, int]]  # by side: the change to the B and K hand limits
    horseman: int  # 1–4 for a horseman card, else 0
    uses: list[Use]  # what a player may play it as from hand (``play CODE USE``, R-TURN-1)


def _icons(bits: int) -> list[str]:
    return [name for bit, name in ((MASK, "mask"), (HELMET, "helmet"), (PIG, "pig")) if bits & bit]


class Texts:
    def __init__(self, config: Mapping[str, Any], lang: str) -> None:
        self.lang = lang
        game = Config.from_json(dict(config))
        # The card texts come from the game's own deck (D-COMP-1).
        self.kinds = deck_kinds(game.deck_text)
        # The forecast's majority follows the game's end rule: under V-GOOD-TIES a tie of
        # populaces counts for the good.
        self.good_ties = game.has(Variant.GOOD_TIES)

    def render_events(self, views: Sequence[EventView], names: Sequence[str]) -> list[str]:
        return r.render_events(views, self.lang, names)

    def render_indexed(
        self, views: Sequence[EventView], names: Sequence[str]
    ) -> list[tuple[int, str]]:
        return r.render_indexed(views, self.lang, names)

    def render_action(self, action: Action, obs: Observation | None, names: Sequence[str]) -> str:
        return r.render_action(action, self.lang, obs, names, self.kinds)

    def cards(self) -> dict[str, CardFacts]:
        """By code: the name, the half each side shows (a display cell), what it does, and
        what is printed on it, from the game's own card table (a custom deck's too)."""
        return {
            code: {
                "name": r.card_name(code, self.lang),
                "good": r.card_short(code, self.lang, "good"),
                "evil": r.card_short(code, self.lang, "evil"),
                "about": r.describe_card(kind, self.lang),
                "role": kind.role,
                "back": kind.back,
                "music": kind.is_music,
                "icons": {side: _icons(kind.icons[s]) for s, side in enumerate(SIDE_NAMES)},
                "modifier": {
                    side: {"B": kind.modifier[s][0], "K": kind.modifier[s][1]}
                    for s, side in enumerate(SIDE_NAMES)
                },
                "horseman": kind.horseman,
                "uses": list(ROLES[kind.role].uses),
            }
            for code, kind in self.kinds.items()
        }

    def refusal(self, exc: IllegalAction) -> str:
        return r.render_refusal(exc, self.lang)

    def rules(self, topic: str) -> str:
        if topic:
            return rules.card_rules(topic, self.kinds, self.lang)
        return rules.short_rules(self.lang)

    def rulebook(self, card: str) -> Rulebook:
        return rules.rulebook(self.kinds, self.lang, card)

    def forecast(self, public: Observation) -> Forecast:
        return forecast(public, self.kinds, self.good_ties)

    def decision_text(self, seat: int, obs: Observation, names: Sequence[str]) -> str:
        values = {"name": names[seat]}
        choice = obs.get("choice")
        if choice is not None:
            values["card"] = r.card_name(choice["code"], self.lang)
        attack = obs["attack"]  # public while a defence window or a conversion is open
        if attack:
            side = SIDE_NAMES.index(attack["side"])
            args = {"actor": attack["attacker"], "card": attack["card"], "seat": attack["seat"]}
            attacking = EventView("attack", {**args, "side": side}, False)  # public
            values["attack"] = r.render_view(attacking, self.lang, names)
            values["other"] = r.t(f"side.{SIDE_NAMES[1 - side]}", self.lang)
        return r.t(f"ui.decision.{obs['decision']}", self.lang, **values)
