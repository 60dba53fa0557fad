"""Playing cards into displays (R-PLAY): populaces and deeds, Heaven, Netherworld, music.

``targets`` lists every legal place for a chosen card and use; ``explain`` turns a refused place
into the rule that forbids it, so the two never disagree about what is legal. Which card may go
where is :mod:`.roles`' table; when a row has room is here. :func:`places` and :func:`seal_places`
work on plain rows, so that the State (card ids) and an observation (codes, :mod:`.observed`)
get their places from the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from apokalypse.engine.events import Event

from . import knowledge
from .actions import Action
from .cards import EARTH, EVIL, GOOD, HEAVEN, NETHER, Card, Cards, Lookup
from .pending import ChooseGift, ChooseVictim
from .roles import (
    EVIL_HEAVEN,
    EVIL_NETHER,
    GOOD_HEAVEN,
    GOOD_NETHER,
    PLACES,
    REPLACE_ROWS,
    SEAL,
    USES,
    Role,
    Use,
)

if TYPE_CHECKING:
    from .state import State

__all__ = [
    "USES",
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


def _target(seat: int, side: int, plane: int = -1, pos: int = -1) -> Action:
    # The hot path builds many of these: skip NamedTuple's keyword handling.
    return _new_tuple(Action, ("target", "", "", seat, side, plane, pos))


_new_tuple = tuple.__new__


def open_uses(s: State) -> frozenset[str]:
    """One pass over the table: which (use, role group) have at least one legal place now.

    Keys: heaven-good, heaven-evil, nether-good, nether-evil (a card may be added or replaced
    there: ``OPEN_KEY``), neutralise-heaven, neutralise-nether (music lies in a row of that
    plane: ``MUSIC_KEY``); ``PLACES_NEEDED`` says which keys a play needs. Must agree with
    :func:`places`; a property test checks that it does."""
    is_music = s.table.music.__getitem__
    found: set[str] = set()
    for hg, eg, ng, he, ee, ne in s.rows:
        music_hg = sum(map(is_music, hg))
        music_ne = sum(map(is_music, ne))
        if len(hg) < len(eg) or music_hg < len(hg):
            found.add("heaven-good")
        if len(he) < len(ne):
            found.add("heaven-evil")
        if len(ng) < len(hg) and len(ng) < len(eg):
            found.add("nether-good")
        if len(ne) < len(ee) or music_ne < len(ne):
            found.add("nether-evil")
        if music_hg or any(map(is_music, he)):
            found.add("neutralise-heaven")
        if music_ne or any(map(is_music, ng)):
            found.add("neutralise-nether")
    return frozenset(found)


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


def plays(s: State, player: int) -> list[Action]:
    """First step of a turn: every (card, use) with at least one legal target."""
    from .attacks import targets as attack_targets

    hand = s.hands[player]
    kinds = s.table.kind
    seen: set[str] = set()
    out: list[Action] = []
    open_now: frozenset[str] | None = None
    for card in hand:
        kind = kinds[card]
        code = kind.code
        if code in seen:
            continue
        seen.add(code)
        role = kind.role
        for use in USES[role]:
            if use == "good":
                ok = len(hand) >= 2  # R-PLAY-4: a card left to give
            elif use == "evil":
                ok = True
            elif use == "attack":
                ok = bool(attack_targets(s, role))
            else:
                if open_now is None:
                    open_now = open_uses(s)
                ok = any(key in open_now for key in PLACES_NEEDED[role, use])
            if ok:
                out.append(_new_tuple(Action, ("play", code, use, -1, -1, -1, -1)))
    return out


def targets(s: State, code: str, use: Use) -> list[Action]:
    """Second step: every legal place for ``code`` played as ``use``."""
    return use_targets(s.rows, s.table, s.table.kinds_by_code[code].role, use)


def use_targets(
    displays: Sequence[Sequence[Sequence[Card]]], cards: Cards[Card], role: Role, use: Use
) -> list[Action]:
    """Every legal place for a ``role`` card played as ``use`` in ``displays`` (per seat, six
    rows ``side * 3 + plane``), the cards read through ``cards``."""
    if use in ("good", "evil"):
        side = GOOD if use == "good" else EVIL
        return [_target(q, side) for q in range(len(displays))]
    if use == "attack":
        from .attacks import attack_targets

        return [_target(q, sd) for q, sd in attack_targets(displays, cards, role)]
    return places(displays, cards.music, role, use)


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
                    out.append(_target(q, GOOD, HEAVEN))
                for i, c in enumerate(hg):  # R-PLAY-10: replace, never music
                    if not music[c]:
                        out.append(_target(q, GOOD, HEAVEN, i))
            if evil and len(he) < len(ne):  # R-PLAY-8, evil side
                out.append(_target(q, EVIL, HEAVEN))
    elif use == "nether":
        good, evil = SIDES[role, use]  # R-PLAY-13: Heavy Metal under evil populaces only
        for q, (hg, eg, ng, _he, ee, ne) in enumerate(displays):
            if good and len(ng) < len(hg) and len(ng) < len(eg):  # R-PLAY-12, good side
                out.append(_target(q, GOOD, NETHER))
            if evil:
                if len(ne) < len(ee):  # R-PLAY-12, evil side
                    out.append(_target(q, EVIL, NETHER))
                for i, c in enumerate(ne):  # R-PLAY-14: replace, never music
                    if not music[c]:
                        out.append(_target(q, EVIL, NETHER, i))
    elif use == "neutralise":  # R-PLAY-15: the other music, by the row it lies in
        neutralised = PLACES[role, use]
        for q, rows in enumerate(displays):
            for r in neutralised:
                for i, c in enumerate(rows[r]):
                    if music[c]:
                        out.append(_target(q, r // 3, r % 3, i))
    return out


def execute(s: State, player: int, code: str, use: str, action: Action) -> list[Event]:
    # A B card played as a populace goes face down: only its player sees which card it was.
    face_down = use in ("good", "evil") and s.table.kinds_by_code[code].back == "B"
    card = s.take_from_hand(player, code, frozenset({player}) if face_down else None)
    if face_down:
        s.laid_by[card] = player  # its player keeps seeing its front (R-INFO-2)
    q, side, plane, pos = action.seat, action.side, action.plane, action.pos
    args: dict[str, object]
    rows = s.rows[q]
    if use in ("good", "evil"):
        rows[side * 3 + EARTH].append(card)
        args = {"actor": player, "seat": q, "side": side}
        if s.table.kind[card].back == "B":  # played from its back: the front stays hidden
            events = [
                Event("populace", args, {"card": code}, frozenset({player})),
            ]
        else:
            events = [Event("person", {**args, "card": code})]
        return events + _deed(s, player, side)
    if use == "neutralise":
        row = rows[side * 3 + plane]
        old = row.pop(pos)  # R-PLAY-15: the outer cards move inward
        s.discard(old)
        s.discard(card)
        args = {"actor": player, "card": code, "seat": q, "side": side, "plane": plane}
        args["old"] = s.code(old)
        events = [Event("neutralise", args)]
        return events + s.end_turn(player)
    row = rows[side * 3 + plane]
    args = {
        "actor": player,
        "card": code,
        "seat": q,
        "side": side,
        "plane": plane,
    }
    if pos >= 0:  # R-PLAY-10 / R-PLAY-14
        old = row[pos]
        row[pos] = card
        s.discard(old)
        events = [Event("replace", {**args, "pos": pos, "old": s.code(old)})]
    else:
        row.append(card)
        events = [Event("place", {**args, "pos": len(row) - 1})]
    return events + s.end_turn(player)


def _deed(s: State, player: int, side: int) -> list[Event]:
    if side == GOOD:  # R-PLAY-4: the check_play guaranteed a card to give
        s.pending = ChooseGift(player)
        return []
    if any(s.hands[q] for q in range(s.n) if q != player):  # R-PLAY-5
        s.pending = ChooseVictim(player)
        return []
    return [Event("no-steal", {"actor": player}), *s.end_turn(player)]  # D-PLAY-1


def give(s: State, player: int, code: str, recipient: int) -> list[Event]:
    pair = frozenset({player, recipient})
    card = s.take_from_hand(player, code, pair)
    s.hands[recipient].append(card)
    knowledge.gained(s.knowledge[player], recipient, code)  # R-INFO-2: the giver knows
    back = s.table.kind[card].back
    event = Event(
        "gift",
        {"actor": player, "target": recipient, "back": back},
        {"card": code},
        pair,
    )
    return [event, *s.end_turn(player)]


def steal(s: State, player: int, victim: int) -> list[Event]:
    hand = s.hands[victim]
    card = hand.pop(s.rng.below(len(hand)))  # R-PLAY-5: a random card, no defence
    pair = frozenset({player, victim})
    s.lost(victim, card, pair)  # the thief and the victim see which card it was
    s.hands[player].append(card)
    code = s.code(card)
    knowledge.gained(s.knowledge[victim], player, code)  # R-INFO-2: the victim knows
    event = Event(
        "steal",
        {"actor": player, "target": victim, "back": s.table.kind[card].back},
        {"card": code},
        pair,
    )
    return [event, *s.end_turn(player)]


def seal_targets(s: State) -> list[Action]:
    """Where the seal being awarded may go: :func:`seal_places` of the State."""
    return seal_places(s.rows, s.table.music)


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
            out.append(_target(q, GOOD, HEAVEN))
        if len(ne) < len(ee):  # R-PLAY-12, as Heavy Metal (R-PLAY-13)
            out.append(_target(q, EVIL, NETHER))
        for r in PLACES[SEAL, "neutralise"]:
            replaceable = r in SEAL_REPLACES
            for i, c in enumerate(rows[r]):
                if replaceable or music[c]:
                    out.append(_target(q, r // 3, r % 3, i))
    return out
