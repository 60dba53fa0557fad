"""The coach on the wire: "what would the expert do?" (:mod:`apokalypse.server.coach`).

- ``advise``: a seat asks the searching player's advice on the decision it faces now. Only that
  connection is answered: ``advice`` (the top candidates, worded for that seat) or ``refused``.
- ``coach``: a person agrees to the coach in a game whose creator offered it to everybody (or
  takes the agreement back). Where other people sit at the table, the coach is available only
  when every person agreed.
- :class:`CoachView`, in each seat's own state message: whether the coach is available to that
  seat and, if not, why; spectators are sent None.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict


class AdviseMessage(BaseModel):
    """``advise``: what would the expert do in my place now?"""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["advise"]


class CoachMessage(BaseModel):
    """``coach``: I agree (``agree``) that every person at this table may ask the coach, or take
    my agreement back."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["coach"]
    agree: bool


class CoachView(TypedDict):
    """The coach as one seat's view shows it."""

    available: bool  # this seat may ask ``advise`` (when it decides)
    offered: bool  # the game's creator offered the coach to every person at the table
    agreed: bool  # this seat's person agreed to it
    reason: str | None  # why it is not available, in the game's language (None: it is)


class AdviceCandidate(TypedDict):
    """One of the expert's best moves: its notation, what it does in words, the share of the
    search it took and why it is good, in one line."""

    action: str
    choice: str
    share: float  # 0 … 1 of the search's iterations
    reason: str


class AdviceMessage(TypedDict):
    """The expert's advice on the decision at ``move``, for the asking connection only."""

    type: Literal["advice"]
    wire: int
    move: int
    candidates: list[AdviceCandidate]  # the most searched first: the expert's own choice leads
    iterations: int  # futures tried (0: only one choice was possible)
    seconds: float


HUMAN = "human"


def coach_refusal(
    kinds: Sequence[str], seat: int | None, offered: bool, agreed: Collection[int]
) -> str | None:
    """Why the coach is not available to ``seat`` (a ``server.`` catalog key), None when it is:
    the one rule. A seat may ask when every other seat is a computer, or when the game offers the
    coach to everybody and every person at the table agreed (the asker too): the advice comes
    from the same cards anybody holds, but a person who plays against a coached one should have
    said yes to that."""
    if seat is None:
        return "spectator"
    others = [q for q, kind in enumerate(kinds) if kind == HUMAN and q != seat]
    if not others:
        return None
    if not offered:
        return "coach-not-offered"
    if seat not in agreed:
        return "coach-agree-first"
    if any(q not in agreed for q in others):
        return "coach-not-agreed"
    return None
