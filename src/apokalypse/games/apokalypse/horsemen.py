"""The horsemen (R-HORSE), the reckoning, and the rewards after it (R-REWARD)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from apokalypse.engine.events import Event

from . import dealing
from . import events as ev
from .actions import Action
from .board import Board
from .cards import (
    EARTH,
    EVIL,
    GOOD,
    HEAVEN,
    HELMET,
    ICON_OF_HORSEMAN,
    MASK,
    NETHER,
    PIG,
    SEAL,
    Card,
    Lookup,
    Protection,
)
from .pending import GameOver, PlaceSeal
from .placement import seal_targets

LAST_HORSEMAN = 4
MAX_SHARED_REWARD = 3  # R-REWARD-1/2: two or three tied each receive one; more, nobody


def protection(
    rows: Sequence[Sequence[Card]],
    side: int,
    protects: Lookup[Card, tuple[Protection, Protection]],
) -> Protection:
    """(music, masks, helmets, pigs) on one side of the display ``rows``, Heaven and Netherworld
    (R-HORSE-1, R-HORSE-2): what each card there counts for on that side, music whole and icons
    of the visible half only (``protects[card][side]``, :func:`.cards.card_protection`). The
    reckoning counts a display's cards with it, the forecast and the computer players an
    observation's codes."""
    music = masks = helmets = pigs = 0
    for card in (*rows[side * 3 + HEAVEN], *rows[side * 3 + NETHER]):
        m, a, h, p = protects[card][side]
        music += m
        masks += a
        helmets += h
        pigs += p
    return music, masks, helmets, pigs


def side_protection(s: Board, seat: int, side: int) -> Protection:
    """(music, masks, helmets, pigs) visible on one side of a display, Heaven and Netherworld."""
    return protection(s.displays[seat], side, s.table.protection)


def reckoning(s: Board, seat: int, number: int) -> tuple[SideReckoning, SideReckoning]:
    """How horseman ``number`` strikes a display: protection and deaths per side.

    Horsemen 1–3 (R-HORSE-1/2): one icon or one music card protects one populace; surplus
    passes from the good side to the evil side only. Horseman 4 (R-HORSE-4, D-HORSE-1): music
    first, then complete sets of the icons not covered by owned horseman cards; unused music and
    unused icons pass to the evil side."""
    rows = s.displays[seat]
    owned = frozenset(s.table.kind[c].horseman for c in s.rewards[seat])
    return reckon(
        number,
        len(rows[GOOD * 3 + EARTH]),
        len(rows[EVIL * 3 + EARTH]),
        side_protection(s, seat, GOOD),
        side_protection(s, seat, EVIL),
        owned,
    )


def losses(s: Board, seat: int, number: int) -> tuple[int, int]:
    """How many good and evil populaces horseman ``number`` kills in a display."""
    good, evil = reckoning(s, seat, number)
    return good.dead, evil.dead


Shield = tuple[int, int, int, int] | list[int]  # (music, masks, helmets, pigs)


class SideReckoning(NamedTuple):
    """One side of a display against one horseman: what protects it and who dies.

    ``protection``: how many populaces the side can protect (horsemen 1–3: music plus that
    horseman's icons; horseman 4: music plus complete sets), the surplus passed from the good
    side included; ``passed`` is that surplus (evil side only, R-HORSE-2, D-HORSE-1)."""

    populaces: int
    protection: int
    passed: int
    dead: int


