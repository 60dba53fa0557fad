"""Text for humans, rendered from events, actions, cards and refusals through the catalogs.

Everything here is a pure function of (value, language, player names): the terminal, the server
and replays all print the same sentences. Secrecy is decided before this module is reached:
every renderer takes ``event.view(seat)``, never an event, so it cannot see a secret the viewer
may not know.

>>> from apokalypse.engine.events import Event
>>> gift = Event("gift", {"actor": 0, "target": 2, "back": "K"}, {"card": "job/drugs"},
...              frozenset({0, 2}))
>>> names = ["p1", "p2", "p3"]
>>> render_view(gift.view(1), "en", names)
'p1 gives p3 a K card (good deed).'
>>> render_view(gift.view(2), "en", names)
'p1 gives p3 Job/Drugs (good deed).'
>>> render_view(gift.view(2), "de", names)
'p1 schenkt p3 „Arbeit/Drogen“ (gute Tat).'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from apokalypse.engine.errors import IllegalAction, ParamValue
from apokalypse.engine.events import EventView
from apokalypse.games.apokalypse.actions import Action
from apokalypse.games.apokalypse.cards import (
    DUAL,
    HEAVEN,
    HORSEMAN_VP,
    PLANE_NAMES,
    SIDE_NAMES,
    CardKind,
)
from apokalypse.games.apokalypse.observation import PLANES, SIDES, Observation

from .. import catalog, has, plural, refusal, seat_names, text

P = "apokalypse."  # where the game's texts live in the catalogs (i18n/apokalypse/<lang>.toml)
ICON_LETTERS = {"m": "mask", "h": "helmet", "p": "pig"}  # the letters of protection card codes
ICON_NAMES = ("mask", "helmet", "pig")
NAME_ARGS = ("actor", "target", "seat", "attacker", "startup", "dest")


def t(key: str, lang: str, /, **values: object) -> str:
    """A message of the Apokalypse catalog."""
    return text(P + key, lang, **values)


# --- players, sides, places --------------------------------------------------------------------


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"p{seat + 1}"


def _side_index(side: int | str) -> int:
    return SIDE_NAMES.index(side) if isinstance(side, str) else side


def side_name(side: int | str, lang: str) -> str:
    return t(f"side.{SIDE_NAMES[_side_index(side)]}", lang)


def plane_name(plane: int | str, lang: str) -> str:
    name = plane if isinstance(plane, str) else PLANE_NAMES[plane]
    return t(f"plane.{name}", lang)


def place_text(seat: int, side: int, plane: int, pos: int, lang: str, names: Sequence[str]) -> str:
    """A row (and position) of a display: "p2's Heaven row, good side, position 1"."""
    values = {
        "seat": _name(names, seat),
        "side": side_name(side, lang),
        "side_f": t(f"side_f.{SIDE_NAMES[side]}", lang),
        "plane": plane_name(plane, lang),
        "pos": pos,
    }
    return t("place.pos" if pos >= 0 else "place.row", lang, **values)


def horseman_title(number: int, lang: str) -> str:
    return t("horseman.title", lang, number=number, name=t(f"horseman.{number}", lang))


# --- cards -------------------------------------------------------------------------------------


def _icons(names: Sequence[str], lang: str, short: bool) -> str:
    table = "icon_short" if short else "icon"
    return "+".join(t(f"{table}.{name}", lang) for name in names)


def _half(part: str, lang: str, short: bool) -> tuple[str, bool] | None:
    """One half of a two-part code: (name, is_icons), or None when it is not known."""
    if has(f"{P}word.{part}", lang):
        return t(f"word.{part}", lang), False
    if part and all(c in ICON_LETTERS for c in part):
        return _icons([ICON_LETTERS[c] for c in part], lang, short), True
    return None


def card_name(code: str, lang: str, side: int | str | None = None) -> str:
    """The name of a card code; with ``side``, only the half that shows on that side.

    Codes come from the deck file, so names are built from their parts (``job/drugs``,
    ``m/hp``) rather than listed one by one: a replaced deck with the same vocabulary still
    reads well, and an unknown code is shown as it is."""
    return _card(code, lang, side, short=False)


def card_short(code: str, lang: str, side: int | str | None = None) -> str:
    """A compact name for a cell of a display row ("Helm+Pig", "Drugs", "Church")."""
    return _card(code, lang, side, short=True)


def _card(code: str, lang: str, side: int | str | None, short: bool) -> str:
    s = None if side is None else _side_index(side)
    parts = code.split("/")
    if len(parts) == 2:
        halves = [_half(p, lang, short) for p in parts]
        if halves[0] is not None and halves[1] is not None:
            (good, icons), (evil, _) = halves[0], halves[1]
            if s is not None:
                half = (good, evil)[s]
                return half if short or not icons else t("card.protection", lang, icons=half)
            if icons:
                key = "card.protection_short" if short else "card.protection_full"
                return t(key, lang, good=good, evil=evil)
            return t("card.dual", lang, good=good, evil=evil)
        return code
    if code in ICON_NAMES:  # a Netherworld card with one icon on both halves
        icon = _icons([code], lang, short)
        return icon if short else t("card.protection", lang, icons=icon)
    table = "short" if short else "card"
    if has(f"{P}{table}.{code}", lang):
        return t(f"{table}.{code}", lang)
    return code


def _modifier(mod: tuple[int, int]) -> str:
    parts = [f"{n:+d}{back}" for n, back in zip(mod, ("B", "K"), strict=True) if n]
    return " ".join(parts)


def describe_card(kind: CardKind, lang: str) -> str:
    """What a card does, for the hand listing (its name already tells halves and icons): the
    plane, and for dual cards the dealing modifier of each half."""
    if kind.role == DUAL:
        good, evil = (_modifier(mod) or "±0" for mod in kind.modifier)
        return t("describe.dual", lang, good=good, evil=evil)
    key = f"describe.{kind.role}"
    return t(key, lang) if has(P + key, lang) else ""


# --- events ------------------------------------------------------------------------------------


def _context(view: EventView, lang: str, names: Sequence[str]) -> dict[str, object]:
    """Every placeholder an event template may use, derived from the event's arguments."""
    args = view.args
    ctx: dict[str, object] = {}
    for key in NAME_ARGS:
        if isinstance(args.get(key), int):
            ctx[key] = _name(names, args[key])
    side = args.get("side")
    plane = args.get("plane")
    if isinstance(side, int):
        ctx["side"] = side_name(side, lang)
        ctx["side_f"] = t(f"side_f.{SIDE_NAMES[side]}", lang)
        ctx["other"] = side_name(1 - side, lang)
    if isinstance(plane, int) and isinstance(side, int):
        ctx["where"] = place_text(args["seat"], side, plane, args.get("pos", -1), lang, names)
        ctx["music"] = t("card.church" if plane == HEAVEN else "card.metal", lang)
    shown = side if isinstance(plane, int) else None  # a displayed card shows one half
    for key in ("card", "old"):
        if isinstance(args.get(key), str):
            ctx[key] = card_name(args[key], lang, shown)
    if "back" in args:
        ctx["back"] = args["back"]
    if "deck" in args:
        ctx["deck"] = args["deck"]
    if isinstance(args.get("number"), int):
        number = args["number"]
        ctx["number"] = number
        ctx["horseman"] = horseman_title(number, lang)
        ctx["horseman_card"] = t(
            "horseman.card", lang, number=number, name=t(f"horseman.{number}", lang)
        )
        ctx["vp"] = HORSEMAN_VP.get(number, 0)
    for key in ("round", "next"):
        if key in args:
            ctx[key] = args[key]
    if isinstance(args.get("above"), list) and len(args["above"]) == 2:
        ctx["above_b"], ctx["above_k"] = args["above"]
    if isinstance(args.get("scores"), list):
        ctx["scores"] = ", ".join(
            f"{_name(names, q)} {score:+d}" for q, score in enumerate(args["scores"])
        )
    if view.kind == "shelter":  # [populaces, protection, passed, dead] per side
        for side in SIDE_NAMES:
            populaces, protection, _passed, dead = args[side]
            ctx[f"{side}_populaces"], ctx[f"{side}_protection"] = populaces, protection
            # "1 populace", "2 populaces": the count with its noun in number
            ctx[f"{side}_count"] = plural(f"{P}count.populace", populaces, lang)
            ctx[f"{side}_dead"] = dead
        ctx["passed"] = args["evil"][2]
    if view.kind == "seal-award":
        seats = [_name(names, q) for q in args.get("seats", [])]
        ctx["seats"] = ", ".join(seats) or text("ui.nobody", lang)
        ctx["populaces"] = args.get("populaces")
    if view.kind == "deaths":
        parts = [
            plural(f"{P}count.{s}_populace", args[s], lang) for s in SIDE_NAMES if args.get(s, 0)
        ]
        ctx["losses"] = f" {t('word.and', lang)} ".join(parts)
    populace = args.get("populace")
    ctx["person"] = ""
    if isinstance(populace, str) and populace != "populace":
        ctx["person"] = t("event.person_suffix", lang, card=card_name(populace, lang))
    if isinstance(args.get("orphans"), list):
        ctx["orphans"] = ", ".join(card_name(c, lang) for c in args["orphans"])
    return ctx


