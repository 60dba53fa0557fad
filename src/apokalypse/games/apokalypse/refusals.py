"""Why a play is refused (R-PLAY, R-TURN-1): the rule a first step or a target breaks.

:mod:`.placement` lists what is legal; this module turns anything else into the specific rule, with
a key and parameters for the translated reason. The two never disagree: a refusal is only looked
for when an action is not in the legal list.
"""

from __future__ import annotations

from apokalypse.engine.errors import IllegalAction

from .actions import Action, format_place
from .attacks import explain_target, no_target_reason
from .attacks import targets as attack_targets
from .board import Board
from .cards import EARTH, GOOD, HEAVEN, NETHER, PLANE_NAMES
from .placement import OPEN_KEY, PLACES_NEEDED, open_uses
from .roles import PLACE_RULE, ROLES, USE_ROWS, USE_RULE, RoleRules, RuleId, Use, is_use

NO_ATTACK_TARGET = {  # why an attack has no target (attacks.no_target_reason)
    "none": "no outermost populace can be attacked now",
    "music": "every outermost populace has music above or below it",
    "persons": "every outermost populace is an especially good or evil person, immune to Ethos"
    " change",
    "mixed": "every outermost populace is shielded, by music above or below it or as an"
    " especially good or evil person against Ethos change",
}


def _kept_off(rules: RoleRules, rows: tuple[int, ...]) -> RuleId | None:
    """The rule of the card's own that keeps it off one of ``rows``, if one does."""
    return next((rules.kept_off[r] for r in rows if r in rules.kept_off), None)


def check_play(s: Board, player: int, code: str, use: str) -> None:
    """Raise the rule that forbids ``play code use``, if one does."""
    kind = s.table.kinds_by_code.get(code)
    if kind is None or kind.back not in ("B", "K"):
        raise IllegalAction(
            "R-TURN-1",
            f"there is no card {code!r} in this deck",
            key="play.unknown-card",
            params={"card": code},
        )
    if not s.holds(player, code):
        raise IllegalAction(
            "R-TURN-1",
            f"cards are played from hand, and you hold no {code!r}",
            key="play.not-held",
            params={"card": code},
        )
    rules = ROLES[kind.role]
    if not is_use(use) or use not in rules.uses:
        # the use's own rule, or the card's where it keeps the card off that use's rows
        # (R-PLAY-6 a person on the other side, R-PLAY-9 Church Music in the Netherworld)
        rule = _wrong_use(rules, use) if is_use(use) else "R-TURN-1"
        raise IllegalAction(
            rule,
            f"{code!r} cannot be played as {use!r}",
            key="play.wrong-use",
            params={"card": code, "use": use},
        )
    if use == "good" and len(s.hands[player]) < 2:
        raise IllegalAction(
            "R-PLAY-4",
            "a good populace needs another card in hand to give",
            key="play.good-needs-gift",
        )
    if use == "attack" and not attack_targets(s, kind.role):
        rule, reason = no_target_reason(s, kind.role)
        raise IllegalAction(
            rule,
            NO_ATTACK_TARGET[reason],
            key={
                "none": "attack.no-target",
                "music": "attack.all-music",
                "persons": "attack.all-persons",
                "mixed": "attack.all-shielded",
            }[reason],
        )
    if use not in PLACE_RULE:
        return
    open_now = open_uses(s)
    if open_now & set(PLACES_NEEDED[kind.role, use]):
        return
    # A row of the plane is open, but the card's own rule keeps it off that row.
    kept_off = _kept_off(rules, tuple(r for r in USE_ROWS[use] if OPEN_KEY[r] in open_now))
    if kept_off == "R-PLAY-9":
        raise IllegalAction(  # R-PLAY-9: Heaven is open, but only over evil populaces
            "R-PLAY-9",
            "Church Music goes over good populaces only, and no good Heaven place is open",
            key="play.church-no-good-place",
        )
    if kept_off == "R-PLAY-13":
        raise IllegalAction(  # R-PLAY-13: the Netherworld is open, but only under good populaces
            "R-PLAY-13",
            "Heavy Metal goes under evil populaces only, and no evil Netherworld place is open",
            key="play.metal-no-evil-place",
        )
    raise IllegalAction(
        PLACE_RULE[use],
        f"{code!r} has no legal place as {use!r} now",
        key="play.no-place",
        params={"card": code, "use": use},
    )


def _wrong_use(rules: RoleRules, use: Use) -> RuleId:
    return _kept_off(rules, USE_ROWS[use]) or USE_RULE[use]