def reckon(
    number: int, good_n: int, evil_n: int, good: Shield, evil: Shield, owned: frozenset[int]
) -> tuple[SideReckoning, SideReckoning]:
    """The arithmetic of :func:`losses` on counts alone, so that everybody reasoning from public
    displays (the forecast, a computer player) uses the very same rule. ``owned``: horseman
    cards the player holds."""
    if number < LAST_HORSEMAN:  # R-HORSE-1/2
        index = (MASK, HELMET, PIG).index(ICON_OF_HORSEMAN[number]) + 1
        shield = good[0] + good[index]
        surplus = max(0, shield - good_n)
        own = evil[0] + evil[index]
        return (
            SideReckoning(good_n, shield, 0, max(0, good_n - shield)),
            SideReckoning(evil_n, own + surplus, surplus, max(0, evil_n - own - surplus)),
        )
    needed = [h for h in (1, 2, 3) if h not in owned]  # icon k sits at index k (R-HORSE-4)
    if not needed:  # all three horseman cards: complete protection
        return SideReckoning(good_n, good_n, 0, 0), SideReckoning(evil_n, evil_n, 0, 0)
    dead_good, left = _death_side(good_n, list(good), needed)
    carried = [e + g for e, g in zip(evil, left, strict=True)]
    dead_evil, _ = _death_side(evil_n, carried, needed)
    own = evil[0] + min(evil[i] for i in needed)
    total = carried[0] + min(carried[i] for i in needed)
    return (
        SideReckoning(good_n, good[0] + min(good[i] for i in needed), 0, dead_good),
        SideReckoning(evil_n, total, total - own, dead_evil),
    )


def deaths(
    number: int, good_n: int, evil_n: int, good: Shield, evil: Shield, owned: frozenset[int]
) -> tuple[int, int]:
    """How many good and evil populaces die: :func:`reckon`, counts only."""
    good_side, evil_side = reckon(number, good_n, evil_n, good, evil, owned)
    return good_side.dead, evil_side.dead


def _death_side(populaces: int, shield: list[int], needed: list[int]) -> tuple[int, list[int]]:
    """One side against horseman 4: returns deaths and the unused (music, icons…)."""
    by_music = min(populaces, shield[0])
    rest = populaces - by_music
    sets = min(shield[i] for i in needed)
    by_sets = min(rest, sets)
    left = shield[:]
    left[0] -= by_music
    for i in needed:
        left[i] -= by_sets
    return rest - by_sets, left


def ride(s: Board, drawn: list[int]) -> list[Event]:
    """R-DEAL-5: the horseman rides once, however many decks showed it."""
    number = s.horseman
    rode: ev.Ride = {"number": number}
    events: list[Event] = [Event("ride", rode)]
    killed = [0] * s.n
    dead_cards: list[int] = []
    for seat in range(s.n):
        sides = reckoning(s, seat, number)
        dead = (sides[0].dead, sides[1].dead)
        # Public (it follows from the displays): what protected each side, for the reckoning
        # panel. [populaces, protection, passed from the good side, dead]
        shelter: ev.Shelter = {"seat": seat, "good": list(sides[0]), "evil": list(sides[1])}
        events.append(Event("shelter", shelter))
        for side in (GOOD, EVIL):
            if dead[side]:
                rows = s.own_display(seat)
                earth = rows[side * 3 + EARTH]
                keep = len(earth) - dead[side]
                dead_cards += earth[keep:]  # R-HORSE-3: set beside the display
                del earth[keep:]
                for plane in (HEAVEN, NETHER):
                    row = rows[side * 3 + plane]
                    for card in row[keep:]:
                        s.discard(card)
                    del row[keep:]
        killed[seat] = dead[0] + dead[1]
        if killed[seat]:
            deaths: ev.Deaths = {"seat": seat, "good": dead[0], "evil": dead[1]}
            events.append(Event("deaths", deaths))
    scores = tuple(s.populaces(seat) - killed[seat] for seat in range(s.n))  # R-HORSE-5
    s.scores.append(scores)
    reckoned: ev.Reckoning = {"number": number, "scores": list(scores)}
    events.append(Event("reckoning", reckoned))
    for card in dead_cards:
        s.discard(card, face_down=True)  # a B populace stays face down (D-INFO-1)
    dealing.set_aside(s, number)
    if number < LAST_HORSEMAN:
        events += dealing.refill(s, number)
    events += _horseman_reward(s, number, scores)
    if number == LAST_HORSEMAN:  # R-END-1
        s.horseman = LAST_HORSEMAN + 1
        s.pending = GameOver()
        over: ev.GameOver = {}
        return [*events, Event("game-over", over)]
    s.horseman = number + 1
    return events + _seal_reward(s)


