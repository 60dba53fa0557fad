"""The guided first game ("Learn to play") on the wire (:mod:`apokalypse.server.tutorial`).

- :class:`TutorialView`, in the state message of a guided game's learner only: the lessons its
  coach opened so far, those due now, and the move the coach suggests. The server works all of it
  out from what the learner's seat may know (its observations, its legal actions, the kinds of
  its views of the events), as the prepared deals were chosen, so the page only shows it. Every
  other viewer, and every viewer of any other game, is sent None.
- ``lesson``: the learner has read the lesson shown ("Got it") and opens the next one due now.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict


class LessonMessage(BaseModel):
    """``lesson``: "Got it": open the next lesson due now (a guided game's learner only)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["lesson"]


class TutorialView(TypedDict):
    """The coach of a guided game as its learner's own view shows it."""

    # The lessons opened so far (the topics of the game's guide), in the order they opened: the
    # one the coach shows now is the last.
    lessons: list[str]
    # The lessons that matter now and have not been opened, in the lessons' order: "Got it"
    # (``lesson``) opens the first.
    due: list[str]
    # The index in ``legal`` of the move the coach suggests for the decision the seat faces now
    # (a play and then its place are two decisions: each message suggests for its own); None
    # when the seat does not decide, or the server answers its question for it.
    suggestion: int | None
