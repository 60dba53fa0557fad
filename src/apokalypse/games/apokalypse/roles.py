"""What every card role may do, in one table: ``ROLES[role]``, one entry per role, a rule a line.

python-chess keeps how each piece moves in one table; OpenSpiel states a game's facts as data at
the top. Here the entry of a role says what a player may play it as, which rows it may go to (and
the rule that keeps it off the others), whether it is music, what it protects against the
horsemen, which music it removes, which attacks it fends off and which cannot hit it, each line
with the rule of ``docs/rules/apokalypse.md`` that says so. The rule modules (placement, attacks,
horsemen, refusals) and the rules help read the table and the lookups derived from it at the end
of this module; none of them names what a role may do.

The geometry of a display lives here too, because where a card may go is a row: two sides of
three planes, six rows indexed ``side * 3 + plane``.

>>> PLACES["metal", "nether"] == (EVIL_NETHER,), NEUTRALISED_BY[GOOD_HEAVEN]
(True, ('metal', 'seal'))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal, TypeGuard, get_args

# --- the display: two sides, three planes, six rows (R-PLAY-1, R-PLAY-2) -------------------------

GOOD, EVIL = 0, 1
HEAVEN, EARTH, NETHER = 0, 1, 2
SideName = Literal["good", "evil"]
PlaneName = Literal["heaven", "earth", "nether"]
SIDE_NAMES: tuple[SideName, SideName] = ("good", "evil")
PLANE_NAMES: tuple[PlaneName, PlaneName, PlaneName] = ("heaven", "earth", "nether")
Row = int  # side * 3 + plane: a display's rows[row]
GOOD_HEAVEN, GOOD_EARTH, GOOD_NETHER = GOOD * 3 + HEAVEN, GOOD * 3 + EARTH, GOOD * 3 + NETHER
EVIL_HEAVEN, EVIL_EARTH, EVIL_NETHER = EVIL * 3 + HEAVEN, EVIL * 3 + EARTH, EVIL * 3 + NETHER
HEAVEN_ROWS = (GOOD_HEAVEN, EVIL_HEAVEN)
EARTH_ROWS = (GOOD_EARTH, EVIL_EARTH)
NETHER_ROWS = (GOOD_NETHER, EVIL_NETHER)

# --- names: roles, uses, rule ids (a typo in one fails the type check) --------------------------

Role = Literal[
    "protection",
    "metal",
    "dual",
    "icon",
    "saint",
    "fiend",
    "church",
    "violence",
    "ethos-change",
    "seal",
    "horseman",
]
PROTECTION: Final = "protection"  # B front, Heaven plane
METAL: Final = "metal"  # B front, Heavy Metal, Netherworld evil side
DUAL: Final = "dual"  # K Netherworld: a good half and an evil half with modifiers
ICON: Final = "icon"  # K Netherworld: one icon printed on both halves
SAINT: Final = "saint"  # K Earthly: an especially good person
FIEND: Final = "fiend"  # K Earthly: an especially evil person
CHURCH: Final = "church"  # K Heaven, Church Music, good side only
VIOLENCE: Final = "violence"  # K neutral
ETHOS_CHANGE: Final = "ethos-change"  # K neutral
SEAL: Final = "seal"  # Church Music and Heavy Metal at once (R-COMP-5)
HORSEMAN: Final = "horseman"

# What a card is played as (the notation's ``play CARD USE``).
Use = Literal["good", "evil", "heaven", "nether", "attack", "neutralise"]
RuleId = str  # an id of docs/rules/apokalypse.md, "R-PLAY-8"
Protects = Literal["", "icons", "music"]
AttackEffect = Literal["", "kill", "convert"]

# --- what each use does, whatever the card -------------------------------------------------------

# The rows a use reaches; a role's entry may keep a card off some of them.
USE_ROWS: dict[Use, tuple[Row, ...]] = {
    "good": (GOOD_EARTH,),  # R-PLAY-3: a new populace on the side the player names
    "evil": (EVIL_EARTH,),  # R-PLAY-3
    "heaven": HEAVEN_ROWS,  # R-PLAY-7
    "nether": NETHER_ROWS,  # R-PLAY-11
    "attack": EARTH_ROWS,  # R-ATTACK-1: the outermost populace of a side
    "neutralise": (),  # R-PLAY-15: the rows of the role's ``neutralises``
}
# The rule that says which cards a use takes: named when a card is played as a use it lacks.
USE_RULE: dict[Use, RuleId] = {
    "good": "R-PLAY-3",
    "evil": "R-PLAY-3",
    "heaven": "R-PLAY-7",
    "nether": "R-PLAY-11",
    "attack": "R-ATTACK-1",
    "neutralise": "R-PLAY-15",
}
# The rule that says where a use goes: named when a card has no place at all.
PLACE_RULE: dict[Use, RuleId] = {
    "heaven": "R-PLAY-8",
    "nether": "R-PLAY-12",
    "neutralise": "R-PLAY-15",
}
# Where a card that may go to a row also replaces a card there that is not music.
REPLACE_ROWS = (GOOD_HEAVEN, EVIL_NETHER)  # R-PLAY-10 over good, R-PLAY-14 under evil populaces


@dataclass(frozen=True, slots=True)
class RoleRules:
    """Everything a card of one role may do. Defaults: it may do nothing of the kind."""

    deck: str  # the back it has: "B", "K", "seal" or "horseman"
    uses: tuple[Use, ...] = ()  # what a player may play it as from hand (R-TURN-1)
    # Rows its uses reach that it may not go to, with the rule that keeps it off (a refusal names
    # it); its places are its uses' rows less these (PLACES).
    kept_off: Mapping[Row, RuleId] = field(default_factory=dict)
    played_like: tuple[Role, ...] = ()  # not from hand: it has the places of these roles
    music: bool = False  # music: removed only by neutralising, and shields its populace
    protects: Protects = ""  # what it counts for against the horsemen
    neutralises: tuple[Row, ...] = ()  # the rows whose music it removes
    defends: tuple[Role, ...] = ()  # the attacks it fends off, played out of turn
    immune_to: tuple[Role, ...] = ()  # the attacks that cannot hit it as an outermost populace
    attack: AttackEffect = ""  # what it does to the populace it hits
    fewer_with_few_players: int = 0  # copies leaving 2–3 player games besides the asterisks


ROLES: dict[Role, RoleRules] = {
    PROTECTION: RoleRules(
        deck="B",  # R-COMP-1
        uses=("good", "evil", "heaven"),  # R-PLAY-3 its back as a populace, R-PLAY-7 its front
        protects="icons",  # R-COMP-2: the icons of the half its side shows
    ),
    METAL: RoleRules(
        deck="B",  # R-COMP-1
        uses=("good", "evil", "nether", "neutralise"),  # R-PLAY-3, R-PLAY-11, R-PLAY-15
        kept_off={GOOD_NETHER: "R-PLAY-13"},  # under evil populaces only
        music=True,  # R-PLAY-15: never replaced (R-PLAY-14); R-PLAY-17: shields its populace
        protects="music",  # R-HORSE-2: one populace against any horseman (R-HORSE-4)
        neutralises=HEAVEN_ROWS,  # R-PLAY-15: music in Heaven is Church Music
        defends=(VIOLENCE, ETHOS_CHANGE),  # R-ATTACK-4: music defends any attack
        fewer_with_few_players=2,  # R-SETUP-1
    ),
    DUAL: RoleRules(
        deck="K",  # R-COMP-3, R-COMP-4: a good and an evil half, each with its modifier
        uses=("nether",),  # R-PLAY-11, on either side, showing that side's half (R-PLAY-13)
    ),
    ICON: RoleRules(
        deck="K",  # R-COMP-3
        uses=("nether",),  # R-PLAY-11, on either side (R-PLAY-13)
        protects="icons",  # R-COMP-4: the same icon on both halves
    ),
    SAINT: RoleRules(
        deck="K",  # R-COMP-3: an especially good person
        uses=("good",),  # R-PLAY-6: a populace on its own side only
        kept_off={EVIL_EARTH: "R-PLAY-6"},
        immune_to=(ETHOS_CHANGE,),  # R-PLAY-6
    ),
    FIEND: RoleRules(
        deck="K",  # R-COMP-3: an especially evil person
        uses=("evil",),  # R-PLAY-6: a populace on its own side only
        kept_off={GOOD_EARTH: "R-PLAY-6"},
        immune_to=(ETHOS_CHANGE,),  # R-PLAY-6
    ),
    CHURCH: RoleRules(
        deck="K",  # R-COMP-3
        uses=("heaven", "neutralise"),  # R-PLAY-7, R-PLAY-15
        # R-PLAY-9: into Heaven over good populaces only
        kept_off={EVIL_HEAVEN: "R-PLAY-9", GOOD_NETHER: "R-PLAY-9", EVIL_NETHER: "R-PLAY-9"},
        music=True,  # R-PLAY-15: never exchanged (R-PLAY-10); R-PLAY-17: shields its populace
        protects="music",  # R-HORSE-1: one populace against any horseman (R-HORSE-4)
        neutralises=NETHER_ROWS,  # R-PLAY-15: music in the Netherworld is Heavy Metal
        defends=(VIOLENCE, ETHOS_CHANGE),  # R-ATTACK-4: music defends any attack
        fewer_with_few_players=2,  # R-SETUP-1
    ),
    VIOLENCE: RoleRules(
        deck="K",  # R-COMP-3
        uses=("attack",),  # R-ATTACK-1: never laid into a display
        attack="kill",  # R-ATTACK-2
        defends=(ETHOS_CHANGE,),  # R-ATTACK-4
    ),
    ETHOS_CHANGE: RoleRules(
        deck="K",  # R-COMP-3
        uses=("attack",),  # R-ATTACK-1: never laid into a display
        attack="convert",  # R-ATTACK-3
        defends=(VIOLENCE,),  # R-ATTACK-4
    ),
    SEAL: RoleRules(
        deck="seal",  # R-COMP-5: a reward, never in a hand, so it never defends (R-ATTACK-4)
        played_like=(CHURCH, METAL),  # R-REWARD-3: good Heaven and the evil Netherworld
        music=True,  # R-PLAY-15: the music of the row it lies in; R-PLAY-17
        protects="music",  # R-HORSE-1, R-HORSE-2
        neutralises=(GOOD_HEAVEN, GOOD_NETHER, EVIL_HEAVEN, EVIL_NETHER),  # R-REWARD-3: any music
    ),
    HORSEMAN: RoleRules(deck="horseman"),  # R-SETUP-5: rides from the decks, never played
}

# --- lookups derived from the table, for the rule modules ----------------------------------------

ROLE_NAMES: frozenset[str] = frozenset(get_args(Role))
USE_NAMES: frozenset[str] = frozenset(get_args(Use))


def is_role(text: str) -> TypeGuard[Role]:
    return text in ROLE_NAMES


def is_use(text: str) -> TypeGuard[Use]:
    return text in USE_NAMES


USES: dict[Role, tuple[Use, ...]] = {role: rules.uses for role, rules in ROLES.items()}
ROLES_BY_DECK: dict[str, tuple[Role, ...]] = {
    deck: tuple(role for role, rules in ROLES.items() if rules.deck == deck) for deck in ("B", "K")
}


def _places(role: Role) -> dict[Use, tuple[Row, ...]]:
    rules = ROLES[role]
    out: dict[Use, tuple[Row, ...]] = {}
    for like in rules.played_like:  # as that music from hand: to Heaven, to the Netherworld
        for use, rows in _places(like).items():
            if use in ("heaven", "nether"):
                out[use] = out.get(use, ()) + rows
    for use in rules.uses:
        out[use] = tuple(row for row in USE_ROWS[use] if row not in rules.kept_off)
    if rules.neutralises:
        out["neutralise"] = rules.neutralises
    return out


# PLACES[role, use]: the rows a card of ``role`` played as ``use`` may go to (or, neutralising,
# take music from). A seal has the places of the roles it is played like.
PLACES: dict[tuple[Role, Use], tuple[Row, ...]] = {
    (role, use): rows for role in ROLES for use, rows in _places(role).items()
}
# The attacks a role fends off, turned round: which roles defend against an attack.
DEFENDERS: dict[Role, frozenset[Role]] = {
    attack: frozenset(role for role, rules in ROLES.items() if attack in rules.defends)
    for attack, attack_rules in ROLES.items()
    if attack_rules.attack
}
# Which populaces (by role) an attack cannot hit.
IMMUNE: dict[Role, frozenset[Role]] = {
    attack: frozenset(role for role, rules in ROLES.items() if attack in rules.immune_to)
    for attack in DEFENDERS
}
# Which roles remove the music lying in a row.
NEUTRALISED_BY: dict[Row, tuple[Role, ...]] = {
    row: tuple(role for role, rules in ROLES.items() if row in rules.neutralises)
    for row in (*HEAVEN_ROWS, *NETHER_ROWS)
}
