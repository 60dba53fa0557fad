"""The terminal's view of Apokalypse: the displays board, events, choices and questions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType

from apokalypse.engine.events import Event
from apokalypse.games.apokalypse import Action, Observation
from apokalypse.games.apokalypse.actions import BACK
from apokalypse.games.apokalypse.pending import Decision
from apokalypse.i18n import text
from apokalypse.i18n.apokalypse import render as r
from apokalypse.i18n.apokalypse.texts import Texts

from ..common import Pause, Spoken
from .board import board, result_view
from .panel import ride_panel

FULL_BOARD: frozenset[Decision] = frozenset(
    {"turn", "defence", "place-seal"}
)  # first steps; follow-ups stay short


class UI(Spoken):
    folded: frozenset[str] = frozenset({"shelter"})  # the ride panel shows every protection

    def __init__(self, config: dict[str, object], lang: str) -> None:
        self.lang = lang
        texts = Texts(config, lang)
        self.texts = texts  # the same sentences the server sends the browser
        self.kinds = texts.kinds
        self.good_ties = texts.good_ties  # the forecast's majority follows V-GOOD-TIES

    def note(self, events: Sequence[Event]) -> None:
        return None  # every question reads what it needs from the observation

    def back_action(self, obs: Observation) -> Action | None:
        return BACK if "choice" in obs else None  # a second step: the first can be taken back

    def auto_answer(self, legal: Sequence[Action]) -> str | None:
        # R-ATTACK-4: every other player is asked, whatever they hold.
        if [str(a) for a in legal] == ["decline"]:
            return r.t("ui.auto_decline", self.lang)
        return None

    def full_board(self, obs: Observation) -> bool:
        return obs["decision"] in FULL_BOARD

    def board(
        self, obs: Observation, names: Sequence[str], recent: Sequence[str] = ()
    ) -> RenderableType:
        return board(obs, self.lang, names, self.kinds, recent, self.good_ties)

    def summaries(
        self, events: Sequence[Event], names: Sequence[str]
    ) -> list[tuple[int, RenderableType]]:
        """A horseman's ride as a panel after its last event, worth a pause to read."""
        kinds = [e.kind for e in events]
        if "ride" not in kinds:
            return []
        start = kinds.index("ride")
        end = len(kinds) - 1
        for i in range(start, len(kinds)):  # the ride's events end where the game goes on
            if kinds[i] == "round-start":
                end = i - 1
                break
        return [(end, Pause(ride_panel(events[start : end + 1], self.lang, names)))]

    def result_view(self, result: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
        return result_view(result, self.lang, names)

    def result_line(self, result: Mapping[str, Any], names: Sequence[str]) -> str:
        totals = ", ".join(f"{names[q]} {t}" for q, t in enumerate(result["totals"]))
        winners = ", ".join(names[q] for q in result["winners"]) or text("ui.nobody", self.lang)
        return r.t("ui.result_line", self.lang, case=result["case"], winners=winners, totals=totals)

    def help(self) -> str:
        return r.t("ui.help", self.lang)
