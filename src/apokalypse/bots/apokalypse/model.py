"""What the heuristic player works out from an observation: card facts, displays as rows of codes,
how many populaces the coming horsemen would kill, and how soon the next one rides.

The rules themselves it asks the game: :mod:`apokalypse.games.apokalypse.observed` runs the
engine's own functions (where a card may go, who can be attacked, what an attack takes, what
protects a side) on an observation's codes, and :func:`~apokalypse.games.apokalypse.horsemen.deaths`
is the reckoning's arithmetic. The engine stays the judge: the bot always picks from the legal
actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from apokalypse.games.apokalypse.cards import (
    EVIL,
    GOOD,
    CardKind,
    Protection,
    code_cards,
    deck_kinds,
    default_deck_text,
)
from apokalypse.games.apokalypse.horsemen import deaths
from apokalypse.games.apokalypse.observation import DisplayView, Observation
from apokalypse.games.apokalypse.observed import Rows, display_rows, side_protection
from apokalypse.games.apokalypse.roles import (
    EVIL_EARTH,
    EVIL_HEAVEN,
    EVIL_NETHER,
    GOOD_EARTH,
    GOOD_HEAVEN,
    GOOD_NETHER,
    Role,
)

# One display: six rows of card codes, display[side * 3 + plane], each packed from position 0
# outward (as in the observation).
Display = Rows
LAST = 4

# What the reckoning and the deal read of a display (:func:`shape`): the codes of the Heaven and
# Netherworld rows and how many populaces each side has, by row as in a Display. Which populaces
# they are does not matter to either, so displays that differ only there share one shape.
Shape = tuple[tuple[str, ...], int, tuple[str, ...], tuple[str, ...], int, tuple[str, ...]]

# All a display's value reads of it (the reckoning's counts and the deal's income), by side:
# (good populaces, evil populaces, good protection, evil protection, good income, evil income).
Facts = tuple[int, int, Protection, Protection, int, int]

# Bound of each memo here and in .context: a game fills about a tenth of it (most entries serve
# the decision that made them, few another game), and a full one holds a few MB.
MEMO = 1 << 14


@lru_cache(maxsize=1)
def kinds() -> Mapping[str, CardKind]:
    """The kinds of card by code. The observation names cards by code only; the default deck says
    what each code is. A custom deck's unknown codes read as blank cards (weaker play, still
    legal)."""
    return deck_kinds(default_deck_text())


def role(code: str) -> Role | None:
    kind = kinds().get(code)
    return None if kind is None else kind.role


def display_from_obs(view: DisplayView) -> Display:
    """A display of the observation as rows of codes, copied (the bot changes its copies)."""
    return [row[:] for row in display_rows(view)]


def copy_display(d: Display) -> Display:
    return [row[:] for row in d]


def losses(d: Display, first: int, owned: frozenset[int]) -> list[int]:
    """Populaces each horseman from ``first`` to 4 would kill in this display as it is now
    (R-HORSE-1/2/4, D-HORSE-1); index 0 is horseman ``first``."""
    good_n, evil_n, good, evil, _, _ = shape_facts(shape(d))
    return list(reckoned_losses(good_n, evil_n, good, evil, first, owned))


@lru_cache(maxsize=MEMO)
def reckoned_losses(
    good_n: int, evil_n: int, good: Protection, evil: Protection, first: int, owned: frozenset[int]
) -> tuple[int, ...]:
    """:func:`losses` from what the reckoning reads of a display: its populaces and protection
    on each side."""
    if not good_n and not evil_n:
        return (0,) * (LAST + 1 - first)
    return tuple(
        # Horseman cards count against horseman 4 only (R-HORSE-4): one memo entry for 1–3.
        dead(n, good_n, evil_n, good, evil, owned if n == LAST else NO_CARDS)
        for n in range(first, LAST + 1)
    )


NO_CARDS: frozenset[int] = frozenset()


@lru_cache(maxsize=MEMO)
def dead(
    number: int, good_n: int, evil_n: int, good: Protection, evil: Protection, owned: frozenset[int]
) -> int:
    """Populaces horseman ``number`` kills (:func:`.horsemen.deaths`), memoised: the same few
    counts come back all game."""
    return sum(deaths(number, good_n, evil_n, good, evil, owned))


def shape(d: Display) -> Shape:
    """The :data:`Shape` of a display, the key of :func:`shape_facts`."""
    return (
        tuple(d[GOOD_HEAVEN]),
        len(d[GOOD_EARTH]),
        tuple(d[GOOD_NETHER]),
        tuple(d[EVIL_HEAVEN]),
        len(d[EVIL_EARTH]),
        tuple(d[EVIL_NETHER]),
    )


@lru_cache(maxsize=MEMO)
def shape_facts(s: Shape) -> Facts:
    """The :data:`Facts` of every display of shape ``s``: protection as
    :func:`.observed.side_protection` counts it, income as :func:`income`."""
    good_heaven, good_n, good_nether, evil_heaven, evil_n, evil_nether = s
    d: Display = [list(good_heaven), [], list(good_nether)]
    d += [list(evil_heaven), [], list(evil_nether)]  # Earth: side_protection reads none
    known = kinds()
    return (
        good_n,
        evil_n,
        side_protection(d, GOOD, known),
        side_protection(d, EVIL, known),
        side_income(good_nether, good_n, GOOD),
        side_income(evil_nether, evil_n, EVIL),
    )


def protects() -> Mapping[str, tuple[Protection, Protection]]:
    """What each code in Heaven or the Netherworld counts for on the good and on the evil side:
    the terms of :func:`.observed.side_protection`'s sum (unknown codes count for nothing)."""
    return code_cards(kinds()).protection


