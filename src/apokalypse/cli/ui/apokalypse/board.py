"""Drawing the table for one viewer with Rich, from an observation only (never from a State).

A display is drawn as the cards lie on the table: three rows (Heaven, Earth, Netherworld) with the
setup cards in the middle column, the good side to their left and the evil side to their right,
positions counted outward from the setup cards (the numbers the action notation uses).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from apokalypse.cli.ui.common import Packed, recent_panel
from apokalypse.games.apokalypse.cards import HORSEMAN_VP, ICON_BITS, ICON_OF_HORSEMAN, CardKind
from apokalypse.games.apokalypse.forecast import Forecast, SideForecast, forecast
from apokalypse.games.apokalypse.observation import PLANES, SIDES, Observation, Plane, Side
from apokalypse.i18n import text
from apokalypse.i18n.apokalypse.render import (
    card_name,
    card_short,
    describe_card,
    horseman_title,
    side_name,
    t,
)

SIDE_STYLE = {"good": "green", "evil": "red"}


def _cell(obs: Observation, seat: int, side: Side, plane: Plane, pos: int, lang: str) -> str:
    code = obs["displays"][seat][side][plane][pos]
    front = obs.get("fronts", {}).get(f"p{seat + 1}.{side}.{pos}") if plane == "earth" else None
    if front is not None:  # a face-down populace the viewer laid: they know its front
        return f"({card_short(front, lang)})"  # the whole front: it is not played as a side
    return card_short(code, lang, side)


def display_table(obs: Observation, seat: int, lang: str, names: Sequence[str]) -> Table:
    """One player's display: good positions …2 1 0 | setup | 0 1 2… evil positions, the sides
    named in the title (not told apart by colour alone)."""
    display = obs["displays"][seat]
    width = {side: max(len(display[side][p]) for p in PLANES) for side in SIDES}
    mark = " ◀" if obs.get("to_act") == seat else ""
    title = t("ui.display_title", lang, good=side_name("good", lang), evil=side_name("evil", lang))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1), title=title)
    for pos in reversed(range(width["good"])):
        table.add_column(str(pos), justify="center", style=SIDE_STYLE["good"])
    table.add_column(f"{names[seat]}{mark}", justify="center", style="bold")
    for pos in range(width["evil"]):
        table.add_column(str(pos), justify="center", style=SIDE_STYLE["evil"])
    for plane in PLANES:
        cells: list[str] = []
        good_row = display["good"][plane]
        for pos in reversed(range(width["good"])):
            cells.append(_cell(obs, seat, "good", plane, pos, lang) if pos < len(good_row) else "")
        cells.append(t(f"setup.{plane}", lang))
        evil_row = display["evil"][plane]
        for pos in range(width["evil"]):
            cells.append(_cell(obs, seat, "evil", plane, pos, lang) if pos < len(evil_row) else "")
        table.add_row(*cells)
    return table


def displays(obs: Observation, lang: str, names: Sequence[str]) -> RenderableType:
    tables = [display_table(obs, q, lang, names) for q in range(obs["players"])]
    return Packed(tables)


def _marks(obs: Observation, seat: int, lang: str) -> str:
    marks: list[str] = []
    if "result" in obs:  # over: who passed or starts no longer matters; the result says it all
        return t("ui.yes", lang) if seat in obs["result"]["winners"] else ""
    if obs.get("startup") == seat:
        marks.append(t("ui.mark.startup", lang))
    if obs["passed"][seat]:
        marks.append(t("ui.mark.passed", lang))
    if obs.get("to_act") == seat:
        marks.append(t("ui.mark.to_act", lang))
    return ", ".join(marks)


def status_table(obs: Observation, lang: str, names: Sequence[str]) -> Table:
    """Public counts per player (R-INFO-1): hand backs, reckoning scores, horseman cards."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for key in ("player", "hand", "scores", "horsemen", "total", "state"):
        table.add_column(t(f"ui.col.{key}", lang), justify="left" if key == "player" else "right")
    for q in range(obs["players"]):
        b, k = obs["hand_counts"][q]
        scores = [row[q] for row in obs["scores"]]
        horsemen = obs["horseman_cards"][q]
        total = sum(scores) + sum(HORSEMAN_VP[h] for h in horsemen)
        table.add_row(
            names[q],
            f"{b} B · {k} K",
            " ".join(f"{s:+d}" for s in scores) or "–",
            " ".join(str(h) for h in horsemen) or "–",
            str(total),
            _marks(obs, q, lang),
        )
    return table


def info_lines(obs: Observation, lang: str, names: Sequence[str]) -> list[str]:
    b_deck, k_deck = obs["decks"]
    info = "ui.info_over" if "result" in obs else "ui.info"  # R-END-1: after Death, no "next"
    lines = [
        t(
            info,
            lang,
            round=obs["round"],
            horseman=horseman_title(obs["horseman"], lang),
            startup=names[obs["startup"]],
        ),
        t(
            "ui.decks",
            lang,
            b_size=b_deck["size"],
            b_above=b_deck["above_horseman"],
            k_size=k_deck["size"],
            k_above=k_deck["above_horseman"],
            b_discard=len(obs["discards"][0]),
            k_discard=len(obs["discards"][1]),
            seals=obs["seal_supply"],
            displayed=sum(  # seals laid as music (R-REWARD-3)
                display[side][plane].count("seal")
                for display in obs["displays"]
                for side in SIDES
                for plane in PLANES
            ),
        ),
    ]
    attack = obs["attack"]
    if attack:
        lines.append(t("ui.attack_pending", lang, cards=card_name(attack["card"], lang)))
    return lines


