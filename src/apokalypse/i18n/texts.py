"""What a person reads about one game in progress, as plain text in one language: the question
of a decision, the wording of each choice, the log. The terminal draws it into its boards; the
server sends it with each state, so the browser shows the very sentences the terminal does.

Each game has its own (the ``texts`` class its registry entry names, ``i18n/<game>/texts.py``),
made by :func:`texts_for` from the game's record config and a language. Everything is a pure
function of observations and event views.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from typing_extensions import TypeVar

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import EventView
from apokalypse.engine.registry import part

from .rulebook import Rulebook

# The game's action and observation types (Any: a game chosen at run time).
A_contra = TypeVar("A_contra", contravariant=True, default=Any)
O_contra = TypeVar("O_contra", contravariant=True, default=Any)


class Texts(Protocol[A_contra, O_contra]):
    lang: str

    def render_events(self, views: Sequence[EventView], names: Sequence[str]) -> list[str]:
        """A viewer's views of events (``event.view(seat)``) as lines. Renderers take views,
        never events: a renderer cannot see a secret the viewer may not know."""
        ...

    def render_indexed(
        self, views: Sequence[EventView], names: Sequence[str]
    ) -> list[tuple[int, str]]:
        """:meth:`render_events`, each line with the index in ``views`` of the event it tells
        (the first of a run it sums up)."""
        ...

    def render_action(self, action: A_contra, obs: O_contra, names: Sequence[str]) -> str:
        """What choosing ``action`` does, in words."""
        ...

    def decision_text(self, seat: int, obs: O_contra, names: Sequence[str]) -> str:
        """The question of the decision ``seat`` faces now."""
        ...

    def refusal(self, exc: IllegalAction) -> str:
        """A refused action in one line: the rule id, what the rule says, the reason."""
        ...

    def cards(self) -> Mapping[str, object]:
        """Every card code of the game's deck with its name and what it does (a custom deck's
        too): the card facts a client needs, sent once."""
        ...

    def rules(self, topic: str) -> str:
        """The rules in short (``topic`` empty), or one card's rules (a card code), as the
        terminal prints them."""
        ...

    def rulebook(self, card: str) -> Rulebook:
        """The rules as a structure (:mod:`.rulebook`): the short rules' sections, every card of
        the game and, with ``card`` (a code), that card's help (None for a code the game lacks)."""
        ...

    def forecast(self, public: O_contra) -> object:
        """What the board shows beside a public observation (Apokalypse: what the next horseman
        would do, display by display); None for a game without one."""
        ...


class MakeTexts(Protocol):
    """What a game's registry entry names as its texts: the class."""

    def __call__(self, config: Mapping[str, object], lang: str) -> Texts: ...


def texts_for(game: str, config: Mapping[str, object], lang: str) -> Texts:
    """The texts of ``game`` (a registry name) for a record's ``config`` in ``lang``; an
    unknown name is a ConfigError naming the known ones."""
    found = part(game, "texts")
    if not isinstance(found, type):
        raise TypeError(f"{game}'s texts are not a class: {found!r}")
    return cast(MakeTexts, found)(config, lang)