def event_key(view: EventView, lang: str) -> str | None:
    """The catalog key for a view: the seen form if there is one, a side variant if any."""
    side = view.args.get("side")
    forms = ("seen", "public") if view.seen else ("public",)
    known = catalog(lang)
    for form in forms:
        base = f"{P}event.{view.kind}.{form}"
        if isinstance(side, int) and f"{base}.{SIDE_NAMES[side]}" in known:
            return f"{base}.{SIDE_NAMES[side]}"
        if base in known:
            return base
    return None


def render_view(view: EventView, lang: str, names: Sequence[str]) -> str:
    key = event_key(view, lang)
    if key is None:  # an event kind newer than the catalogs: still say something
        return f"[{view.kind}] {view.args}"
    line = text(key, lang, **_context(view, lang, names))
    if view.kind == "converted" and view.args.get("orphans"):
        line += t("event.converted.orphans", lang, **_context(view, lang, names))
    return line


def render_events(views: Sequence[EventView], lang: str, names: Sequence[str]) -> list[str]:
    """A viewer's views of events (``event.view(seat)``: a renderer never sees a secret the
    viewer may not know) as lines; a run of card deals becomes one summary (plus the viewer's
    own cards)."""
    return [line for _, line in render_indexed(views, lang, names)]


def render_indexed(
    views: Sequence[EventView], lang: str, names: Sequence[str]
) -> list[tuple[int, str]]:
    """:func:`render_events`, each line with the index in ``views`` of the event it tells (the
    first of a run it sums up), so that a client can point from a line at what it moved."""
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(views):
        if views[i].kind != "deal":
            out.append((i, render_view(views[i], lang, names)))
            i += 1
            continue
        j = i
        while j < len(views) and views[j].kind == "deal":
            j += 1
        out += [(i, line) for line in _deal_summary(views[i:j], lang, names)]
        i = j
    return out