def forecast_view(f: Forecast, lang: str, names: Sequence[str]) -> RenderableType:
    """What the next horseman, and Death, would do if they rode now (public: the same for every
    viewer), with the running count of good and evil populaces that decides the game."""
    icon_names = {bit: name for name, bit in ICON_BITS.items()}
    protects = t("ui.forecast.protects_all", lang)
    if f.horseman in ICON_OF_HORSEMAN:  # horsemen 1–3 check one icon; Death needs all three
        icon = t(f"icon.{icon_names[ICON_OF_HORSEMAN[f.horseman]]}", lang)
        protects = t("ui.forecast.protects", lang, icon=icon)
    title = t(
        "ui.forecast.title", lang, horseman=horseman_title(f.horseman, lang), protects=protects
    )
    majority = t(
        "ui.forecast.majority",
        lang,
        good=f.good_populaces,
        evil=f.evil_populaces,
        leader=t(f"ui.forecast.lead.{f.lead}", lang),  # by the game's variants (V-GOOD-TIES)
    )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for key in ("player", "good", "evil", "score", "death"):
        justify: Literal["left", "right"] = "left" if key == "player" else "right"
        table.add_column(t(f"ui.forecast.col.{key}", lang), justify=justify)

    def side(s: SideForecast) -> Text:
        if not s.populaces:
            return Text("–")
        shown = Text(f"{s.populaces - s.dead}/{s.populaces}")
        if s.dead:
            shown.append(f" ✝{s.dead}", style="red")
        if s.passed:
            shown.append(f" (+{s.passed})", style="dim")
        return shown

    for d in f.displays:
        death = d.death.good.dead + d.death.evil.dead
        table.add_row(
            names[d.seat],
            side(d.next.good),
            side(d.next.evil),
            f"{d.next.score:+d}",
            f"✝{death}" if death else "–",
        )
    return Group(Text(title, style="bold"), table, Text(majority))


def hand_panel(
    obs: Observation, lang: str, names: Sequence[str], kinds: Mapping[str, CardKind]
) -> RenderableType:
    """The viewer's hand with what each card does, their ethos and what they know of others."""
    seat = obs["seat"]
    assert seat is not None  # a player's own panel
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    table.add_column(justify="right")
    table.add_column(style="bold")
    table.add_column(style="dim")
    table.add_column()
    for code, n in sorted(Counter(obs["hand"]).items()):
        kind = kinds.get(code)
        about = describe_card(kind, lang) if kind is not None else ""
        table.add_row(f"{n}×", Text(card_name(code, lang)), Text(f"[{code}]"), Text(about))
    if not obs["hand"]:
        table.add_row("", Text(t("ui.hand_empty", lang)), "", "")
    ethos = obs["ethos"]
    lines: list[RenderableType] = [
        Text(t("ui.ethos", lang, ethos=side_name(ethos, lang)), style=SIDE_STYLE[ethos]),
        table,
    ]
    for holder, codes in obs.get("known", {}).items():
        cards = ", ".join(card_name(c, lang) for c in codes)
        who = names[int(holder[1:]) - 1] if holder[1:].isdigit() else holder
        lines.append(Text(t("ui.known", lang, seat=who, cards=cards), style="dim"))
    title = t("ui.hand_title", lang, name=names[seat])
    return Panel(Group(*lines), title=title, title_align="left", box=box.ROUNDED)


def board(
    obs: Observation,
    lang: str,
    names: Sequence[str],
    kinds: Mapping[str, CardKind],
    recent: Sequence[str] = (),
    good_ties: bool = False,
) -> RenderableType:
    """Everything the viewer may see, top to bottom: counts, displays, recent events, hand.
    ``good_ties``: the game plays V-GOOD-TIES, which the forecast's majority line follows."""
    parts: list[RenderableType] = [Text(line) for line in info_lines(obs, lang, names)]
    parts += [status_table(obs, lang, names), displays(obs, lang, names)]
    if "result" not in obs:  # the game over, nothing rides any more
        parts.append(forecast_view(forecast(obs, kinds, good_ties), lang, names))
    if recent:
        parts.append(recent_panel(recent, lang))
    if obs.get("seat") is not None:
        parts.append(hand_panel(obs, lang, names, kinds))
    return Group(*parts)


def result_view(result: Mapping[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
    """The end (R-END): ethos revealed, totals, the case that decided, the winners."""
    winners = [names[q] for q in result["winners"]]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for key in ("player", "ethos", "total", "winner"):
        table.add_column(t(f"ui.col.{key}", lang))
    for q, total in enumerate(result["totals"]):
        ethos = result["ethos"][q]
        win = t("ui.yes", lang) if q in result["winners"] else ""
        table.add_row(
            names[q], Text(side_name(ethos, lang), style=SIDE_STYLE[ethos]), str(total), win
        )
    summary = t(
        f"result.{result['case']}",
        lang,
        winners=", ".join(winners) or text("ui.nobody", lang),
        good=result["good_populaces"],
        evil=result["evil_populaces"],
    )
    return Panel(Group(table, Text(summary)), title=t("ui.game_over", lang), box=box.DOUBLE)
