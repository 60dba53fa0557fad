"""What an Apokerlypse viewer is sent: the one place that decides it (see :mod:`.seat`).

- the viewer's observation (``State.observation``: its hand only for itself; in a block window
  the move where the window opened and nobody deciding, for everybody not asked);
- its views of the events since its last message, and the log rendered from them alone;
- its legal actions, only when its observation shows it deciding, each with its notation and its
  parts (:class:`~apokalypse.games.apokerlypse.observation.ActionParts`);
- no forecast; each card as printed in a connection's first message;
- the table: seats, clock (:func:`.seat.clock_view`), rematch.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from apokalypse.games.apokerlypse import Action, Observation
from apokalypse.games.apokerlypse import events as e
from apokalypse.games.apokerlypse.observation import ActionParts, action_parts
from apokalypse.i18n.apokerlypse.texts import CardFacts, Texts

from . import seat

# The game's events, told apart by their kind (games/apokerlypse/events.py).
Event = Annotated[e.Event, Field(discriminator="kind")]

StateMessage = seat.StateMessage[Observation, ActionParts, None, CardFacts, Event]
SeatViews = seat.GameViews[Action, Observation, ActionParts, None, CardFacts, Event]


def seat_views(texts: Texts) -> seat.SeatViews:
    """What any viewer of a game with these texts (its content, its language) is sent."""
    views: SeatViews = seat.GameViews(texts, action_parts, texts.forecast, texts.cards, e.told)
    return views  # the server takes it as any game's (mypy checks that it is)
