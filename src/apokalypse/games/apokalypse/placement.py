"""Playing cards into displays (R-PLAY): populaces and deeds, Heaven, Netherworld, music.

``targets`` lists every legal place for a chosen card and use; ``explain`` turns a refused place
into the rule that forbids it, so the two never disagree about what is legal. Which card may go
where is :mod:`.roles`' table; when a row has room is here. :func:`places` and :func:`seal_places`
work on plain rows, so that the State (card ids) and an observation (codes, :mod:`.observed`)
get their places from the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast, get_args

from apokalypse.engine.events import Event, seen_by

from . import events as ev
from .actions import Action, target_action
from .attacks import attack_targets
from .board import Board
from .cards import EARTH, EVIL, GOOD, HEAVEN, NETHER, Card, Cards, CardTable, Lookup
from .observation import Back
from .pending import choose_gift, choose_victim
from .roles import (
    EVIL_HEAVEN,
    EVIL_NETHER,
    GOOD_HEAVEN,
    GOOD_NETHER,
    IMMUNE,
    PLACES,
    REPLACE_ROWS,
    SEAL,
    USES,
    Role,
    Use,
)

__all__ = [
    "USES",
    "display_mark",
    "open_mask",
    "open_uses",
    "places",
    "plays",
    "seal_places",
    "seal_targets",
    "targets",
    "use_targets",
]

# For a Heaven or Netherworld use: whether the role may go to the good and to the evil row.
SIDES: dict[tuple[Role, Use], tuple[bool, bool]] = {
    (role, use): (GOOD * 3 + plane in rows, EVIL * 3 + plane in rows)
    for (role, use), rows in PLACES.items()
    for plane in {"heaven": (HEAVEN,), "nether": (NETHER,)}.get(use, ())
}
# A seal (R-REWARD-3): where it is added, and where it replaces a card that is not music.
SEAL_ROWS = (*PLACES[SEAL, "heaven"], *PLACES[SEAL, "nether"])
SEAL_REPLACES = frozenset(SEAL_ROWS) & frozenset(REPLACE_ROWS)


# --- what each display has room for, kept with the display ---------------------------------------
#
# A turn needs to know which uses have a place anywhere, and which attacks a target. Scanning
# every display for that at every turn was most of a playout's time, while a move changes one
# display at most. So the state keeps a summary per display, ``Board.display_marks[seat]``: the
# bits below, or -1 once the display may have changed. ``Board.own_display`` (the way every rule
# changes a display) and ``Board.own_displays`` (for code that may change any display) reset it;
# :func:`open_mask` recomputes the summaries that were reset and joins them.

_HG, _HE, _NG, _NE, _NH, _NN = 1, 2, 4, 8, 16, 32
KEY_BIT: dict[str, int] = {  # a place for a use (OPEN_KEY), music to neutralise (MUSIC_KEY)
    "heaven-good": _HG,
    "heaven-evil": _HE,
    "nether-good": _NG,
    "nether-evil": _NE,
    "neutralise-heaven": _NH,
    "neutralise-nether": _NN,
}
# An outermost populace that an attack of that role may hit (R-ATTACK-1).
ATTACK_BIT: dict[Role, int] = {role: 1 << (len(KEY_BIT) + i) for i, role in enumerate(IMMUNE)}
# Not of a display: the hand holds a card to give besides the one played (R-PLAY-4).
CAN_GIVE = 1 << (len(KEY_BIT) + len(ATTACK_BIT))


def display_mark(rows: Sequence[Sequence[int]], table: CardTable) -> int:
    """The summary of one display: the bits of ``KEY_BIT`` and ``ATTACK_BIT`` that hold there.
    Must agree with :func:`places` and :func:`.attacks.attack_targets`; a property test checks
    that it does."""
    music = table.music
    hg, eg, ng, he, ee, ne = rows
    mark = 0
    if len(hg) < len(eg):  # R-PLAY-8, good side
        mark |= _HG
    for c in hg:
        if music[c]:
            mark |= _NH  # R-PLAY-15: music in a Heaven row
        else:
            mark |= _HG  # R-PLAY-10: replace what is not music
    if len(he) < len(ne):  # R-PLAY-8, evil side
        mark |= _HE
    if len(ng) < len(hg) and len(ng) < len(eg):  # R-PLAY-12, good side
        mark |= _NG
    if len(ne) < len(ee):  # R-PLAY-12, evil side
        mark |= _NE
    for c in ne:
        if music[c]:
            mark |= _NN  # R-PLAY-15: music in a Netherworld row
        else:
            mark |= _NE  # R-PLAY-14: replace what is not music
    for c in he:
        if music[c]:
            mark |= _NH  # R-PLAY-15
    for c in ng:
        if music[c]:
            mark |= _NN  # R-PLAY-15
    # R-ATTACK-1: an outermost populace an attack may hit (attacks.immune_reason, per side)
    for earth, heaven, nether in ((eg, hg, ng), (ee, he, ne)):
        if not earth:  # R-ATTACK-1: only basic populaces, never targets
            continue
        pos = len(earth) - 1
        if (len(heaven) > pos and music[heaven[pos]]) or (len(nether) > pos and music[nether[pos]]):
            continue  # R-PLAY-17: shielded by music
        person = table.role[earth[pos]]
        for role, bit in ATTACK_BIT.items():
            if person not in IMMUNE[role]:  # R-PLAY-6: persons against Ethos change
                mark |= bit
    return mark


def open_mask(s: Board) -> int:
    """The summaries of all displays joined: which keys hold in some display."""
    marks = s.display_marks
    mask = 0
    for seat, mark in enumerate(marks):
        if mark < 0:
            mark = marks[seat] = display_mark(s.displays[seat], s.table)
        mask |= mark
    return mask


def open_uses(s: Board) -> frozenset[str]:
    """Which (use, role group) have at least one legal place now.

    Keys: heaven-good, heaven-evil, nether-good, nether-evil (a card may be added or replaced
    there: ``OPEN_KEY``), neutralise-heaven, neutralise-nether (music lies in a row of that
    plane: ``MUSIC_KEY``); ``PLACES_NEEDED`` says which keys a play needs."""
    mask = open_mask(s)
    return frozenset(key for key, bit in KEY_BIT.items() if mask & bit)


# The key of open_uses that says a row has a place: to add or replace a card there, or (a key of
# its own) music there to neutralise.
OPEN_KEY = {
    GOOD_HEAVEN: "heaven-good",
    EVIL_HEAVEN: "heaven-evil",
    GOOD_NETHER: "nether-good",
    EVIL_NETHER: "nether-evil",
}
MUSIC_KEY = {
    GOOD_HEAVEN: "neutralise-heaven",
    EVIL_HEAVEN: "neutralise-heaven",
    GOOD_NETHER: "neutralise-nether",
    EVIL_NETHER: "neutralise-nether",
}
# For each (role, use) placed in a row: the keys of open_uses of which one must be present.
PLACES_NEEDED: dict[tuple[Role, Use], tuple[str, ...]] = {
    (role, use): tuple(
        dict.fromkeys((MUSIC_KEY if use == "neutralise" else OPEN_KEY)[r] for r in rows)
    )
    for (role, use), rows in PLACES.items()
    if use in USES[role] and use in ("heaven", "nether", "neutralise")
}


def plays(s: Board, player: int) -> list[Action]:
    """First step of a turn: every (card, use) with at least one legal target, in the order of
    the hand (a code once, at its first copy) and of the role's uses.

    What the uses need is one mask (:func:`open_mask` and ``CAN_GIVE``); the actions of a code
    for a mask are worked out once and shared by every later turn (:func:`_play_actions`)."""
    hand = s.hands[player]
    table = s.table
    mask = open_mask(s)
    if len(hand) >= 2:  # R-PLAY-4: a card left to give
        mask |= CAN_GIVE
    out: list[Action] = []
    for code in dict.fromkeys(map(table.codes.__getitem__, hand)):
        role = table.kinds_by_code[code].role
        actions = _PLAY_ACTIONS.get((code, role, mask))
        if actions is None:
            actions = _play_actions(code, role, mask)
        out += actions
    return out


USE_BIT: dict[Use, int] = {use: 1 << i for i, use in enumerate(get_args(Use))}


class _Needs(NamedTuple):
    """What each use of a role needs to have a target: bits of ``USE_BIT`` and of the mask."""

    free: int  # always a target: an evil populace (R-PLAY-3, R-PLAY-5)
    good: int  # a good populace: needs a second card to give (R-PLAY-4)
    attack: int  # needs an attackable populace (R-ATTACK-1) …
    attack_bit: int  # … its bit of ATTACK_BIT
    places: tuple[tuple[int, int], ...]  # (use bit, KEY_BIT of PLACES_NEEDED: one must hold)


def _needs(role: Role) -> _Needs:
    uses = USES[role]
    return _Needs(
        USE_BIT["evil"] if "evil" in uses else 0,
        USE_BIT["good"] if "good" in uses else 0,
        USE_BIT["attack"] if "attack" in uses else 0,
        ATTACK_BIT.get(role, 0),
        tuple(
            (USE_BIT[use], sum(KEY_BIT[key] for key in PLACES_NEEDED[role, use]))
            for use in uses
            if use in ("heaven", "nether", "neutralise")
        ),
    )


NEEDS: dict[Role, _Needs] = {role: _needs(role) for role in USES}


def allowed_uses(role: Role, mask: int) -> int:
    """The uses of ``role`` that have a legal target under ``mask`` (:func:`plays`), as bits
    of ``USE_BIT``."""
    needs = NEEDS[role]
    uses = needs.free
    if mask & CAN_GIVE:  # R-PLAY-4: a card left to give
        uses |= needs.good
    if mask & needs.attack_bit:  # R-ATTACK-1
        uses |= needs.attack
    for bit, keys in needs.places:  # R-PLAY-8, R-PLAY-12, R-PLAY-15: a place open now
        if mask & keys:
            uses |= bit
    return uses


# The ``play CODE USE`` actions of a code, by (code, role, mask of plays): immutable values, so
# every turn shares them. A deck has a few dozen codes and a game meets a few dozen masks; the
# bound only matters to a process that loads very many deck files.
_PLAY_ACTIONS: dict[tuple[str, Role, int], tuple[Action, ...]] = {}
_MAX_PLAY_ACTIONS = 50_000


def _play_actions(code: str, role: Role, mask: int) -> tuple[Action, ...]:
    if len(_PLAY_ACTIONS) >= _MAX_PLAY_ACTIONS:
        _PLAY_ACTIONS.clear()
    uses = allowed_uses(role, mask)
    actions = _PLAY_ACTIONS[code, role, mask] = tuple(
        Action("play", code, use) for use in USES[role] if uses & USE_BIT[use]
    )
    return actions


def targets(s: Board, code: str, use: Use) -> list[Action]:
    """Second step: every legal place for ``code`` played as ``use``."""
    return use_targets(s.displays, s.table, s.table.kinds_by_code[code].role, use)


def use_targets(
    displays: Sequence[Sequence[Sequence[Card]]], cards: Cards[Card], role: Role, use: Use
) -> list[Action]:
    """Every legal place for a ``role`` card played as ``use`` in ``displays`` (per seat, six
    rows ``side * 3 + plane``), the cards read through ``cards``."""
    if use in ("good", "evil"):  # R-PLAY-3: a populace in any display
        return list(_populace_targets(len(displays), GOOD if use == "good" else EVIL))
    if use == "attack":
        return [target_action(q, sd) for q, sd in attack_targets(displays, cards, role)]
    return places(displays, cards.music, role, use)


_POPULACE_TARGETS: dict[tuple[int, int], tuple[Action, ...]] = {}


def _populace_targets(players: int, side: int) -> tuple[Action, ...]:
    """``target pN.SIDE`` for every seat: the same list at every populace played."""
    key = (players, side)
    targets = _POPULACE_TARGETS.get(key)
    if targets is None:
        targets = _POPULACE_TARGETS[key] = tuple(target_action(q, side) for q in range(players))
    return targets


def places(
    displays: Sequence[Sequence[Sequence[Card]]], music: Lookup[Card, bool], role: Role, use: Use
) -> list[Action]:
    """Heaven, Netherworld and neutralise places of a ``role`` card played as ``use`` in
    ``displays`` (per seat, six rows ``side * 3 + plane``; ``music[card]``: whether it is music).
    ``open_uses`` is the summary of this on a State."""
    out: list[Action] = []
    if use == "heaven":
        good, evil = SIDES[role, use]  # R-PLAY-9: Church Music over good populaces only
        for q, (hg, eg, _ng, he, _ee, ne) in enumerate(displays):
            if good:
                if len(hg) < len(eg):  # R-PLAY-8, good side
                    out.append(target_action(q, GOOD, HEAVEN))
                for i, c in enumerate(hg):  # R-PLAY-10: replace, never music
                    if not music[c]:
                        out.append(target_action(q, GOOD, HEAVEN, i))
            if evil and len(he) < len(ne):  # R-PLAY-8, evil side
                out.append(target_action(q, EVIL, HEAVEN))
    elif use == "nether":
        good, evil = SIDES[role, use]  # R-PLAY-13: Heavy Metal under evil populaces only
        for q, (hg, eg, ng, _he, ee, ne) in enumerate(displays):
            if good and len(ng) < len(hg) and len(ng) < len(eg):  # R-PLAY-12, good side
                out.append(target_action(q, GOOD, NETHER))
            if evil:
                if len(ne) < len(ee):  # R-PLAY-12, evil side
                    out.append(target_action(q, EVIL, NETHER))
                for i, c in enumerate(ne):  # R-PLAY-14: replace, never music
                    if not music[c]:
                        out.append(target_action(q, EVIL, NETHER, i))
    elif use == "neutralise":  # R-PLAY-15: the other music, by the row it lies in
        neutralised = PLACES[role, use]
        for q, rows in enumerate(displays):
            for r in neutralised:
                for i, c in enumerate(rows[r]):
                    if music[c]:
                        out.append(target_action(q, r // 3, r % 3, i))
    return out


def execute(s: Board, player: int, code: str, use: str, action: Action) -> list[Event]:
    # A B card played as a populace goes face down: only its player sees which card it was.
    face_down = use in ("good", "evil") and s.table.kinds_by_code[code].back == "B"
    card = s.take_from_hand(player, code, seen_by(player) if face_down else None, face_down)
    if face_down:
        s.laid_by[card] = player  # its player keeps seeing its front (R-INFO-2)
    q, side, plane, pos = action.seat, action.side, action.plane, action.pos
    rows = s.own_display(q)
    if use in ("good", "evil"):
        rows[side * 3 + EARTH].append(card)
        if s.table.kind[card].back == "B":  # played from its back: the front stays hidden
            populace: ev.Populace = {"actor": player, "seat": q, "side": side}
            events = [Event("populace", populace, {"card": code}, seen_by(player))]
        else:
            person: ev.Person = {"actor": player, "seat": q, "side": side, "card": code}
            events = [Event("person", person)]
        return events + _deed(s, player, side)
    row = rows[side * 3 + plane]
    if use == "neutralise":
        old = row.pop(pos)  # R-PLAY-15: the outer cards move inward
        s.discard(old)
        s.discard(card)
        neutralised: ev.Neutralise = {
            "actor": player,
            "card": code,
            "seat": q,
            "side": side,
            "plane": plane,
            "old": s.code(old),
        }
        return [Event("neutralise", neutralised), *s.end_turn(player)]
    if pos >= 0:  # R-PLAY-10 / R-PLAY-14
        old = row[pos]
        row[pos] = card
        s.discard(old)
        replaced: ev.Replace = {
            "actor": player,
            "card": code,
            "seat": q,
            "side": side,
            "plane": plane,
            "pos": pos,
            "old": s.code(old),
        }
        events = [Event("replace", replaced)]
    else:
        row.append(card)
        placed: ev.Place = {
            "actor": player,
            "card": code,
            "seat": q,
            "side": side,
            "plane": plane,
            "pos": len(row) - 1,
        }
        events = [Event("place", placed)]
    return events + s.end_turn(player)


def _deed(s: Board, player: int, side: int) -> list[Event]:
    if side == GOOD:  # R-PLAY-4: the check_play guaranteed a card to give
        s.pending = choose_gift(player)
        return []
    hands = s.hands
    if any(hands[:player]) or any(hands[player + 1 :]):  # R-PLAY-5: another hand holds cards
        s.pending = choose_victim(player)
        return []
    told: ev.NoSteal = {"actor": player}
    return [Event("no-steal", told), *s.end_turn(player)]  # D-PLAY-1


def give(s: Board, player: int, code: str, recipient: int) -> list[Event]:
    pair = seen_by(player, recipient)
    card = s.take_from_hand(player, code, pair)
    s.hands[recipient].append(card)
    s.saw_gained(player, recipient, code)  # R-INFO-2: the giver knows
    back = s.table.kind[card].back
    told: ev.Gift = {"actor": player, "target": recipient, "back": in_hand(back)}
    event = Event("gift", told, {"card": code}, pair)
    return [event, *s.end_turn(player)]


def steal(s: Board, player: int, victim: int) -> list[Event]:
    hand = s.hands[victim]
    card = hand.pop(s.rng.below(len(hand)))  # R-PLAY-5: a random card, no defence
    pair = seen_by(player, victim)
    s.lost(victim, card, pair)  # the thief and the victim see which card it was
    s.hands[player].append(card)
    code = s.code(card)
    s.saw_gained(victim, player, code)  # R-INFO-2: the victim knows
    told: ev.Steal = {"actor": player, "target": victim, "back": in_hand(s.table.kind[card].back)}
    event = Event("steal", told, {"card": code}, pair)
    return [event, *s.end_turn(player)]


def in_hand(back: str) -> Back:
    """The back of a card in a hand: B or K (seals and horsemen never reach a hand, R-DEAL)."""
    return cast(Back, back)


def seal_targets(s: Board) -> list[Action]:
    """Where the seal being awarded may go: :func:`seal_places` of the State."""
    return seal_places(s.displays, s.table.music)


def seal_places(
    displays: Sequence[Sequence[Sequence[Card]]], music: Lookup[Card, bool]
) -> list[Action]:
    """R-REWARD-3: a seal is played like the music cards (2009, VI.A.4.b), so it has every place
    that Church Music as 'heaven', Heavy Metal as 'nether' or either as 'neutralise' has:

    - added as Church Music over a good populace (R-PLAY-8, R-PLAY-9) or as Heavy Metal under
      an evil one (R-PLAY-12, R-PLAY-13);
    - in place of a card that is not music, in good Heaven (R-PLAY-10) or in the evil
      Netherworld (R-PLAY-14);
    - onto any displayed music, to neutralise it (R-PLAY-15): it carries both musics.

    A target with a position is a neutralisation when music lies there, else a replacement.
    The same places as :func:`places` for those three plays, in one pass (the seal's rows in
    the table, ``SEAL_ROWS``: good Heaven, the evil Netherworld)."""
    out: list[Action] = []
    for q, rows in enumerate(displays):
        hg, eg, _ng, _he, ee, ne = rows
        if len(hg) < len(eg):  # R-PLAY-8, as Church Music (R-PLAY-9)
            out.append(target_action(q, GOOD, HEAVEN))
        if len(ne) < len(ee):  # R-PLAY-12, as Heavy Metal (R-PLAY-13)
            out.append(target_action(q, EVIL, NETHER))
        for r in PLACES[SEAL, "neutralise"]:
            replaceable = r in SEAL_REPLACES
            for i, c in enumerate(rows[r]):
                if replaceable or music[c]:
                    out.append(target_action(q, r // 3, r % 3, i))
    return out
