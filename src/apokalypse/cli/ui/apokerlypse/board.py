"""Drawing the Apokerlypse table for one viewer with Rich, from an observation only.

Top to bottom: the dealer round (cost, dealer, step) and the pot; one row per player (chips,
action chips, faction, hand size, in or out of the round, short, discard pile, resolved scoring
effects); the revealed hands once the final scoring has begun; the viewer's own hand with what
each card's effect does, their faction's ability and what they know of other hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from apokalypse.cli.ui.common import recent_panel
from apokalypse.games.apokerlypse.cards import parse_card
from apokalypse.games.apokerlypse.content import Content
from apokalypse.games.apokerlypse.observation import ModsView, Observation, ScoreView
from apokalypse.games.apokerlypse.poker import CATEGORIES, category_of, evaluate
from apokalypse.i18n.apokerlypse.choices import pending_effect
from apokalypse.i18n.apokerlypse.render import (
    ability_of,
    bonus_rule,
    card_effect,
    card_label,
    category_name,
    chips,
    describe_ability,
    describe_effect,
    effect_values,
    faction_name,
    game_over_reason,
    has_abilities,
    is_red,
    t,
)

HAND_LIMIT = 5  # K-ROUND-2; a different limit is shown as an effect


def cards_text(codes: Sequence[str]) -> Text:
    """Cards as on the table: ♥ and ♦ in red."""
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(" ")
        out.append(card_label(code), style="red" if is_red(code) else "bold")
    return out


# --- the table ---------------------------------------------------------------------------------


def info_lines(
    obs: Observation, lang: str, names: Sequence[str], content: Content | None
) -> list[Text]:
    lines = [
        Text(
            t(
                "ui.info",
                lang,
                round=obs["round"],
                cost=chips(obs["cost"], lang),
                dealer=names[obs["dealer"]],
                step=t(f"step.{obs['step']}", lang),
            ),
            style="bold",
        ),
        Text(
            t(
                "ui.table",
                lang,
                pot=obs["pot"],
                bank=obs["bank"],
                pile=obs["draw_pile"],
                content=obs["content"],
                points=t(f"ui.table_{obs['table']}", lang),
                cap=t("ui.cap", lang) if obs["bonus_cap"] else "",
            )
        ),
    ]
    if obs["last_round"]:
        lines.append(Text(t("ui.last_round", lang), style="yellow"))
    if obs.get("effect"):
        pending = pending_effect(obs, content, lang, names)
        lines.append(Text(t("ui.effect_pending", lang, **pending), style="yellow"))
    return lines


def _state(obs: Observation, q: int, lang: str) -> str:
    marks = [t("ui.state.out", lang) if not obs["in_round"][q] else t("ui.state.in", lang)]
    if obs["short"][q]:
        marks.append(t("ui.state.short", lang) + " (K-SHORT-1)")
    if obs["dealer"] == q:
        marks.append(t("ui.state.dealer", lang))
    if obs.get("to_act") == q:
        marks.append(t("ui.state.to_act", lang))
    return " · ".join(marks)


def mods_text(mods: ModsView, lang: str) -> str:
    """A player's resolved scoring effects this round (K-SCORE-4/6): they never change again."""
    parts = []
    change = mods.get("structure")
    if change:  # compact: the column is narrow
        kind = change["kind"]
        params = {"steps": change["to"]} if kind == "category-up" else {"to": change["to"]}
        code = change["card"]
        card = card_label(code) if code else ""
        what = t(f"ui.mods.{kind}", lang, card=card, **effect_values(kind, params, lang))
        parts.append(t("ui.mods.structure", lang, what=what))
    if mods.get("multiplier", 1) > 1:
        parts.append(t("ui.mods.multiplier", lang, factor=mods["multiplier"]))
    if mods.get("doubled"):
        cards = " ".join(card_label(c) for c in mods["doubled"])
        parts.append(t("ui.mods.doubled", lang, cards=cards))
    if mods.get("hand_limit", HAND_LIMIT) != HAND_LIMIT:
        parts.append(t("ui.mods.limit", lang, limit=mods["hand_limit"]))
    return "; ".join(parts)


def status_table(
    obs: Observation,
    lang: str,
    names: Sequence[str],
    abilities: bool = True,
    content: Content | None = None,
) -> Table:
    """Public facts per player (secrecy.py: chips, factions, hand sizes, discard piles …); the
    action chips only where a faction has an ability to spend them on."""
    mods = [mods_text(m, lang) for m in obs["modifiers"]]
    columns = ["player", "chips", "action", "faction", "hand", "state", "discards"]
    if not abilities:
        columns.remove("action")
    if any(mods):
        columns.append("effects")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for key in columns:
        right = key in ("chips", "action", "hand")
        table.add_column(t(f"ui.col.{key}", lang), justify="right" if right else "left")
    for q in range(obs["players"]):
        action = str(obs["action_chips"][q])
        if obs["ability_used"][q]:
            action += f" ({t('ui.state.ability_used', lang)})"
        name = names[q] + (" ◀" if obs.get("to_act") == q else "")
        row: list[str | Text] = [
            Text(name, style="bold" if obs.get("to_act") == q else ""),
            str(obs["chips"][q]),
            *([action] if abilities else []),
            faction_name(obs["factions"][q], lang, content),
            str(obs["hand_sizes"][q]),
            Text(_state(obs, q, lang), style="" if obs["in_round"][q] else "dim"),
            cards_text(obs["discards"][q]) if obs["discards"][q] else Text("–"),
        ]
        if any(mods):
            row.append(mods[q])
        table.add_row(*row)
    return table


