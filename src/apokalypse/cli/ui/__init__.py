"""What the terminal needs to know about one game, behind one small interface.

The session loop (:mod:`..session`) asks people and computer players, saves and resumes without
knowing which game it runs; everything a person *reads* about a game (the board, events, choices,
questions, refusals) comes from that game's adapter here (``ui/<game>/``), named by the game's
registry entry (``engine/registry.py``).
Adapters draw from observations only, never from a State: the observation is the one secrecy
boundary, and a hot-seat screen must never show what its owner may not see.

An adapter is a ``GameUI[A, O]`` for its game's action and observation types; the session, which
runs any game, holds a plain ``GameUI`` (``GameUI[Any, Any]``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from rich.console import RenderableType
from typing_extensions import TypeVar

from apokalypse.engine.errors import ConfigError, IllegalAction
from apokalypse.engine.events import Event
from apokalypse.engine.registry import game_names, part
from apokalypse.i18n.texts import Texts

A = TypeVar("A", default=Any)  # the game's action type
O_contra = TypeVar("O_contra", bound=Mapping[str, object], contravariant=True, default=Any)


class GameUI(Protocol[A, O_contra]):
    """One game's text and drawings for one language (fixed when the adapter is made)."""

    # Event kinds that the running log leaves out because a summary drawing shows them.
    folded: frozenset[str]
    # The game's sentences, the same the server sends: the seat view's question and choices.
    texts: Texts

    def note(self, events: Sequence[Event]) -> None:
        """Remember what later questions refer to (an attack waiting for defence …)."""
        ...

    def render_events(
        self, events: Sequence[Event], seat: int | None, names: Sequence[str]
    ) -> list[str]: ...

    def back_action(self, obs: O_contra) -> A | None:
        """The action that takes back the first step of a multi-step choice (offered as 0)."""
        ...

    def auto_answer(self, legal: Sequence[A]) -> str | None:
        """A message when the only legal action is a formality (no defence or block card held):
        a lone person is not asked then. None: ask."""
        ...

    def full_board(self, obs: O_contra) -> bool:
        """Whether this decision starts something worth the whole board (a turn, a phase …)."""
        ...

    def board(
        self, obs: O_contra, names: Sequence[str], recent: Sequence[str] = ()
    ) -> RenderableType: ...

    def summaries(
        self, events: Sequence[Event], names: Sequence[str]
    ) -> list[tuple[int, RenderableType]]:
        """Drawings the running log shows after some of ``events``: (index of the event, drawing)
        in order (a round's final scoring after its end)."""
        ...

    # ``result``: the game result's JSON (``GameResult.to_json``, as records keep it).
    def result_view(self, result: Mapping[str, Any], names: Sequence[str]) -> RenderableType: ...

    def result_line(self, result: Mapping[str, Any], names: Sequence[str]) -> str:
        """The result in one line (replays)."""
        ...

    def refusal(self, exc: IllegalAction) -> str:
        """A refused action in one line: the rule id, what the rule says, the reason."""
        ...

    def help(self) -> str: ...

    def rules(self, topic: str) -> str:
        """The rules explained: the short rules, or with ``topic`` (a card code) one card's."""
        ...


class MakeUI(Protocol):
    """What a game's registry entry names as its terminal adapter: the adapter's class."""

    def __call__(self, config: dict[str, object], lang: str) -> GameUI: ...


def make_ui(game: str, config: dict[str, object], lang: str) -> GameUI:
    """The adapter for the game ``game`` (a registry name, whose entry names the adapter) with
    the record's ``config``. Imported on demand: a game's rules load only when it is played."""
    try:
        adapter = part(game, "ui")
    except ConfigError:
        known = ", ".join(game_names())
        raise ConfigError(f"the terminal cannot show {game!r} games (known: {known})") from None
    if not callable(adapter):
        raise TypeError(f"{game}'s terminal adapter is not a class: {adapter!r}")
    made: MakeUI = adapter
    return made(config, lang)
