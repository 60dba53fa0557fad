"""Violence and Ethos change with the out-of-turn defence window (R-ATTACK, R-PLAY-6, R-PLAY-17).

What defends against what and who is immune is :mod:`.roles`' table. :func:`immune_reason`,
:func:`attack_targets`, :func:`remove_outermost` and :func:`join` work on plain rows, so that the
State (card ids) and an observation (codes, :mod:`.observed`) share them.
"""

from __future__ import annotations

from collections.abc import Sequence

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event

from . import events as ev
from .actions import DECLINE, Action, code_action
from .board import Board
from .cards import EARTH, EVIL, GOOD, HEAVEN, NETHER, SIDE_NAMES, Card, Cards
from .config import Variant
from .pending import ChooseDestination, Defence
from .roles import DEFENDERS, IMMUNE, ROLES, Role, RuleId


def immune_reason(
    rows: Sequence[Sequence[Card]], side: int, cards: Cards[Card], role: Role
) -> RuleId | None:
    """Why the outermost populace of a side of the display ``rows`` cannot be attacked by a
    ``role`` card (None: it can)."""
    earth = rows[side * 3 + EARTH]
    if not earth:
        return "R-ATTACK-1"  # only basic populaces: never targets
    pos = len(earth) - 1
    music = cards.music
    heaven, nether = rows[side * 3 + HEAVEN], rows[side * 3 + NETHER]
    if (len(heaven) > pos and music[heaven[pos]]) or (len(nether) > pos and music[nether[pos]]):
        return "R-PLAY-17"
    immune = IMMUNE[role]  # R-PLAY-6: especially good and evil persons against Ethos change
    if immune and cards.role[earth[pos]] in immune:
        return "R-PLAY-6"
    return None


def attack_targets(
    displays: Sequence[Sequence[Sequence[Card]]], cards: Cards[Card], role: Role
) -> list[tuple[int, int]]:
    """R-ATTACK-1: (seat, side) pairs whose outermost populace an attack of ``role`` may hit."""
    return [
        (q, side)
        for q, rows in enumerate(displays)
        for side in (GOOD, EVIL)
        if immune_reason(rows, side, cards, role) is None
    ]


def targets(s: Board, role: Role) -> list[tuple[int, int]]:
    """:func:`attack_targets` of the State."""
    return attack_targets(s.displays, s.table, role)


def no_target_reason(s: Board, role: Role) -> tuple[str, str]:
    """The rule and the reason (none, music, persons, mixed) when an attack of ``role`` has no
    target at all (R-ATTACK-1).

    With no populace on any side, R-ATTACK-1 itself (basic populaces are never targets).
    Otherwise every outermost populace is shielded: by music (R-PLAY-17) or, against Ethos
    change, as an especially good or evil person (R-PLAY-6). One reason for all names its rule;
    mixed reasons name the rule that shields more of them (music on a tie), with a reason that
    names both shields."""
    reasons = [
        reason
        for rows in s.displays
        for side in (GOOD, EVIL)
        if (reason := immune_reason(rows, side, s.table, role)) not in (None, "R-ATTACK-1")
    ]
    if not reasons:
        return "R-ATTACK-1", "none"
    music, persons = reasons.count("R-PLAY-17"), reasons.count("R-PLAY-6")
    if not persons:
        return "R-PLAY-17", "music"
    if not music:
        return "R-PLAY-6", "persons"
    return ("R-PLAY-17" if music >= persons else "R-PLAY-6"), "mixed"


def explain_target(s: Board, role: Role, seat: int, side: int) -> None:
    rule = immune_reason(s.displays[seat], side, s.table, role) or "R-ATTACK-1"
    why = {
        "R-ATTACK-1": "has no populace but the basic one, which is never a target",
        "R-PLAY-17": "its outermost populace has music above or below it",
        "R-PLAY-6": "its outermost populace is an especially good/evil person, immune to Ethos"
        " change",
    }[rule]
    raise IllegalAction(
        rule,
        f"p{seat + 1}'s {SIDE_NAMES[side]} side cannot be attacked: {why}",
        key={
            "R-ATTACK-1": "attack.basic-only",
            "R-PLAY-17": "attack.music",
            "R-PLAY-6": "attack.immune",
        }[rule],
        params={"seat": seat, "side": side},
    )


def declare(s: Board, attacker: int, code: str, seat: int, side: int) -> list[Event]:
    card = s.take_from_hand(attacker, code)
    s.table_cards.append(card)
    told: ev.Attack = {"actor": attacker, "card": code, "seat": seat, "side": side}
    events = [Event("attack", told)]
    # R-ATTACK-4 / D-ATTACK-1: every other player is asked, clockwise from the attacker, even
    # one holding no defence card (who can only decline). Skipping them would leak hands: a
    # window that opens only when somebody can defend tells everyone that somebody can.
    order = tuple((attacker + i) % s.n for i in range(1, s.n))
    s.pending = Defence(order[0], attacker, card, seat, side, order[1:])
    return events


def defences(s: Board, p: Defence) -> list[Action]:
    wanted = DEFENDERS[s.table.kind[p.card].role]  # R-ATTACK-4
    kinds = s.table.kind
    codes = dict.fromkeys(kinds[c].code for c in s.hands[p.player] if kinds[c].role in wanted)
    return [DECLINE, *[code_action("defend", code) for code in codes]]


