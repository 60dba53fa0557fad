"""What an Apokalypse viewer is sent: the one place that decides it (see :mod:`.seat`).

- the viewer's observation (``State.observation``: its hand, ethos and the fronts it laid face
  down only for itself; in a defence window the move where the window opened and nobody
  deciding, for everybody not asked, R-INFO-3 / R-ATTACK-4);
- its views of the events since its last message, and the log rendered from them alone;
- its legal actions, only when its observation shows it deciding, each with its notation and its
  parts (:class:`~apokalypse.games.apokalypse.observation.ActionParts`);
- the forecast of the public observation (the same for everybody, frozen like it in a window);
- the card facts of the game's deck in a connection's first message;
- the table: seats, clock (:func:`.seat.clock_view`), rematch.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from apokalypse.games.apokalypse import Action, Forecast, Observation
from apokalypse.games.apokalypse import events as e
from apokalypse.games.apokalypse.observation import ActionParts, action_parts
from apokalypse.i18n.apokalypse.texts import CardFacts, Texts

from . import seat

# The game's events, told apart by their kind (games/apokalypse/events.py).
Event = Annotated[e.Event, Field(discriminator="kind")]

StateMessage = seat.StateMessage[Observation, ActionParts, Forecast | None, CardFacts, Event]
SeatViews = seat.GameViews[Action, Observation, ActionParts, Forecast | None, CardFacts, Event]


def seat_views(texts: Texts) -> seat.SeatViews:
    """What any viewer of a game with these texts (its deck, its language) is sent."""
    views: SeatViews = seat.GameViews(texts, action_parts, texts.forecast, texts.cards, e.told)
    return views  # the server takes it as any game's (mypy checks that it is)
