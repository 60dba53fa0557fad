"""The terminal's view of Apokerlypse: the poker table, events, choices and questions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType

from apokalypse.engine.events import Event
from apokalypse.games.apokerlypse import Action, Observation
from apokalypse.games.apokerlypse import events as ev
from apokalypse.games.apokerlypse.pending import Decision
from apokalypse.i18n import text
from apokalypse.i18n.apokerlypse import render as r
from apokalypse.i18n.apokerlypse.texts import Texts

from ..common import Spoken
from .board import ScoreRow, board, result_view, score_table

# Decisions that open a phase of the round; block windows, targets and cards of an effect are
# follow-ups that stay short.
FULL_BOARD: frozenset[Decision] = frozenset({"discard", "stake", "participate", "scoring"})


class UI(Spoken):
    folded: frozenset[str] = frozenset()  # the round's summary repeats no event

    def __init__(self, config: dict[str, object], lang: str) -> None:
        self.lang = lang
        # The content is public (KD-SETUP-1): every card's effect may be shown to everybody.
        self.texts = Texts(config, lang)  # the same sentences the server sends the browser
        self.content = self.texts.content
        self.round = 0
        self.reveal: ev.Reveal | None = None  # this round's revealed hands, for the summary
        self.scores: dict[int, ev.Score] = {}  # "score" events' args
        self.scored: tuple[int, list[ScoreRow]] | None = None  # the last round's final scoring
        self.board_shown = False  # whether a question has come with the board yet

    def note(self, events: Sequence[Event]) -> None:
        for event in events:
            told = ev.told(event.view(None))  # public events: everybody's view
            if told["kind"] == "round-start":
                self.round, self.reveal, self.scores = told["args"]["round"], None, {}
            elif told["kind"] == "reveal":
                self.reveal = told["args"]
            elif told["kind"] == "score":
                self.scores[told["args"]["seat"]] = told["args"]
            elif told["kind"] == "pot" and self.reveal is not None:
                # Kept past the next round's start, which often comes in the same batch.
                hands, order = self.reveal["hands"], self.reveal["order"]
                # ``order`` names the seats still in the round: each has its hand shown
                rows: list[ScoreRow] = [(q, hands[q] or [], self.scores.get(q)) for q in order]
                self.scored = (self.round, rows)

    def back_action(self, obs: Observation) -> None:
        return None  # every decision takes effect at once; nothing to take back

    def auto_answer(self, legal: Sequence[Action]) -> str | None:
        # K-SCORE-6: a block window asks every other player, whether or not they hold a block.
        if [str(a) for a in legal] == ["allow"]:
            return r.t("ui.auto_allow", self.lang)
        return None

    def full_board(self, obs: Observation) -> bool:
        # The first question of all comes with the board, whatever it is (a block window can
        # come before any phase decision): nobody answers without having seen table and hand.
        first, self.board_shown = not self.board_shown, True
        return first or obs["decision"] in FULL_BOARD

    def board(
        self, obs: Observation, names: Sequence[str], recent: Sequence[str] = ()
    ) -> RenderableType:
        return board(obs, self.lang, names, self.content, recent)

    def summaries(
        self, events: Sequence[Event], names: Sequence[str]
    ) -> list[tuple[int, RenderableType]]:
        """The round's final scoring as a table (K-SCORE), right after the round's end. Not
        after the last round: the final board shows it."""
        ends = [i for i, e in enumerate(events) if e.kind == "round-end"]
        if self.scored is None or not ends or events[-1].kind == "game-over":
            return []
        number, rows = self.scored
        title = r.t("ui.scores_title", self.lang, round=number)
        return [(ends[-1], score_table(rows, title, self.lang, names))]

    def result_view(self, result: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
        return result_view(result, self.lang, names)

    def result_line(self, result: Mapping[str, Any], names: Sequence[str]) -> str:
        chips = ", ".join(f"{names[q]} {c}" for q, c in enumerate(result["chips"]))
        winners = ", ".join(names[q] for q in result["winners"]) or text("ui.nobody", self.lang)
        reason = r.game_over_reason(result, self.lang, names)
        return r.t(
            "ui.result_line",
            self.lang,
            reason=reason,
            winners=winners,
            chips=chips,
            rounds=result["rounds"],
        )

    def help(self) -> str:
        return f"{r.t('ui.help', self.lang)}\n{r.bonus_rule(self.lang)}"