def plus(a: Protection, b: Protection) -> Protection:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]


def minus(a: Protection, b: Protection) -> Protection:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]


def income(d: Display) -> int:
    """Net Netherworld modifiers (extra cards per round) of a display: a rough count of what
    R-DEAL-1 deals beyond one card per populace."""
    return side_income(d[GOOD_NETHER], len(d[GOOD_EARTH]), GOOD) + side_income(
        d[EVIL_NETHER], len(d[EVIL_EARTH]), EVIL
    )


def side_income(nether: Sequence[str], earth: int, side: int) -> int:
    """:func:`income` of one side: the modifiers of the Netherworld cards under its ``earth``
    populaces."""
    mods = modifiers()
    total = 0
    for code in nether[:earth]:
        total += mods.get(code, NO_MODIFIER)[side]
    return total


NO_MODIFIER = (0, 0)  # a code the kinds do not know


@lru_cache(maxsize=1)
def modifiers() -> dict[str, tuple[int, int]]:
    """Each known code's modifier (extra B plus K cards) on the good and on the evil side."""
    return {
        code: (sum(kind.modifier[GOOD]), sum(kind.modifier[EVIL])) for code, kind in kinds().items()
    }


def urgency(obs: Observation, displays: list[Display]) -> float:
    """How likely the next horseman rides at the end of this round (1.0: it surely does).

    Each round deals about one card per populace plus one per basic populace from each deck;
    the observation says how many cards lie above the next horseman (R-INFO-1)."""
    n = len(displays)
    good = evil = 0
    for d in displays:
        good += len(d[GOOD_EARTH])
        evil += len(d[EVIL_EARTH])
    b_deck, k_deck = obs["decks"]
    left = min(
        b_deck["above_horseman"] / max(1, n + good), k_deck["above_horseman"] / max(1, n + evil)
    )
    return 1.0 if left < 1 else 1.0 / (1.0 + left)


def rows(view: DisplayView) -> Display:
    """The six rows of a display of the observation, not copied: :func:`.observed.display_rows`
    spelt out (a decision reads every display)."""
    good, evil = view["good"], view["evil"]
    return [
        good["heaven"], good["earth"], good["nether"], evil["heaven"], evil["earth"], evil["nether"]
    ]  # fmt: skip