def _best(values: list[int] | tuple[int, ...]) -> list[int]:
    top = max(values)
    best = [seat for seat, v in enumerate(values) if v == top]
    return best if len(best) <= MAX_SHARED_REWARD else []


def _horseman_reward(s: Board, number: int, scores: tuple[int, ...]) -> list[Event]:
    """R-REWARD-1: this horseman's card to the best score of the reckoning."""
    events = []
    kinds = s.table.kind
    for seat in _best(scores):
        card = next(c for c in s.horse_supply if kinds[c].horseman == number)
        s.horse_supply.remove(card)
        s.own_rewards()[seat].append(card)
        told: ev.HorsemanCard = {"seat": seat, "number": number}
        events.append(Event("horseman-card", told))
    return events


def _seal_reward(s: Board) -> list[Event]:
    """R-REWARD-2 / D-REWARD-1: seals to the most populaces, clockwise from the startup player."""
    counts = [s.populaces(seat) for seat in range(s.n)]
    best = set(_best(counts))
    queue = tuple(q for q in ((s.startup + i) % s.n for i in range(s.n)) if q in best)
    told: ev.SealAward = {"seats": list(queue), "populaces": max(counts)}
    award = Event("seal-award", told)
    return [award, *_next_seal(s, queue)]


def _next_seal(s: Board, queue: tuple[int, ...]) -> list[Event]:
    events = []
    while queue:
        seat, queue = queue[0], queue[1:]
        if not s.seal_supply:
            none: ev.SealSeat = {"seat": seat}
            events.append(Event("seal-none", none))
            continue
        if seal_targets(s):
            s.pending = PlaceSeal(seat, queue)
            return events
        declined: ev.SealSeat = {"seat": seat}
        events.append(Event("seal-declined", declined))  # R-REWARD-3
    return events + dealing.new_round(s)


def place_seal(s: Board, p: PlaceSeal, action: Action) -> list[Event]:
    """R-REWARD-3: the seal is added as music, replaces a card that is not music (as hand music
    would, R-PLAY-10 / R-PLAY-14), or neutralises displayed music (R-PLAY-15); ``action`` is one
    of :func:`.placement.seal_targets`."""
    seal = s.seal_supply.pop()
    rows = s.own_display(action.seat)
    row = rows[action.side * 3 + action.plane]
    actor, seat, side, plane = p.player, action.seat, action.side, action.plane
    if action.pos >= 0 and s.table.music[row[action.pos]]:  # neutralise (R-PLAY-15)
        old = row.pop(action.pos)
        s.discard(old)
        s.discard(seal)
        neutralised: ev.SealNeutralise = {
            "actor": actor,
            "seat": seat,
            "side": side,
            "plane": plane,
            "old": s.code(old),
        }
        events = [Event("seal-neutralise", neutralised)]
    elif action.pos >= 0:  # in place of a card that is not music (R-PLAY-10, R-PLAY-14)
        old = row[action.pos]
        row[action.pos] = seal
        s.discard(old)
        # the same event as a replacement from hand, the seal as the new card
        replaced: ev.Replace = {
            "actor": actor,
            "card": s.code(seal),
            "seat": seat,
            "side": side,
            "plane": plane,
            "pos": action.pos,
            "old": s.code(old),
        }
        events = [Event("replace", replaced)]
    else:
        row.append(seal)
        placed: ev.SealPlace = {
            "actor": actor,
            "seat": seat,
            "side": side,
            "plane": plane,
            "pos": len(row) - 1,
        }
        events = [Event("seal-place", placed)]
    assert s.table.kind[seal].role == SEAL
    return events + _next_seal(s, p.waiting)
