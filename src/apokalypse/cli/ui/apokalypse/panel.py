"""A horseman's ride as one panel: per player the protection counted (with the surplus passed
from the good side to the evil side), the dead, the reckoning score, and the horseman cards and
seals handed out and why. Drawn from the ride's public events only, so it may be shown on a
screen the players share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from apokalypse.engine.events import Event
from apokalypse.games.apokalypse import events as ev
from apokalypse.games.apokalypse.cards import HORSEMAN_VP
from apokalypse.i18n import text
from apokalypse.i18n.apokalypse.render import horseman_title, t


def _side(values: Sequence[int]) -> Text:
    populaces, protection, passed, dead = values
    shown = Text(f"{populaces} · {protection}")
    if passed:
        shown.append(f" (+{passed})", style="dim")
    if dead:
        shown.append(f" ✝{dead}", style="red")
    return shown


def ride_panel(events: Sequence[Event], lang: str, names: Sequence[str]) -> RenderableType:
    """The panel of one ride (``events`` from the ``ride`` event to the end of its batch)."""
    told = [ev.told(e.view(None)) for e in events]  # public events: everybody's view
    number = next(x["args"]["number"] for x in told if x["kind"] == "ride")
    shelter = {x["args"]["seat"]: x["args"] for x in told if x["kind"] == "shelter"}
    scores = next(x["args"]["scores"] for x in told if x["kind"] == "reckoning")
    cards = {x["args"]["seat"] for x in told if x["kind"] == "horseman-card"}
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for key in ("player", "good", "evil", "score", "reward"):
        justify: Literal["left", "right"] = "left" if key in ("player", "reward") else "right"
        table.add_column(t(f"ui.ride.col.{key}", lang), justify=justify)
    for seat, score in enumerate(scores):
        args = shelter[seat]
        reward = t("ui.ride.card", lang, number=number, vp=HORSEMAN_VP[number])
        table.add_row(
            names[seat],
            _side(args["good"]),
            _side(args["evil"]),
            f"{score:+d}",
            reward if seat in cards else "",
        )
    lines: list[RenderableType] = [Text(t("ui.ride.legend", lang), style="dim"), table]
    best = max(scores)
    if cards:
        lines.append(Text(t("ui.ride.card_why", lang, score=best, number=number)))
    else:
        lines.append(Text(t("ui.ride.no_card", lang, score=best)))
    for x in told:
        if x["kind"] == "seal-award":
            seats = ", ".join(names[q] for q in x["args"]["seats"]) or text("ui.nobody", lang)
            populaces = x["args"]["populaces"]
            lines.append(Text(t("ui.ride.seals", lang, seats=seats, populaces=populaces)))
        elif x["kind"] == "game-over":
            lines.append(Text(t("ui.ride.last", lang)))
    title = t("ui.ride.title", lang, horseman=horseman_title(number, lang))
    return Panel(Group(*lines), title=title, title_align="left", box=box.HEAVY)