def explain(s: Board, code: str, use: Use, action: Action) -> None:
    """Raise the specific rule a refused target breaks."""
    kind = s.table.kinds_by_code[code]
    rules = ROLES[kind.role]
    music = s.table.music
    place = format_place(action.seat, action.side, action.plane, action.pos)
    if use in ("good", "evil", "attack"):
        if action.plane not in (-1, EARTH) or action.pos >= 0:
            raise IllegalAction(
                "R-ATTACK-1" if use == "attack" else "R-PLAY-3",
                f"name a player and side only, like 'target p{action.seat + 1}.{use}'",
                key="target.player-and-side",
                # the example is notation, typed the same in every language
                params={"example": f"target p{action.seat + 1}.{use}"},
            )
        if use == "attack":
            explain_target(s, kind.role, action.seat, action.side)
        # the side the use names (R-PLAY-3), or a person's own side (R-PLAY-6)
        rule = _kept_off(rules, (action.side * 3 + EARTH,)) or "R-PLAY-3"
        raise IllegalAction(
            rule,
            f"'play {code} {use}' adds a populace on the {use} side only",
            key="play.populace-side",
            params={"card": code, "use": use, "side": use},
        )
    plane = action.plane
    wanted_plane = {"heaven": HEAVEN, "nether": NETHER}.get(use)
    if wanted_plane is not None and plane != wanted_plane:
        raise IllegalAction(
            USE_RULE[use],
            f"{code!r} as {use!r} goes to the {use} row",
            key="play.wrong-plane",
            params={"card": code, "use": use, "plane": wanted_plane},
        )
    rows = s.displays[action.seat]
    row = rows[action.side * 3 + max(plane, 0)]
    if use == "neutralise":
        # Dict literals: tests/test_i18n_refusals.py reads each raise's params from the source.
        if 0 <= action.pos < len(row) and music[row[action.pos]]:
            raise IllegalAction(  # R-PLAY-15: music is the music of its row
                "R-PLAY-15",
                f"{place}: music in the {PLANE_NAMES[plane]} row is the same music as {code!r};"
                " only the other music or a seal removes it",
                key="play.same-music",
                params={"card": code, "seat": action.seat, "side": action.side, "plane": plane,
                        "pos": action.pos},
            )  # fmt: skip
        raise IllegalAction(
            "R-PLAY-15",
            f"{place} is no music card that {code!r} neutralises",
            key="play.nothing-to-neutralise",
            params={"card": code, "seat": action.seat, "side": action.side, "plane": plane,
                    "pos": action.pos},
        )  # fmt: skip
    if action.pos >= 0:
        if action.pos >= len(row):
            raise IllegalAction(
                "R-PLAY-1",
                f"there is no card at {place}",
                key="play.no-card-at",
                params={
                    "seat": action.seat,
                    "side": action.side,
                    "plane": plane,
                    "pos": action.pos,
                },
            )
        if music[row[action.pos]]:
            raise IllegalAction(
                "R-PLAY-15",
                "displayed music cannot be replaced, only neutralised",
                key="play.music-not-replaced",
            )
        rule = "R-PLAY-10" if plane == HEAVEN else "R-PLAY-14"
        allowed = "good" if plane == HEAVEN else "evil"  # over good / under evil populaces
        raise IllegalAction(
            rule,
            f"only {PLANE_NAMES[plane]} cards on the {allowed} side may be replaced",
            key="play.replace-heaven" if plane == HEAVEN else "play.replace-nether",
            params={"seat": action.seat, "side": action.side, "plane": plane, "pos": action.pos},
        )
    kept_off = _kept_off(rules, (action.side * 3 + plane,))
    if plane == HEAVEN:
        if kept_off == "R-PLAY-9":  # Church Music over good populaces only
            raise IllegalAction(
                "R-PLAY-9", "Church Music goes on the good side only", key="play.church-good-only"
            )
        if action.side == GOOD:
            raise IllegalAction(
                "R-PLAY-8",
                f"{place}: no good populace without a Heaven card",
                key="play.good-heaven-needs-populace",
                params={
                    "seat": action.seat,
                    "side": action.side,
                    "plane": plane,
                    "pos": action.pos,
                },
            )
        raise IllegalAction(
            "R-PLAY-8",
            f"{place}: evil Heaven needs a Netherworld card below",
            key="play.evil-heaven-needs-nether",
            params={"seat": action.seat, "side": action.side, "plane": plane, "pos": action.pos},
        )
    if kept_off == "R-PLAY-13":  # Heavy Metal under evil populaces only
        raise IllegalAction(
            "R-PLAY-13", "Heavy Metal goes on the evil side only", key="play.metal-evil-only"
        )
    if action.side == GOOD:
        raise IllegalAction(
            "R-PLAY-12",
            f"{place}: good Netherworld needs a Heaven card above",
            key="play.good-nether-needs-heaven",
            params={"seat": action.seat, "side": action.side, "plane": plane, "pos": action.pos},
        )
    raise IllegalAction(
        "R-PLAY-12",
        f"{place}: no evil populace without a Netherworld card",
        key="play.evil-nether-needs-populace",
        params={"seat": action.seat, "side": action.side, "plane": plane, "pos": action.pos},
    )
