"""What a bot can work out from an observation: card facts, displays as code lists, how many
populaces the coming horsemen would kill, and what a play would change.

This re-derives a few rules (placement limits, horseman losses) from the public displays instead
of asking the engine, because a bot only sees observation dicts. The engine stays the judge: the
bot always picks from the legal actions, so a slip here costs play strength, never legality.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from apokalypse.games.apokalypse import Action
from apokalypse.games.apokalypse.cards import (
    CHURCH,
    EARTH,
    ETHOS_CHANGE,
    EVIL,
    FIEND,
    GOOD,
    HEAVEN,
    HELMET,
    MASK,
    METAL,
    MUSIC_ROLES,
    NETHER,
    PIG,
    PLANE_NAMES,
    SAINT,
    SEAL,
    SIDE_NAMES,
    CardKind,
    card_table,
    default_deck_text,
)
from apokalypse.games.apokalypse.horsemen import deaths

# display[side][plane] -> card codes, packed from position 0 outward (as in the observation).
Display = list[list[list[str]]]
LAST = 4


class Fact(NamedTuple):
    role: str
    icons: tuple[int, int]
    modifier: tuple[tuple[int, int], tuple[int, int]]


NO_FACT = Fact("", (0, 0), ((0, 0), (0, 0)))


@lru_cache(maxsize=1)
def _facts() -> dict[str, Fact]:
    # The observation names cards by code only; the default deck says what each code is. A custom
    # deck's unknown codes read as blank cards (weaker play, still legal).
    kinds: dict[str, CardKind] = card_table(default_deck_text(), False).kinds_by_code
    return {code: Fact(k.role, k.icons, k.modifier) for code, k in kinds.items()}


def fact(code: str) -> Fact:
    return _facts().get(code, NO_FACT)


def is_music(code: str) -> bool:
    return fact(code).role in MUSIC_ROLES


def display_from_obs(view: dict[str, Any]) -> Display:
    return [[list(view[side][plane]) for plane in PLANE_NAMES] for side in SIDE_NAMES]


def copy_display(d: Display) -> Display:
    return [[row[:] for row in side] for side in d]


@lru_cache(maxsize=1)
def _shields() -> dict[str, tuple[tuple[int, int, int, int], tuple[int, int, int, int]]]:
    """Per code and side: (music, mask, helmet, pig) that the card shows there (R-COMP-2)."""
    out = {}
    for code, f in _facts().items():
        per_side = []
        for side in (GOOD, EVIL):
            if f.role in MUSIC_ROLES:
                per_side.append((1, 0, 0, 0))
            else:
                icons = f.icons[side]
                per_side.append((0, icons & MASK and 1, icons & HELMET and 1, icons & PIG and 1))
        out[code] = (per_side[0], per_side[1])
    return out


_BLANK = ((0, 0, 0, 0), (0, 0, 0, 0))


def protection(d: Display, side: int) -> list[int]:
    """[music, masks, helmets, pigs] visible on one side (only the shown half counts)."""
    shields = _shields()
    out = [0, 0, 0, 0]
    for plane in (HEAVEN, NETHER):
        for code in d[side][plane]:
            m, a, b, c = shields.get(code, _BLANK)[side]
            out[0] += m
            out[1] += a
            out[2] += b
            out[3] += c
    return out


def losses(d: Display, first: int, owned: frozenset[int]) -> list[int]:
    """Populaces each horseman from ``first`` to 4 would kill in this display as it is now
    (R-HORSE-1/2/4, D-HORSE-1); index 0 is horseman ``first``."""
    good_n, evil_n = len(d[GOOD][EARTH]), len(d[EVIL][EARTH])
    if not good_n and not evil_n:
        return [0] * (LAST + 1 - first)
    good, evil = protection(d, GOOD), protection(d, EVIL)
    return [sum(deaths(n, good_n, evil_n, good, evil, owned)) for n in range(first, LAST + 1)]


def income(d: Display) -> int:
    """Net Netherworld modifiers (extra cards per round) of a display (R-DEAL-1)."""
    total = 0
    for side in (GOOD, EVIL):
        earth = len(d[side][EARTH])
        for pos, code in enumerate(d[side][NETHER]):
            if pos < earth:
                b, k = fact(code).modifier[side]
                total += b + k
    return total


def immune(d: Display, side: int, role: str) -> bool:
    """Whether the outermost populace of a side cannot be attacked (R-ATTACK-1, R-PLAY-17/6)."""
    earth = d[side][EARTH]
    if not earth:
        return True
    pos = len(earth) - 1
    for plane in (HEAVEN, NETHER):
        row = d[side][plane]
        if len(row) > pos and is_music(row[pos]):
            return True
    return role == ETHOS_CHANGE and fact(earth[pos]).role in (SAINT, FIEND)


def remove_outermost(d: Display, side: int) -> tuple[str, str | None, str | None]:
    earth = d[side][EARTH]
    pos = len(earth) - 1
    populace = earth.pop()
    taken: list[str | None] = []
    for plane in (HEAVEN, NETHER):
        row = d[side][plane]
        taken.append(row.pop() if len(row) > pos else None)
    return populace, taken[0], taken[1]


def place_targets(displays: list[Display], code: str, use: str, seat: int) -> list[Action]:
    """Plausible Heaven/Netherworld/neutralise places in ``seat``'s display (R-PLAY-8…15)."""
    role = fact(code).role
    d = displays[seat]
    (hg, eg, ng), (he, ee, ne) = d
    out: list[Action] = []

    def at(side: int, plane: int, pos: int = -1) -> None:
        out.append(Action("target", seat=seat, side=side, plane=plane, pos=pos))

    if use == "heaven":
        if len(hg) < len(eg):
            at(GOOD, HEAVEN)
        for i, c in enumerate(hg):
            if not is_music(c):
                at(GOOD, HEAVEN, i)
        if role not in (CHURCH, SEAL) and len(he) < len(ne):
            at(EVIL, HEAVEN)
    elif use == "nether":
        if role != METAL and len(ng) < min(len(hg), len(eg)):
            at(GOOD, NETHER)
        if len(ne) < len(ee):
            at(EVIL, NETHER)
        for i, c in enumerate(ne):
            if not is_music(c):
                at(EVIL, NETHER, i)
    elif use == "neutralise":
        wanted = {METAL: (CHURCH, SEAL), CHURCH: (METAL, SEAL)}.get(role, ())
        for side in (GOOD, EVIL):
            for plane in (HEAVEN, NETHER):
                for i, c in enumerate(d[side][plane]):
                    if fact(c).role in wanted:
                        at(side, plane, i)
    return out


def urgency(obs: dict[str, Any], displays: list[Display]) -> float:
    """How likely the next horseman rides at the end of this round (1.0: it surely does).

    Each round deals about one card per populace plus one per basic populace from each deck;
    the observation says how many cards lie above the next horseman (R-INFO-1)."""
    n = len(displays)
    good = sum(len(d[GOOD][EARTH]) for d in displays)
    evil = sum(len(d[EVIL][EARTH]) for d in displays)
    rounds = []
    for deck, per_round in zip(obs["decks"], (n + good, n + evil), strict=True):
        rounds.append(deck["above_horseman"] / max(1, per_round))
    left = min(rounds)
    return 1.0 if left < 1 else 1.0 / (1.0 + left)
