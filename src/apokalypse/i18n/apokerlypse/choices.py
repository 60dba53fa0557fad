"""Apokerlypse decisions and choices in words: the question a player faces and each legal action,
told with what the content's effects do (``apokerlypse.decision.*``, ``apokerlypse.action.*``).

>>> from apokalypse.games.apokerlypse import parse_action
>>> render_action(parse_action("pay"), "de")
'1 Chip zahlen und zwei Karten ziehen'
"""

from __future__ import annotations

from collections.abc import Sequence

from apokalypse.games.apokerlypse.actions import Action
from apokalypse.games.apokerlypse.cards import CODES, FACTIONS
from apokalypse.games.apokerlypse.content import Content, Effect
from apokalypse.games.apokerlypse.observation import Observation

from .. import has
from .render import (
    P,
    ability_of,
    card_effect,
    card_label,
    chips,
    count_cards,
    effect_name,
    effect_what,
    faction_name,
    label,
    seat_name,
    t,
)


def _effect_of(content: Content | None, card: str | None, faction: str) -> Effect | None:
    return card_effect(content, card) if card else ability_of(content, faction)


def _source(card: str | None, faction: str, content: Content | None, lang: str) -> str:
    """An effect's source: the card with its label, or its owner's faction ability."""
    if card:
        effect = card_effect(content, card)
        name = effect_name(label(effect, lang) if effect else "", lang)
        return t("source.card", lang, card=card_label(card), name=name)
    return t("source.ability", lang, faction=faction_name(faction, lang, content))


def pending_effect(
    obs: Observation, content: Content | None, lang: str, names: Sequence[str]
) -> dict[str, str]:
    """The announced effect now being resolved: its owner, source and what it does."""
    pending = obs["effect"]
    owner = pending["seat"] if pending else 0
    card = pending["card"] if pending else None
    faction = obs["factions"][owner]
    effect = _effect_of(content, card, faction)
    kind = pending["kind"] if pending else ""
    what = effect_what(effect.kind, effect.params(), lang) if effect else t(f"kind.{kind}", lang)
    source = _source(card, faction, content, lang)
    return {"owner": seat_name(names, owner), "source": source, "what": what, "kind": kind}


def decision_text(
    seat: int, obs: Observation, content: Content | None, lang: str, names: Sequence[str]
) -> str:
    """The question of the decision ``seat`` faces, with the numbers that matter for it."""
    decision = obs["decision"]
    cost = obs["cost"]
    values: dict[str, object] = {"name": seat_name(names, seat), "cost": chips(cost, lang)}
    key: str = decision
    if decision == "discard":
        values["limit"] = obs["modifiers"][seat]["hand_limit"]
        values["size"] = obs["hand_sizes"][seat]
    elif decision == "stake" and (obs["short"][seat] or obs["chips"][seat] < cost):
        key = "stake_short"  # K-SHORT-1
    elif decision == "participate" and obs["chips"][seat] < cost:
        key = "participate_free"  # KD-ROUND-1
    elif decision in ("block-window", "choose-target", "choose-card"):
        values.update(pending_effect(obs, content, lang, names))
        if decision == "choose-card":
            choice = obs.get("choice")
            card_choice = choice if choice is not None and "target" in choice else None
            key = "swap" if values["kind"] == "swap" else "give"
            values["target"] = seat_name(names, card_choice["target"] if card_choice else 0)
            values["left"] = card_choice["left"] if card_choice else 1
    if not has(f"{P}decision.{key}", "en"):
        return str(decision)
    return t(f"decision.{key}", lang, **values)


def render_action(
    action: Action,
    lang: str,
    obs: Observation | None = None,
    names: Sequence[str] | None = None,
    content: Content | None = None,
) -> str:
    """A choice in words. With the chooser's observation and the content, the text tells what a
    card's effect does, what a stake costs and what a target holds."""
    names = names or [f"p{q + 1}" for q in range(len(obs["chips"]) if obs else 4)]
    verb = action.verb
    decision = obs["decision"] if obs else None
    cost = chips(obs["cost"] if obs else 1, lang)
    if verb in ("pay", "stand"):
        when = "participate" if decision == "participate" else "stake"
        return t(f"action.{verb}_{when}", lang, cost=cost)
    if verb in ("drop", "done", "allow"):
        return t(f"action.{verb}", lang)
    if verb == "target":
        q = action.seat
        held = obs["chips"] if obs else []
        sizes = obs["hand_sizes"] if obs else []
        if q < len(held) and q < len(sizes):
            return t(
                "action.target",
                lang,
                seat=seat_name(names, q),
                chips=chips(held[q], lang),
                cards=count_cards(sizes[q], lang),
            )
        return seat_name(names, q)
    seat = (obs["seat"] if obs else None) or 0
    if verb == "ability":
        faction = (obs["factions"] if obs else FACTIONS)[seat]
        effect = ability_of(content, faction)
        what = effect_what(effect.kind, effect.params(), lang) if effect else ""
        left = obs["action_chips"][seat] if obs else 1
        named = faction_name(faction, lang, content)
        return t("action.ability", lang, faction=named, what=what, chips=left)
    code = CODES[action.card]
    used = obs["used"] if obs else ()
    effect = card_effect(content, code)
    named = label(effect, lang) if effect else ""
    values = {"card": card_label(code), "name": effect_name(named, lang)}
    if effect is not None:
        values["what"] = effect_what(effect.kind, effect.params(), lang)
    # An effect resolves at most once per round: a card discarded again does nothing.
    if verb == "discard" and effect is not None and effect.timing == "discard" and code not in used:
        return t("action.discard_effect", lang, **values)
    if verb == "use":
        return t("action.use" if effect is not None else "action.use_card", lang, **values)
    return t(f"action.{verb}", lang, **values)
