"""Playing cards into displays (R-PLAY): populaces and deeds, Heaven, Netherworld, music.

``targets`` lists every legal place for a chosen card and use; ``explain`` turns a refused place
into the rule that forbids it, so the two never disagree about what is legal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from apokalypse.engine.events import Event

from . import knowledge
from .actions import Action
from .cards import (
    CHURCH,
    DUAL,
    EARTH,
    ETHOS_CHANGE,
    EVIL,
    FIEND,
    GOOD,
    HEAVEN,
    ICON,
    METAL,
    NETHER,
    PROTECTION,
    SAINT,
    SEAL,
    VIOLENCE,
)
from .pending import ChooseGift, ChooseVictim

if TYPE_CHECKING:
    from .state import State

# Which uses each role allows, and the rule that says so.
USES: dict[str, tuple[str, ...]] = {
    PROTECTION: ("good", "evil", "heaven"),
    METAL: ("good", "evil", "nether", "neutralise"),
    DUAL: ("nether",),
    ICON: ("nether",),
    SAINT: ("good",),
    FIEND: ("evil",),
    CHURCH: ("heaven", "neutralise"),
    VIOLENCE: ("attack",),
    ETHOS_CHANGE: ("attack",),
}
# R-PLAY-15: displayed music is the music of the row it lies in (a seal in Heaven is Church Music,
# in the Netherworld Heavy Metal), and only the other music removes it. So each music clears the
# music of these rows (index side * 3 + plane): Heavy Metal the Heaven rows, Church Music the
# Netherworld rows, and a seal, which carries both (R-REWARD-3), any of them.
HEAVEN_ROWS = (GOOD * 3 + HEAVEN, EVIL * 3 + HEAVEN)
NETHER_ROWS = (GOOD * 3 + NETHER, EVIL * 3 + NETHER)
NEUTRALISES: dict[str, tuple[int, ...]] = {
    METAL: HEAVEN_ROWS,
    CHURCH: NETHER_ROWS,
    SEAL: tuple(sorted((*HEAVEN_ROWS, *NETHER_ROWS))),
}
# Where a seal may take the place of a card that is not music, as music from hand may (R-PLAY-10,
# R-PLAY-14): good Heaven and evil Netherworld.
SEAL_REPLACES = frozenset({GOOD * 3 + HEAVEN, EVIL * 3 + NETHER})


def _target(seat: int, side: int, plane: int = -1, pos: int = -1) -> Action:
    # The hot path builds many of these: skip NamedTuple's keyword handling.
    return _new_tuple(Action, ("target", "", "", seat, side, plane, pos))


_new_tuple = tuple.__new__


def open_uses(s: State) -> frozenset[str]:
    """One pass over the table: which (use, role group) have at least one legal place now.

    Keys: heaven-good, heaven-evil (protection only), nether-good (Netherworld K cards only),
    nether-evil, neutralise-heaven (music in a Heaven row: what Heavy Metal hits),
    neutralise-nether (music in a Netherworld row: what Church Music hits). Must agree with
    :func:`_places`; a property test checks that it does."""
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


# For each (role, use): the keys of open_uses of which one must be present.
PLACES_NEEDED: dict[tuple[str, str], tuple[str, ...]] = {
    (PROTECTION, "heaven"): ("heaven-good", "heaven-evil"),
    (CHURCH, "heaven"): ("heaven-good",),
    (METAL, "nether"): ("nether-evil",),
    (DUAL, "nether"): ("nether-good", "nether-evil"),
    (ICON, "nether"): ("nether-good", "nether-evil"),
    (METAL, "neutralise"): ("neutralise-heaven",),
    (CHURCH, "neutralise"): ("neutralise-nether",),
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


def targets(s: State, code: str, use: str) -> list[Action]:
    """Second step: every legal place for ``code`` played as ``use``."""
    kind = s.table.kinds_by_code[code]
    if use in ("good", "evil"):
        side = GOOD if use == "good" else EVIL
        return [_target(q, side) for q in range(s.n)]
    if use == "attack":
        from .attacks import targets as attack_targets

        return [_target(q, sd) for q, sd in attack_targets(s, kind.role)]
    return _places(s, kind.role, use)


def _places(s: State, role: str, use: str) -> list[Action]:
    """Heaven, Netherworld and neutralise places (``open_uses`` is the summary of this)."""
    out: list[Action] = []
    music = s.table.music
    for q, rows in enumerate(s.rows):
        hg, eg, ng, he, ee, ne = rows
        if use == "heaven":
            if len(hg) < len(eg):  # R-PLAY-8, good side
                out.append(_target(q, GOOD, HEAVEN))
            for i, c in enumerate(hg):  # R-PLAY-10: replace, never music
                if not music[c]:
                    out.append(_target(q, GOOD, HEAVEN, i))
            if role == PROTECTION and len(he) < len(ne):  # R-PLAY-8 evil side, R-PLAY-9
                out.append(_target(q, EVIL, HEAVEN))
        elif use == "nether":
            if role != METAL and len(ng) < len(hg) and len(ng) < len(eg):  # R-PLAY-12, R-PLAY-13
                out.append(_target(q, GOOD, NETHER))
            if len(ne) < len(ee):  # R-PLAY-12, evil side
                out.append(_target(q, EVIL, NETHER))
            for i, c in enumerate(ne):  # R-PLAY-14: replace, never music
                if not music[c]:
                    out.append(_target(q, EVIL, NETHER, i))
        else:  # neutralise (R-PLAY-15): the other music, by the row it lies in
            for r in NEUTRALISES[role]:
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
    """R-REWARD-3: a seal is played like the music cards (2009, VI.A.4.b), so it has every place
    that Church Music as 'heaven', Heavy Metal as 'nether' or either as 'neutralise' has:

    - added as Church Music over a good populace (R-PLAY-8, R-PLAY-9) or as Heavy Metal under
      an evil one (R-PLAY-12, R-PLAY-13);
    - in place of a card that is not music, in good Heaven (R-PLAY-10) or in the evil
      Netherworld (R-PLAY-14);
    - onto any displayed music, to neutralise it (R-PLAY-15): it carries both musics.

    A target with a position is a neutralisation when music lies there, else a replacement.
    The same places as ``_places`` for those three plays, in one pass."""
    out: list[Action] = []
    music = s.table.music
    for q, rows in enumerate(s.rows):
        hg, eg, _ng, _he, ee, ne = rows
        if len(hg) < len(eg):
            out.append(_target(q, GOOD, HEAVEN))
        if len(ne) < len(ee):
            out.append(_target(q, EVIL, NETHER))
        for r in NEUTRALISES[SEAL]:
            replaceable = r in SEAL_REPLACES
            for i, c in enumerate(rows[r]):
                if replaceable or music[c]:
                    out.append(_target(q, r // 3, r % 3, i))
    return out