def answer(s: Board, p: Defence, action: Action) -> list[Event]:
    if action.verb == "decline":
        if p.waiting:
            s.pending = p._replace(player=p.waiting[0], waiting=p.waiting[1:])
            return []
        return _resolve(s, p.attacker, p.card, p.seat, p.side)
    if action.verb != "defend":
        raise IllegalAction(
            "R-ATTACK-4",
            "answer the attack with 'defend <card>' or 'decline'",
            key="defend.answer",
        )
    attack_role = s.table.kind[p.card].role
    kind = s.table.kinds_by_code.get(action.code)
    if kind is None or kind.role not in DEFENDERS[attack_role]:
        killing = ROLES[attack_role].attack == "kill"  # Violence (R-ATTACK-2)
        allowed = "Ethos change or music" if killing else "Violence or music"
        raise IllegalAction(
            "R-ATTACK-4",
            f"{action.code!r} does not defend; use {allowed}",
            key="defend.against-violence" if killing else "defend.against-ethos",
            params={"card": action.code},
        )
    if not s.holds(p.player, action.code):
        raise IllegalAction(
            "R-ATTACK-4",
            f"you hold no {action.code!r}",
            key="defend.not-held",
            params={"card": action.code},
        )
    card = s.take_from_hand(p.player, action.code)
    s.table_cards.remove(p.card)
    s.discard(p.card)  # R-ATTACK-4: attack and defence cards are discarded
    s.discard(card)
    told: ev.Defend = {"actor": p.player, "card": action.code, "attacker": p.attacker}
    event = Event("defend", told)
    return [event, *s.end_turn(p.attacker)]


# An attacked populace with its Heaven and Netherworld cards (None: no card at its position).
Bundle = tuple[Card, Card | None, Card | None]


def remove_outermost(rows: list[list[Card]], side: int) -> Bundle[Card]:
    """R-ATTACK-2/3: take the outermost populace of a side of the display ``rows`` with the
    Heaven and Netherworld cards at its position."""
    earth = rows[side * 3 + EARTH]
    pos = len(earth) - 1
    populace = earth.pop()
    heaven, nether = rows[side * 3 + HEAVEN], rows[side * 3 + NETHER]
    return (
        populace,
        heaven.pop() if len(heaven) > pos else None,
        nether.pop() if len(nether) > pos else None,
    )


def join(rows: list[list[Card]], side: int, bundle: Bundle[Card]) -> None:
    """R-ATTACK-3: a converted populace becomes the outermost populace of ``side`` of the display
    ``rows``; its Heaven and Netherworld cards go to the next free positions of those rows."""
    populace, heaven, nether = bundle
    rows[side * 3 + EARTH].append(populace)
    if heaven is not None:
        rows[side * 3 + HEAVEN].append(heaven)
    if nether is not None:
        rows[side * 3 + NETHER].append(nether)


def _resolve(s: Board, attacker: int, card: int, seat: int, side: int) -> list[Event]:
    role = s.table.kind[card].role
    if ROLES[role].attack == "convert":  # R-ATTACK-3: the attacker chooses the display
        s.pending = ChooseDestination(attacker, seat, side)
        return []
    s.table_cards.remove(card)
    s.discard(card)
    bundle = remove_outermost(s.own_display(seat), side)  # R-ATTACK-2
    s.discard(bundle[0], face_down=True)  # a B populace stays face down (D-INFO-1)
    for c in bundle[1:]:
        if c is not None:
            s.discard(c)
    told: ev.Killed = {"seat": seat, "side": side, "populace": _person(s, bundle[0])}
    event = Event("killed", told)
    return [event, *s.end_turn(attacker)]


def _person(s: Board, card: int) -> str:
    """A populace as others see it: B populaces lie face down; especially good/evil show."""
    kind = s.table.kind[card]
    return kind.code if kind.back == "K" else "populace"


def convert(s: Board, p: ChooseDestination, dest: int) -> list[Event]:
    """R-ATTACK-3: the bundle flips to the opposite side of the chosen display."""
    card = s.table_cards.pop()
    s.discard(card)
    bundle = remove_outermost(s.own_display(p.seat), p.side)
    populace, heaven, nether = bundle
    new_side = 1 - p.side
    rows = s.own_display(dest)
    join(rows, new_side, bundle)
    orphans = []
    if s.config.has(Variant.ETHOS_ORPHANS):
        hv, nw = rows[new_side * 3 + HEAVEN], rows[new_side * 3 + NETHER]
        if new_side == GOOD and nether is not None and len(nw) > len(hv):
            orphans.append(nw.pop())
        if new_side == EVIL and heaven is not None and len(hv) > len(nw):
            orphans.append(hv.pop())
        for c in orphans:
            s.discard(c)
    told: ev.Converted = {
        "actor": p.player,
        "seat": p.seat,
        "side": p.side,
        "dest": dest,
        "populace": _person(s, populace),
        "orphans": [s.code(c) for c in orphans],
    }
    event = Event("converted", told)
    return [event, *s.end_turn(p.player)]