def _deal_summary(views: Sequence[EventView], lang: str, names: Sequence[str]) -> list[str]:
    counts: dict[int, dict[str, int]] = {}
    mine: list[str] = []
    for view in views:
        per = counts.setdefault(view.args["target"], {"B": 0, "K": 0})
        per[view.args["back"]] += 1
        if view.seen:
            mine.append(card_name(view.args["card"], lang))
    parts = []
    for seat, per in counts.items():
        cards = " + ".join(f"{n} {back}" for back, n in per.items() if n)
        parts.append(t("deal.part", lang, name=_name(names, seat), cards=cards))
    lines = [t("deal.summary", lang, parts=", ".join(parts))]
    if mine:
        lines.append(t("deal.yours", lang, cards=", ".join(mine)))
    return lines


# --- actions and refusals ----------------------------------------------------------------------


def _displayed(obs: Observation | None, action: Action) -> str | None:
    if not obs:
        return None
    try:
        return obs["displays"][action.seat][SIDES[action.side]][PLANES[action.plane]][action.pos]
    except IndexError:
        return None


def _effect(kind: CardKind | None, side: int, lang: str) -> str:
    """What a Netherworld card does on ``side`` when dealing (its half's modifier), as a
    parenthesised suffix; empty for cards without one."""
    if kind is None or kind.role != DUAL:
        return ""
    mod = _modifier(kind.modifier[side])
    return t("consequence.dealing", lang, mod=mod) if mod else ""


