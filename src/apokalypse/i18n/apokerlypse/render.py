"""Apokerlypse text for humans: events, effects, decisions, actions and refusals, from the catalogs
``apokerlypse.en.toml`` / ``apokerlypse.de.toml`` (keys under ``apokerlypse.``).

Pure functions of (value, language, player names), like :mod:`.render` for Apokalypse. Secrecy is
decided before this module is reached: events arrive as ``event.view(seat)``.

>>> from apokalypse.engine.events import Event
>>> draw = Event("draw", {"seat": 1}, {"card": "Th"}, frozenset({1}))
>>> render_view(draw.view(0), "en", ["p1", "p2"]), render_view(draw.view(1), "de", ["p1", "p2"])
('p2 draws a card.', 'p2 zieht 10♥.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from apokalypse.engine.errors import IllegalAction, ParamValue
from apokalypse.engine.events import EventView
from apokalypse.games.apokerlypse.cards import (
    CARD_BONUS,
    FACTIONS,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    parse_card,
)
from apokalypse.games.apokerlypse.content import Content, Effect, EffectKind, Faction

from .. import has, plural, refusal, text

P = "apokerlypse."
# Arguments that hold the secret part of an event: present in a view, the "seen" form is used.
# (A card moved between hands after the reveal is public, and arrives without a secret.)
SECRET_ARGS = {
    "deal": "cards",
    "draw": "card",
    "peek": "cards",
    "take": "card",
    "give": "card",
    "swap": "given",
}
SEAT_ARGS = ("seat", "target", "owner", "dealer")


def t(key: str, lang: str, /, **values: object) -> str:
    """A message of the Apokerlypse catalog."""
    return text(P + key, lang, **values)


def chips(n: int, lang: str) -> str:
    return plural(P + "count.chip", n, lang)


def count_cards(n: int, lang: str) -> str:
    return plural(P + "count.card", n, lang)


# --- cards, factions, effects ------------------------------------------------------------------


def card_label(code: str) -> str:
    """``"Th"`` → ``"10♥"``: the rank as printed on the card and the suit symbol."""
    if len(code) != 2 or code[1] not in SUITS:
        return code
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUIT_SYMBOLS[SUITS.index(code[1])]


def cards_label(codes: Sequence[str]) -> str:
    return " ".join(card_label(c) for c in codes)


def is_red(code: str) -> bool:
    return code[-1:] in ("h", "d")


def faction_name(faction: str, lang: str, content: Content | None = None) -> str:
    """The faction with its suit symbol (K-SETUP-1: ♠ Military, ♥ Civilians, …): the
    rulebook's name, or the content's own where it renames the faction (:func:`faction_label`)."""
    name = faction_label(content, faction, lang)
    return f"{SUIT_SYMBOLS[FACTIONS.index(faction)]} {name}" if faction in FACTIONS else name


def label(entry: Effect | Faction, lang: str) -> str:
    """A content label in the reader's language: ``name_de`` for German readers where the
    content gives one, else ``name`` (the English label)."""
    return entry.name_de if lang == "de" and entry.name_de else entry.name


def faction_label(content: Content | None, faction: str, lang: str) -> str:
    """A faction's name: the catalog's (the rulebook's, in the reader's language) unless the
    content renames it (a ``name`` other than the rulebook's English one, or a ``name_de``)."""
    catalog = t(f"faction.{faction}", lang)
    if content is None or faction not in FACTIONS:
        return catalog
    own = content.factions[FACTIONS.index(faction)]
    if (lang == "de" and own.name_de) or own.name not in (faction, t(f"faction.{faction}", "en")):
        return label(own, lang)
    return catalog


def category_name(category: str, lang: str) -> str:
    return t(f"category.{category}", lang)


def effect_values(kind: EffectKind, params: Mapping[str, Any], lang: str) -> dict[str, object]:
    """The placeholders of an effect's parameters (amounts with their unit, suit and rank)."""
    values: dict[str, object] = {}
    if "amount" in params:
        values["chips"] = chips(params["amount"], lang)
    if "count" in params:
        values["cards"] = count_cards(params["count"], lang)
    if "steps" in params:
        values["categories"] = plural(P + "count.category", params["steps"], lang)
    for key in ("factor", "extra", "less"):
        if key in params:
            values[key] = params[key]
    to = params.get("to")
    if isinstance(to, str) and kind == "set-suit" and to in SUITS:
        values["suit"] = f"{SUIT_SYMBOLS[SUITS.index(to)]} {t(f'suit.{to}', lang)}"
    elif isinstance(to, str):
        values["rank"] = "10" if to == "T" else to
    return values


def effect_what(kind: EffectKind, params: Mapping[str, Any], lang: str) -> str:
    """What an effect does, from its kind and parameters (as in events and ``Effect.params``)."""
    key = f"effect.{kind}"
    if kind in ("gain", "lose", "skim", "ante"):
        key += f".{params.get('who', 'self')}"
    return t(key, lang, **effect_values(kind, params, lang)) if has(P + key, "en") else kind


def effect_name(name: str, lang: str) -> str:
    """A content label, quoted (`` “Barricade”``), or nothing."""
    return t("effect.named", lang, name=name) if name else ""


def describe_effect(effect: Effect, lang: str) -> str:
    """A card's effect for the hand listing: label, timing and what it does."""
    named = label(effect, lang) or t(f"kind.{effect.kind}", lang)
    timing = t(f"timing.{effect.timing}", lang)
    return f"{named} · {timing} · {effect_what(effect.kind, effect.params(), lang)}"


def describe_ability(effect: Effect, lang: str) -> str:
    """A faction ability in a line: when, what it costs and gives back (K-SCORE-5, KD-SCORE-2)
    and what it does."""
    named = effect_name(label(effect, lang), lang)
    timing = t(f"timing.{effect.timing}", lang)
    what = effect_what(effect.kind, effect.params(), lang)
    return t("ui.ability", lang, name=named, timing=timing, what=what)


def card_effect(content: Content | None, code: str) -> Effect | None:
    if content is None:
        return None
    try:
        return content.effects[parse_card(code)]
    except ValueError:
        return None


def bonus_rule(lang: str) -> str:
    """K-SCORE-3 in one line, from the engine's own table: "2–6 none, 7–10 1 point, J Q K A 2
    points" (ranks with the same bonus grouped)."""
    groups: list[tuple[int, list[str]]] = []
    for rank, label in enumerate(RANKS):
        bonus = CARD_BONUS[rank << 2]  # a card's code is rank * 4 + suit
        label = "10" if label == "T" else label
        if groups and groups[-1][0] == bonus:
            groups[-1][1].append(label)
        else:
            groups.append((bonus, [label]))
    parts = []
    for bonus, labels in groups:
        numbers = all(label.isdigit() for label in labels) and len(labels) > 1
        ranks = f"{labels[0]}–{labels[-1]}" if numbers else " ".join(labels)
        points = plural(P + "ui.bonus_points", bonus, lang) if bonus else t("ui.bonus_none", lang)
        parts.append(f"{ranks} {points}")
    return t("ui.bonus", lang, groups=", ".join(parts))


def has_abilities(content: Content | None, factions: Sequence[str]) -> bool:
    """Whether any of ``factions`` has an ability: without one, action chips mean nothing."""
    return any(ability_of(content, faction) is not None for faction in factions)


def ability_of(content: Content | None, faction: str) -> Effect | None:
    if content is None or faction not in FACTIONS:
        return None
    return content.factions[FACTIONS.index(faction)].ability


# --- events ------------------------------------------------------------------------------------


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"p{seat + 1}"


def _seats(seats: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(seat_name(names, q) for q in seats)


def game_over_form(result: Mapping[str, object]) -> str:
    """Which text of the game's end fits: ``no-chips`` when the final chips show who ran out,
    ``no-chips-during`` when that player won chips back in the round's scoring (the event does
    not say who it was), else the reason itself."""
    reason = str(result.get("reason"))
    if reason == "no-chips" and not broke_seats(result):
        return "no-chips-during"
    return reason


def broke_seats(result: Mapping[str, object]) -> list[int]:
    """The players who ran out of chips (K-END-1): the game-over event names them (they may have
    won chips back in the round's scoring); a bare result only shows who is left at 0."""
    broke = result.get("broke")
    if isinstance(broke, list):
        return [q for q in broke if isinstance(q, int)]
    chips = result.get("chips")
    return [q for q, c in enumerate(chips) if c == 0] if isinstance(chips, list) else []


def game_over_reason(result: Mapping[str, object], lang: str, names: Sequence[str]) -> str:
    """Why the game ended, naming who ran out of chips and after which dealer round."""
    broke = _seats(broke_seats(result), names)
    return t(f"ui.reason.{game_over_form(result)}", lang, broke=broke, rounds=result.get("rounds"))


def event_label(args: Mapping[str, Any], content: Content | None, lang: str) -> str:
    """The label of the effect an event announces, in the reader's language: the event carries
    the content's ``name``; the content (public, KD-SETUP-1) gives its ``name_de``."""
    name = args.get("name") or ""
    card, faction = args.get("card"), args.get("faction")
    effect = card_effect(content, card) if isinstance(card, str) else None
    if effect is None and isinstance(faction, str):
        effect = ability_of(content, faction)
    return label(effect, lang) if effect is not None and effect.name == name else str(name)


def _context(
    view: EventView, lang: str, names: Sequence[str], content: Content | None = None
) -> dict[str, object]:
    """Every placeholder an event template may use, derived from the event's arguments."""
    args = view.args
    ctx: dict[str, object] = {k: v for k, v in args.items() if isinstance(v, int | str)}
    for key in SEAT_ARGS:
        if isinstance(args.get(key), int):
            ctx[key] = seat_name(names, args[key])
    for key in ("card", "blocked", "given", "taken"):
        if isinstance(args.get(key), str):
            ctx[key] = card_label(args[key])
    for key in ("cards", "best"):
        if isinstance(args.get(key), list):
            ctx[key] = cards_label(args[key])
    for key in ("amount", "cost"):
        if isinstance(args.get(key), int):
            ctx[key] = chips(args[key], lang)
    if isinstance(args.get("count"), int):
        ctx["count"] = count_cards(args["count"], lang)
    if view.kind == "reshuffle":
        ctx["count"] = count_cards(args["cards"], lang)
    if isinstance(args.get("chips"), list):  # the standings at the end of a round / the game
        ctx["chips"] = ", ".join(f"{seat_name(names, q)} {c}" for q, c in enumerate(args["chips"]))
    if isinstance(args.get("targets"), list):  # a squeeze's
        ctx["targets"] = _seats(args["targets"], names)
    if isinstance(args.get("winners"), list):
        ctx["winners"] = _seats(args["winners"], names) or text("ui.nobody", lang)
    if isinstance(args.get("step"), str):
        ctx["step"] = t(f"step.{args['step']}", lang)
    if isinstance(args.get("category"), str):
        ctx["category"] = category_name(args["category"], lang)
    if isinstance(args.get("faction"), str):
        ctx["faction"] = faction_name(args["faction"], lang, content)
    if isinstance(args.get("timing"), str):
        ctx["timing"] = t(f"timing.{args['timing']}", lang)
    kind: EffectKind | None = args.get("kind")  # the effect events' (effect, void, target …)
    if isinstance(kind, str):
        ctx["kind"] = t(f"kind.{kind}", lang)
        params = args.get("params", {k: args[k] for k in ("steps", "to") if k in args})
        ctx["what"] = effect_what(kind, params, lang)
        if view.kind == "structure":  # the values of the change itself
            ctx.update(effect_values(kind, params, lang))
    ctx["name"] = effect_name(event_label(args, content, lang), lang)
    if isinstance(args.get("rule"), str):
        ctx["title"] = rule_title(args["rule"], lang)
    if view.kind == "reveal":
        ctx["hands"] = "; ".join(
            t("event.reveal.hand", lang, seat=seat_name(names, q), cards=cards_label(hand))
            for q, hand in enumerate(args["hands"])
            if hand is not None
        )
        ctx["order"] = _seats(args["order"], names)
    if view.kind == "game-over":
        ctx["broke"] = _seats(broke_seats(args), names)
    return ctx


def _form(view: EventView) -> str:
    """Which template of the kind fits this view."""
    kind, args = view.kind, view.args
    if kind in SECRET_ARGS:
        return "seen" if SECRET_ARGS[kind] in args else "public"
    if kind == "round-start":
        return "last" if args.get("last") else "public"
    if kind == "stand":
        return "participate" if args.get("step") == "participate" else "public"
    if kind in ("effect", "void"):
        return "card" if args.get("card") else "ability"
    if kind == "structure":
        return str(args.get("kind"))
    if kind == "score":
        return "multiplied" if args.get("multiplier", 1) > 1 else "public"
    if kind == "pot":
        return "tie" if len(args.get("winners", ())) > 1 else "public"
    if kind == "game-over":
        return game_over_form(args)
    if kind == "pay" and args.get("step") == "draw-1":
        return "compulsory"  # K-ROUND-2: taken before anybody decides anything
    return "public"


def render_view(
    view: EventView, lang: str, names: Sequence[str], content: Content | None = None
) -> str:
    """One event as a line; with the game's ``content`` an effect's label is in ``lang``."""
    key = f"event.{view.kind}.{_form(view)}"
    if not has(P + key, "en"):  # an event kind newer than the catalogs: still say something
        return f"[{view.kind}] {view.args}"
    ctx = _context(view, lang, names, content)
    line = t(key, lang, **ctx)
    if view.kind == "pot" and view.args.get("remainder"):
        line += t("event.pot.remainder", lang, **ctx)  # KD-SCORE-1
    return line


def render_events(
    views: Sequence[EventView], lang: str, names: Sequence[str], content: Content | None = None
) -> list[str]:
    """A viewer's views of events (``event.view(seat)``: a renderer never sees a secret the
    viewer may not know) as lines. The deal of a round becomes one summary (plus the viewer's
    own hand), and a player's draws in a row one line ("p2 draws 2 cards" / "p1 (you) draws 7♥
    K♠")."""
    return [line for _, line in render_indexed(views, lang, names, content)]


def render_indexed(
    views: Sequence[EventView], lang: str, names: Sequence[str], content: Content | None = None
) -> list[tuple[int, str]]:
    """:func:`render_events`, each line with the index in ``views`` of the event it tells (the
    first of a run it sums up), so that a client can point from a line at what it moved."""
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(views):
        view = views[i]
        j = i + 1
        if view.kind in ("deal", "draw"):  # a deal goes to everybody, draws to one player
            while (
                j < len(views)
                and views[j].kind == view.kind
                and (view.kind == "deal" or views[j].args["seat"] == view.args["seat"])
            ):
                j += 1
        if j - i == 1:
            out.append((i, render_view(view, lang, names, content)))
        elif view.kind == "deal":
            out += [(i, line) for line in _deal_summary(views[i:j], lang, names)]
        else:
            out.append((i, _draws(views[i:j], lang, names)))
        i = j
    return out


def _deal_summary(views: Sequence[EventView], lang: str, names: Sequence[str]) -> list[str]:
    counts = {v.args["seat"]: v.args["count"] for v in views}
    if len(set(counts.values())) == 1:
        lines = [t("event.deal.summary", lang, count=count_cards(views[0].args["count"], lang))]
    else:
        parts = ", ".join(
            t("event.deal.part", lang, seat=seat_name(names, q), count=count_cards(n, lang))
            for q, n in counts.items()
        )
        lines = [t("event.deal.uneven", lang, parts=parts)]
    lines += [
        t("event.deal.yours", lang, cards=cards_label(v.args["cards"]))
        for v in views
        if "cards" in v.args
    ]
    return lines


def _draws(views: Sequence[EventView], lang: str, names: Sequence[str]) -> str:
    seat = seat_name(names, views[0].args["seat"])
    cards = [v.args["card"] for v in views if "card" in v.args]
    if len(cards) == len(views):
        return t("event.draw.several_seen", lang, seat=seat, cards=cards_label(cards))
    return t("event.draw.several", lang, seat=seat, count=count_cards(len(views), lang))


# --- refusals ----------------------------------------------------------------------------------


def rule_title(rule: str, lang: str) -> str:
    key = f"{P}rule.{rule}"
    return text(key, lang) if has(key, "en") else rule


def refusal_values(params: Mapping[str, ParamValue], lang: str) -> dict[str, object]:
    """The placeholders of an ``apokerlypse.refusal.<key>`` template, from the refusal's plain
    parameters, by name: ``seat`` (0-based) → "p2"; ``card`` (a code) → "7♥"; ``cost`` → chips;
    ``count`` → cards; ``timing`` → when an effect resolves; ``faction`` → the faction with its
    suit (a content file's own name as it is). Anything else (typed notation) is shown as it is."""
    values: dict[str, object] = dict(params)
    seat, card, timing = params.get("seat"), params.get("card"), params.get("timing")
    if isinstance(seat, int):
        values["seat"] = f"p{seat + 1}"
    if isinstance(card, str):
        values["card"] = card_label(card)
    cost, count = params.get("cost"), params.get("count")
    if isinstance(cost, int):
        values["cost"] = chips(cost, lang)
    if isinstance(count, int):
        values["count"] = count_cards(count, lang)
    if isinstance(timing, str) and has(f"{P}timing.{timing}", "en"):
        values["timing"] = t(f"timing.{timing}", lang)
    faction = params.get("faction")
    if isinstance(faction, str) and faction in FACTIONS:
        values["faction"] = faction_name(faction, lang)
    return values


def render_refusal(exc: IllegalAction, lang: str) -> str:
    """A refused action: the rule id, what the rule says, and the specific reason (translated
    when the rules gave it a key, see :func:`refusal_values`)."""
    return refusal(exc, lang, P, refusal_values)


__all__ = [
    "ability_of",
    "card_effect",
    "card_label",
    "cards_label",
    "category_name",
    "chips",
    "count_cards",
    "describe_ability",
    "describe_effect",
    "effect_name",
    "effect_values",
    "effect_what",
    "event_label",
    "faction_label",
    "faction_name",
    "label",
    "refusal_values",
    "render_events",
    "render_indexed",
    "render_refusal",
    "render_view",
    "rule_title",
    "seat_name",
    "t",
]
