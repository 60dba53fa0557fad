"""The forecast: what the next horseman (and Death) would do if it rode now, from public facts.

Computed from an observation, never from a State, so that every viewer (a person, the browser, a
computer player) gets the same answer from what they may see: displays, horseman cards owned,
deck counts, reckoning scores (R-INFO-1). The arithmetic is the rules' own
(:func:`.horsemen.reckon`), so the forecast and the reckoning can never disagree.

>>> from apokalypse.games.apokalypse import GAME, Config
>>> from apokalypse.games.apokalypse.cards import deck_kinds
>>> state = GAME.new_game(Config(players=3), seed=1)
>>> f = forecast(state.observation(None), deck_kinds(Config(players=3).deck_text))
>>> f.horseman, f.good_populaces, f.displays[0].next.good.dead
(1, 0, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Literal

from .cards import HORSEMAN_VP, ICON_OF_HORSEMAN, SIDE_NAMES, CardKind
from .ending import good_majority
from .horsemen import LAST_HORSEMAN, SideReckoning, reckon
from .observation import DisplayView, Observation
from .observed import display_rows, side_protection

# Who holds the majority that decides the end (R-END-4, R-END-5): "good" (more good populaces),
# "evil" (not more good than evil: a tie is evil's), and under V-GOOD-TIES, where a tie counts
# for the good, "good-tie" (as many good as evil) and "evil-more" (strictly more evil).
Lead = Literal["good", "evil", "good-tie", "evil-more"]


def lead(good: int, evil: int, good_ties: bool) -> Lead:
    """Who leads with ``good`` and ``evil`` populaces on the table, by the end's own rule
    (:func:`.ending.good_majority`)."""
    if not good_majority(good, evil, good_ties):
        return "evil-more" if good_ties else "evil"
    return "good-tie" if good == evil else "good"


@dataclass(frozen=True)
class SideForecast:
    """One side of a display: populaces, protection (surplus from the good side included),
    ``passed`` (that surplus), and which positions would die (outermost first)."""

    populaces: int
    protection: int
    passed: int
    dying: tuple[int, ...]
    dead: int  # len(dying): a field, not a property, so that the wire carries it


@dataclass(frozen=True)
class Strike:
    """A display against one horseman."""

    horseman: int
    good: SideForecast
    evil: SideForecast
    score: int  # the reckoning score it would give (R-HORSE-5)


@dataclass(frozen=True)
class DisplayForecast:
    seat: int
    next: Strike  # the next horseman
    death: Strike  # horseman 4 (Death), with the horseman cards owned now


@dataclass(frozen=True)
class Forecast:
    horseman: int  # the next horseman, 1–4 (its icon: ICON_OF_HORSEMAN)
    above: tuple[int, int]  # cards above the next horseman in the B and K decks
    displays: tuple[DisplayForecast, ...]
    good_populaces: int  # on the whole table: the end condition (R-END-3)
    evil_populaces: int
    lead: Lead  # who holds that majority now, by the game's variants
    totals: tuple[int, ...]  # running totals: reckonings + horseman cards (R-END-2)

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def shield(
    display: DisplayView, side: str, kinds: Mapping[str, CardKind]
) -> tuple[int, int, int, int]:
    """(music, masks, helmets, pigs) visible on one side of a display (R-HORSE-1, R-COMP-2),
    counted by the reckoning's own :func:`.horsemen.protection`."""
    return side_protection(display_rows(display), SIDE_NAMES.index(side), kinds)


def _side(r: SideReckoning) -> SideForecast:
    dying = tuple(range(r.populaces - 1, r.populaces - 1 - r.dead, -1))
    return SideForecast(r.populaces, r.protection, r.passed, dying, len(dying))


def strike(
    display: DisplayView, number: int, owned: Sequence[int], kinds: Mapping[str, CardKind]
) -> Strike:
    good_n, evil_n = len(display["good"]["earth"]), len(display["evil"]["earth"])
    shields = shield(display, "good", kinds), shield(display, "evil", kinds)
    sides = reckon(number, good_n, evil_n, *shields, frozenset(owned))
    good, evil = _side(sides[0]), _side(sides[1])
    dead = good.dead + evil.dead
    # R-HORSE-5: the survivors minus the dead
    return Strike(number, good, evil, good.populaces + evil.populaces - 2 * dead)


def forecast(obs: Observation, kinds: Mapping[str, CardKind], good_ties: bool = False) -> Forecast:
    """The forecast of an observation (any viewer's, or a spectator's): only public fields are
    read. ``kinds``: the game's cards by code (:func:`.cards.deck_kinds`); ``good_ties``: the
    game plays V-GOOD-TIES (a tie of populaces counts for the good)."""
    number = min(int(obs["horseman"]), LAST_HORSEMAN)
    owned: list[list[int]] = obs["horseman_cards"]
    displays = tuple(
        DisplayForecast(
            q,
            strike(d, number, owned[q], kinds),
            strike(d, LAST_HORSEMAN, owned[q], kinds),
        )
        for q, d in enumerate(obs["displays"])
    )
    good = sum(len(d["good"]["earth"]) for d in obs["displays"])
    evil = sum(len(d["evil"]["earth"]) for d in obs["displays"])
    totals = tuple(
        sum(row[q] for row in obs["scores"]) + sum(HORSEMAN_VP[h] for h in owned[q])
        for q in range(obs["players"])
    )
    above = (obs["decks"][0]["above_horseman"], obs["decks"][1]["above_horseman"])
    return Forecast(number, above, displays, good, evil, lead(good, evil, good_ties), totals)


__all__ = [
    "ICON_OF_HORSEMAN",
    "DisplayForecast",
    "Forecast",
    "Lead",
    "SideForecast",
    "Strike",
    "forecast",
    "lead",
]