def render_action(
    action: Action,
    lang: str,
    obs: Observation | None = None,
    names: Sequence[str] | None = None,
    kinds: Mapping[str, CardKind] | None = None,
) -> str:
    """A choice in words, with what it will do. With the chooser's observation the text names
    what a target holds ("Replace Drugs (when dealing: +1K): p2's Netherworld row …") and the
    hand sizes of steal victims; with the deck's ``kinds`` it says what a card does there."""
    kinds = kinds or {}
    if names is None:
        names = seat_names(obs["players"] if obs else 6, obs["seat"] if obs else None, lang)
    verb = action.verb
    if verb in ("pass", "decline"):
        return t(f"action.{verb}", lang)
    if verb == "play":
        kind = kinds.get(action.code)
        wording: str = action.use
        if wording in ("good", "evil") and kind is not None and kind.back == "K":
            wording = f"person_{wording}"  # an especially good/evil person: face up (R-PLAY-6)
        elif wording == "attack" and kind is not None:
            wording = f"attack_{kind.role}"
        return t(f"action.play.{wording}", lang, card=card_name(action.code, lang))
    if verb in ("give", "defend"):
        return t(f"action.{verb}", lang, card=card_name(action.code, lang))
    seat = _name(names, action.seat)
    if verb == "steal":
        counts = obs["hand_counts"] if obs else None
        if counts is not None and 0 <= action.seat < len(counts):
            b, k = counts[action.seat]
            return t("action.steal_counts", lang, seat=seat, b=b, k=k)
        return t("action.steal", lang, seat=seat)
    decision = obs["decision"] if obs else None
    if verb == "to":
        key = "action.to_display" if decision == "choose-destination" else "action.to_player"
        if decision == "choose-destination":
            attack = obs["attack"] if obs else None
            if attack is not None:  # it changes side: it joins the other side there
                other = side_name(1 - SIDE_NAMES.index(attack["side"]), lang)
                return t("action.to_display_side", lang, seat=seat, side=other)
        return t(key, lang, seat=seat)
    choice = obs.get("choice") if obs else None
    use = choice.get("use", "") if choice else ""
    chosen = kinds.get(choice["code"]) if choice else None
    if action.plane < 0:
        side = SIDE_NAMES[action.side]
        if use == "attack":
            role = chosen.role if chosen is not None else ""
            key = f"action.target.{role}.{side}"
            if not has(P + key, lang):
                key = f"action.target.attack.{side}"
            return t(key, lang, seat=seat, other=side_name(1 - action.side, lang))
        return t(f"action.target.{side}", lang, seat=seat)
    where = place_text(action.seat, action.side, action.plane, action.pos, lang, names)
    if action.pos >= 0:
        old_code = _displayed(obs, action)
        old = card_name(old_code, lang, action.side) if old_code else "?"
        old += _effect(kinds.get(old_code or ""), action.side, lang)
        key = "neutralise" if use == "neutralise" or decision == "place-seal" else "replace"
        old_kind = kinds.get(old_code or "")
        if key == "neutralise" and (old_code == "seal" or (old_kind and old_kind.is_music)):
            # Where both cards go: a Seal, displayed or placed, returns to the supply instead of
            # a discard pile (R-PLAY-15, D-REWARD-2).
            form = "seal-neutralise" if decision == "place-seal" else "neutralise"
            if old_code == "seal":
                form += "-seal"
            return t(f"action.target.{form}", lang, where=where, old=old)
        if decision == "place-seal":  # a seal on a card that is no music: it replaces it
            key = "replace"
        return t(f"action.target.{key}", lang, where=where, old=old)
    if decision == "place-seal":
        music = "church" if action.plane == HEAVEN else "metal"
        return t("action.target.seal", lang, where=where, music=t(f"card.{music}", lang))
    effect = _effect(chosen, action.side, lang)
    return t("action.target.add", lang, where=where) + effect


def rule_title(rule: str, lang: str) -> str:
    key = f"{P}rule.{rule}"
    return text(key, lang) if has(key, lang) or has(key, "en") else rule


def refusal_values(params: Mapping[str, ParamValue], lang: str) -> dict[str, object]:
    """The placeholders of an ``apokalypse.refusal.<key>`` template, from the refusal's plain
    parameters.

    By name: ``seat`` (0-based) → "p2"; ``card`` (a code) → the card's name; ``side`` (index
    or name) → the side, also as ``side_f``; ``plane`` → the plane; ``use`` → how the card is
    played; seat, side and plane (and ``pos``) together → ``place``, as events name a place.
    Any other parameter (typed notation, numbers) is shown as it is."""
    values: dict[str, object] = dict(params)
    seat, side, plane = params.get("seat"), params.get("side"), params.get("plane")
    pos = params.get("pos")
    if isinstance(seat, int):
        values["seat"] = f"p{seat + 1}"
    side_i = SIDE_NAMES.index(side) if side in SIDE_NAMES else side if side in (0, 1) else None
    if side_i is not None:
        values["side"] = side_name(side_i, lang)
        values["side_f"] = t(f"side_f.{SIDE_NAMES[side_i]}", lang)
    if isinstance(plane, int) and 0 <= plane < len(PLANE_NAMES):
        values["plane"] = plane_name(plane, lang)
    if isinstance(seat, int) and side_i is not None:
        if isinstance(plane, int) and 0 <= plane < len(PLANE_NAMES):
            at = pos if isinstance(pos, int) else -1
            values["place"] = place_text(seat, side_i, plane, at, lang, ())
        else:  # a place named by player and side only ("target p2.good")
            values["place"] = t("place.side", lang, seat=values["seat"], side_f=values["side_f"])
    card = params.get("card")
    if isinstance(card, str):
        values["card"] = card_name(card, lang)
    use = params.get("use")
    if isinstance(use, str) and has(f"{P}use.{use}", lang):
        values["use"] = t(f"use.{use}", lang)
    return values


def render_refusal(exc: IllegalAction, lang: str) -> str:
    """A refused action: the rule id, what the rule says, and the specific reason (translated
    when the rules gave it a key, see :func:`refusal_values`)."""
    return refusal(exc, lang, P, refusal_values)


__all__ = [
    "card_name",
    "card_short",
    "describe_card",
    "horseman_title",
    "place_text",
    "plane_name",
    "refusal_values",
    "render_action",
    "render_events",
    "render_indexed",
    "render_refusal",
    "render_view",
    "rule_title",
    "seat_names",
    "side_name",
    "t",
]