# --- the final scoring -------------------------------------------------------------------------

ScoreRow = tuple[int, Sequence[str], ScoreView | None]  # seat, hand, its score (None: not yet)


def score_table(rows: Sequence[ScoreRow], title: str, lang: str, names: Sequence[str]) -> Panel:
    """K-SCORE: the revealed hands in evaluation order, with category, base points, bonus,
    multiplier and total; a player whose turn has not come yet shows the hand only."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for key in ("player", "cards", "category", "base", "bonus", "multiplier", "total"):
        table.add_column(
            t(f"ui.col.{key}", lang),
            justify="left" if key in ("player", "cards", "category") else "right",
        )
    for seat, hand, score in rows:
        if score is None:
            wait = t("ui.not_scored", lang)
            table.add_row(names[seat], cards_text(hand), wait, "", "", "", "")
            continue
        table.add_row(
            names[seat],
            cards_text(hand),
            category_name(score["category"], lang),
            str(score["base"]),
            str(score["bonus"]),
            f"×{score['multiplier']}",
            Text(str(score["total"]), style="bold"),
        )
    return Panel(table, title=title, title_align="left", box=box.ROUNDED, expand=False)


def revealed_rows(obs: Observation) -> list[ScoreRow]:
    return [
        (q, hand, obs["scores"][q])
        for q in obs["order"]
        if (hand := obs["revealed"][q]) is not None
    ]


# --- the viewer's hand -------------------------------------------------------------------------


def hand_panel(obs: Observation, lang: str, names: Sequence[str], content: Content | None) -> Panel:
    seat = obs["seat"]
    assert seat is not None  # a player's own panel
    hand = obs["hand"]
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    table.add_column(justify="right")
    table.add_column(style="dim")
    table.add_column()
    for code in hand:
        effect = card_effect(content, code)
        about = describe_effect(effect, lang) if effect is not None else ""
        if effect is not None and code in obs["used"]:
            about += f" ({t('ui.state.used', lang)})"
        table.add_row(cards_text([code]), f"[{code}]", about)
    lines: list[RenderableType] = [table]
    if not hand:
        lines = [Text(t("ui.hand_empty", lang))]
    else:
        category = CATEGORIES[category_of(evaluate([parse_card(c) for c in hand]))]
        lines.append(Text(t("ui.hand_now", lang, category=category_name(category, lang))))
    lines.append(Text(bonus_rule(lang), style="dim"))
    faction = obs["factions"][seat]
    chips_left = obs["action_chips"][seat]
    if has_abilities(content, obs["factions"]):
        line = t("ui.faction", lang, faction=faction_name(faction, lang, content), chips=chips_left)
    else:  # action chips are for abilities only (K-SCORE-5)
        line = t("ui.faction_only", lang, faction=faction_name(faction, lang, content))
    lines.append(Text(line))
    ability = ability_of(content, faction)
    if ability is None:
        lines.append(Text(t("ui.no_ability", lang), style="dim"))
    else:
        lines.append(Text(describe_ability(ability, lang)))
    for holder, codes in obs.get("known", {}).items():
        q = int(holder[1:]) - 1
        if obs["revealed"][q] is None:  # revealed hands are in the scoring table
            known = t("ui.known", lang, seat=names[q], cards=cards_text(codes).plain)
            lines.append(Text(known, style="dim"))
    for code, seats in obs.get("maybe", {}).items():
        who = ", ".join(names[q] for q in seats)
        lines.append(Text(t("ui.maybe", lang, card=card_label(code), seats=who), style="dim"))
    title = t("ui.hand_title", lang, name=names[seat])
    return Panel(Group(*lines), title=title, title_align="left", box=box.ROUNDED, expand=False)


def board(
    obs: Observation,
    lang: str,
    names: Sequence[str],
    content: Content | None,
    recent: Sequence[str] = (),
) -> RenderableType:
    """Everything the viewer may see: the round, the players, the scoring, recent events, hand."""
    parts: list[RenderableType] = [*info_lines(obs, lang, names, content)]
    abilities = has_abilities(content, obs["factions"])
    parts.append(status_table(obs, lang, names, abilities, content))
    rows = revealed_rows(obs)
    if rows:
        parts.append(score_table(rows, t("ui.scores_title", lang, round=obs["round"]), lang, names))
    if recent:
        parts.append(recent_panel(recent, lang))
    if obs.get("seat") is not None:
        parts.append(hand_panel(obs, lang, names, content))
    return Group(*parts)


def result_view(result: Mapping[str, Any], lang: str, names: Sequence[str]) -> Panel:
    """K-END-1: the most chips win; KD-END-1: ties share the win."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for key in ("player", "chips"):
        table.add_column(t(f"ui.col.{key}", lang), justify="left" if key == "player" else "right")
    table.add_column("")
    for q, held in enumerate(result["chips"]):
        win = t("ui.winner", lang) if q in result["winners"] else ""
        table.add_row(names[q], str(held), Text(win, style="bold"))
    reason = game_over_reason(result, lang, names)
    return Panel(
        Group(table, Text(reason)),
        title=t("ui.game_over", lang),
        title_align="left",
        box=box.DOUBLE,
        expand=False,
    )
