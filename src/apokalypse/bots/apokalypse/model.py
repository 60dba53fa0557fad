"""What the heuristic player works out from an observation: card facts, displays as rows of codes,
how many populaces the coming horsemen would kill, and how soon the next one rides.

The rules themselves it asks the game: :mod:`apokalypse.games.apokalypse.observed` runs the
engine's own functions (where a card may go, who can be attacked, what an attack takes, what
protects a side) on an observation's codes, and :func:`~apokalypse.games.apokalypse.horsemen.deaths`
is the reckoning's arithmetic. The engine stays the judge: the bot always picks from the legal
actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from apokalypse.games.apokalypse.cards import (
    EARTH,
    EVIL,
    GOOD,
    NETHER,
    CardKind,
    deck_kinds,
    default_deck_text,
)
from apokalypse.games.apokalypse.horsemen import deaths
from apokalypse.games.apokalypse.observed import Rows, display_rows, side_protection
from apokalypse.games.apokalypse.roles import EVIL_EARTH, GOOD_EARTH, Role

# One display: six rows of card codes, display[side * 3 + plane], each packed from position 0
# outward (as in the observation).
Display = Rows
LAST = 4


@lru_cache(maxsize=1)
def kinds() -> Mapping[str, CardKind]:
    """The kinds of card by code. The observation names cards by code only; the default deck says
    what each code is. A custom deck's unknown codes read as blank cards (weaker play, still
    legal)."""
    return deck_kinds(default_deck_text())


def role(code: str) -> Role | None:
    kind = kinds().get(code)
    return None if kind is None else kind.role


def display_from_obs(view: Mapping[str, Any]) -> Display:
    """A display of the observation as rows of codes, copied (the bot changes its copies)."""
    return [row[:] for row in display_rows(view)]


def copy_display(d: Display) -> Display:
    return [row[:] for row in d]


def losses(d: Display, first: int, owned: frozenset[int]) -> list[int]:
    """Populaces each horseman from ``first`` to 4 would kill in this display as it is now
    (R-HORSE-1/2/4, D-HORSE-1); index 0 is horseman ``first``."""
    good_n, evil_n = len(d[GOOD_EARTH]), len(d[EVIL_EARTH])
    if not good_n and not evil_n:
        return [0] * (LAST + 1 - first)
    known = kinds()
    good, evil = side_protection(d, GOOD, known), side_protection(d, EVIL, known)
    return [sum(deaths(n, good_n, evil_n, good, evil, owned)) for n in range(first, LAST + 1)]


def income(d: Display) -> int:
    """Net Netherworld modifiers (extra cards per round) of a display: a rough count of what
    R-DEAL-1 deals beyond one card per populace."""
    known = kinds()
    total = 0
    for side in (GOOD, EVIL):
        earth = len(d[side * 3 + EARTH])
        for pos, code in enumerate(d[side * 3 + NETHER]):
            kind = known.get(code)
            if pos < earth and kind is not None:
                b, k = kind.modifier[side]
                total += b + k
    return total


def urgency(obs: Mapping[str, Any], displays: list[Display]) -> float:
    """How likely the next horseman rides at the end of this round (1.0: it surely does).

    Each round deals about one card per populace plus one per basic populace from each deck;
    the observation says how many cards lie above the next horseman (R-INFO-1)."""
    n = len(displays)
    good = sum(len(d[GOOD_EARTH]) for d in displays)
    evil = sum(len(d[EVIL_EARTH]) for d in displays)
    rounds = []
    for deck, per_round in zip(obs["decks"], (n + good, n + evil), strict=True):
        rounds.append(deck["above_horseman"] / max(1, per_round))
    left = min(rounds)
    return 1.0 if left < 1 else 1.0 / (1.0 + left)
