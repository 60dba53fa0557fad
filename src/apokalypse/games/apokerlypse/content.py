"""Card effects and faction abilities as content (KD-SETUP-1).

The rulebook says every card carries an effect and every faction an ability, but prints none of
them. The engine therefore reads them from a TOML content file: ``data/standard.toml`` (the
default: the project's own design, 52 cards with an effect each and four faction abilities,
balanced in the lab), ``data/plain.toml`` (the plain game without effects),
``data/example.toml`` (a short example exercising the effect kinds), or the text of a designer's
own file. A file is parsed and checked once; every error
names the entry and the field. The *limits* on effects (K-SCORE-4/6: one structure change and one
multiplier per player, blocks never hit faction abilities) are the engine's, not the content's.

Entries::

    [card.7h]                   # any card code: 2–9, T, J, Q, K, A + s, h, d, c
    timing = "draw"             # draw | discard | final | any
    kind = "gain"               # see KINDS
    amount = 2                  # the kind's parameters
    name = "Hidden cache"       # optional label for humans
    name_de = "Geheimvorrat"    # optional German label (``name`` where it is missing)

    [faction.military]          # military (♠), civilians (♥), plunderers (♦), zombies (♣)
    name = "Military"           # optional label
    name_de = "Militär"         # optional German label
    action_chips = [1, 2, 2]    # with 2, 3 and 4 players (K-SETUP-2)
    ability = { timing = "any", kind = "take" }
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Literal, TypeGuard, cast, get_args

from apokalypse.engine.datafile import read_toml
from apokalypse.engine.errors import DataFileError
from apokalypse.engine.text import shown

from .cards import CODES, FACTIONS, RANKS, SUITS, parse_card, parse_rank, parse_suit

if TYPE_CHECKING:  # the events' types import this module's
    from .events import EffectParams

Timing = Literal["draw", "discard", "final", "any"]
Who = Literal["self", "others", "all", "one"]
TIMINGS: tuple[Timing, ...] = get_args(Timing)
WHO: tuple[Who, ...] = get_args(Who)
StructureKind = Literal["category-up", "set-suit", "set-rank"]  # K-SCORE-4
EffectKind = Literal[
    StructureKind,
    "multiplier",
    "counts-double",
    "block",
    "gain",
    "lose",
    "take",
    "give",
    "swap",
    "peek",
    "hand-limit",
    "steal",
    "shield",
    "skim",
    "ante",
    "squeeze",
    "draw",
]

# kind → {parameter: (type, low, high, default)}; default None means required.
_INT = "int"
_Spec = tuple[str, int, int, int | str | None]
KINDS: dict[EffectKind, dict[str, _Spec]] = {
    "category-up": {"steps": (_INT, 1, 9, 1)},
    "set-suit": {"to": ("suit", 0, 0, None)},
    "set-rank": {"to": ("rank", 0, 0, None)},
    "multiplier": {"factor": (_INT, 2, 10, None)},
    "counts-double": {},
    "block": {},
    "gain": {"amount": (_INT, 1, 48, None), "who": ("who", 0, 0, "self")},
    "lose": {"amount": (_INT, 1, 48, None), "who": ("who", 0, 0, "one")},
    "take": {"count": (_INT, 1, 5, 1)},
    "give": {"count": (_INT, 1, 5, 1)},
    "swap": {},
    "peek": {},
    "hand-limit": {"extra": (_INT, 1, 5, 1)},
    "steal": {"amount": (_INT, 1, 12, 1)},  # chips from one other player to the owner
    "shield": {},  # others' card effects pass the owner by for the rest of the round
    # KD-EFFECT-3: chips from the pot to the players named, and from them into the pot
    "skim": {"amount": (_INT, 1, 12, None), "who": ("who", 0, 0, "self")},
    "ante": {"amount": (_INT, 1, 12, None), "who": ("who", 0, 0, "others")},
    "squeeze": {"less": (_INT, 1, 2, 1)},  # KD-EFFECT-4: the other players' hand limit falls
    "draw": {"count": (_INT, 1, 3, 1)},  # KD-EFFECT-5: more cards from the draw pile
}
STRUCTURE_KINDS: frozenset[EffectKind] = frozenset(get_args(StructureKind))
CARD_ONLY_KINDS: frozenset[EffectKind] = frozenset(
    {"block", "set-suit", "set-rank", "counts-double"}
)  # need a card
ABILITY_TIMINGS: tuple[Timing, ...] = ("any", "final")  # K-SCORE-5: "any time unless stated"
ACTION_CHIPS_DEFAULT = (1, 2, 2)  # K-SETUP-2, for 2, 3 and 4 players
ACTION_CHIPS_TOTAL = 16  # K-SETUP-1
_MAX_CHIPS = ACTION_CHIPS_TOTAL // len(FACTIONS)  # so four factions never exceed the box
# "standard" is the first edition of the project's card texts, kept for the games played with it
# (records name their content); "standard-2" replaced its 15 effects that could not matter.
PACKAGED = ("standard-2", "standard", "plain", "example")
DEFAULT_CONTENT = "standard-2"  # KD-SETUP-1: the project's own card texts
# A content file is public text shown on screen and stored in every record; these bounds keep a
# hostile one (a record carries its content) from swamping the reader or the terminal. Every
# number a content file holds is bounded by KINDS or _MAX_CHIPS.
MAX_NAME_LENGTH = 60
# The labels an effect or a faction may carry: ``name`` (English, and the fallback) and one per
# further language of the catalogs (i18n/apokerlypse/<lang>.toml).
LABELS = ("name", "name_de")


@dataclass(frozen=True, slots=True)
class Effect:
    """One card effect or faction ability. ``to`` is a rank (set-rank) or suit (set-suit)."""

    kind: EffectKind
    timing: Timing
    amount: int = 0
    who: Who = "self"
    count: int = 1
    steps: int = 1
    factor: int = 1
    to: int = -1
    extra: int = 0
    less: int = 0
    name: str = ""
    name_de: str = ""  # the German label; readers fall back to ``name``

    @property
    def is_structure(self) -> bool:
        return self.kind in STRUCTURE_KINDS

    def params(self) -> EffectParams:
        """The kind's parameters as plain data (events and observations)."""
        out: dict[str, int | str] = {}
        for field in KINDS[self.kind]:
            value = getattr(self, field)
            if self.kind == "set-suit":
                value = SUITS[value]
            elif self.kind == "set-rank":
                value = RANKS[value]
            out[field] = value
        return cast("EffectParams", out)  # the keys of its kind (KINDS)


@dataclass(frozen=True, slots=True)
class Faction:
    name: str
    ability: Effect | None
    action_chips: tuple[int, int, int]  # with 2, 3, 4 players
    name_de: str = ""  # the German label; readers fall back to ``name``

    def chips_for(self, players: int) -> int:
        return self.action_chips[players - 2]


@dataclass(frozen=True, slots=True)
class Content:
    name: str
    effects: tuple[Effect | None, ...]  # effects[card]
    factions: tuple[Faction, ...]  # factions[suit]: ♠ military, ♥ civilians, ♦ …, ♣ …
    has_blocks: bool  # whether block windows open at all (public: the content is public)


def _param(entry: Mapping[str, object], field: str, spec: _Spec, where: str) -> int | Who:
    """The field's value, checked: an int, a suit or rank index, or a ``Who``."""
    kind, low, high, default = spec
    value = entry.get(field, default)
    if value is None:
        raise DataFileError(f"{where}: field '{field}' is missing")
    try:
        if kind == _INT:
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"must be a whole number {low}–{high}")
            return value
        if not isinstance(value, str):
            raise ValueError("must be text")
        if kind == "suit":
            return parse_suit(value)
        if kind == "rank":
            return parse_rank(value)
        for who in WHO:
            if value == who:
                return who
        raise ValueError(f"must be one of {', '.join(WHO)}")
    except ValueError as exc:
        raise DataFileError(f"{where}: field '{field}' {_clean(exc)}") from None


def _label(value: object, field: str, where: str) -> str:
    """A name shown to people: text without control characters or escape sequences, short."""
    if not isinstance(value, str) or len(value) > MAX_NAME_LENGTH or not value.isprintable():
        raise DataFileError(
            f"{where}: field '{field}' must be printable text of at most {MAX_NAME_LENGTH}"
            " characters"
        )
    return value


def _clean(exc: ValueError) -> str:
    text = str(exc)
    return text if text.startswith("must") else f"is wrong: {text}"


def is_kind(word: str) -> TypeGuard[EffectKind]:
    return word in KINDS


def is_structure(kind: EffectKind) -> TypeGuard[StructureKind]:
    return kind in STRUCTURE_KINDS


def parse_effect(entry: object, where: str, ability: bool = False) -> Effect:
    """One effect table, checked field by field."""
    if not isinstance(entry, dict):
        raise DataFileError(f"{where}: must be a table")
    timing = entry.get("timing")
    if timing is None:
        raise DataFileError(f"{where}: field 'timing' is missing")
    allowed = ABILITY_TIMINGS if ability else TIMINGS
    if not isinstance(timing, str) or timing not in allowed:
        raise DataFileError(f"{where}: field 'timing' must be one of {', '.join(allowed)}")
    kind = entry.get("kind")
    if kind is None:
        raise DataFileError(f"{where}: field 'kind' is missing")
    if not isinstance(kind, str):  # a list is no key of KINDS (and not hashable)
        raise DataFileError(f"{where}: field 'kind' must be text, one of {', '.join(KINDS)}")
    if not is_kind(kind):
        raise DataFileError(f"{where}: field 'kind' {shown(kind)} is not one of {', '.join(KINDS)}")
    if ability and kind in CARD_ONLY_KINDS:
        raise DataFileError(
            f"{where}: field 'kind' {kind!r} acts on a card and cannot be a faction ability"
        )
    if kind == "block" and timing != "any":
        raise DataFileError(f"{where}: field 'timing' of a block must be 'any' (it answers others)")
    params = KINDS[kind]
    unknown = set(entry) - {"timing", "kind", *LABELS, *params}
    if unknown:
        field = sorted(unknown)[0]
        raise DataFileError(f"{where}: field {shown(field)} is not a parameter of {kind!r}")
    name = _label(entry.get("name", ""), "name", where)
    name_de = _label(entry.get("name_de", ""), "name_de", where)
    numbers: dict[str, int] = {}  # the kind's numbers, suits and ranks by field
    who: Who = "self"  # Effect's default, for a kind without a ``who``
    for field, spec in params.items():
        value = _param(entry, field, spec, where)
        if isinstance(value, str):
            who = value
        else:
            numbers[field] = value
    return Effect(kind, timing, who=who, name=name, name_de=name_de, **numbers)


def _faction(entry: object, suit: int, where: str) -> Faction:
    if not isinstance(entry, dict):
        raise DataFileError(f"{where}: must be a table")
    unknown = set(entry) - {*LABELS, "ability", "action_chips"}
    if unknown:
        raise DataFileError(f"{where}: field {shown(sorted(unknown)[0])} is not a faction field")
    name = _label(entry.get("name", FACTIONS[suit]), "name", where)
    name_de = _label(entry.get("name_de", ""), "name_de", where)
    chips = entry.get("action_chips", list(ACTION_CHIPS_DEFAULT))
    if (
        not isinstance(chips, list)
        or len(chips) != 3
        or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= _MAX_CHIPS for c in chips
        )
    ):
        raise DataFileError(
            f"{where}: field 'action_chips' must list three whole numbers 0–4 (for 2, 3 and 4"
            f" players; {ACTION_CHIPS_TOTAL} action chips for four factions, K-SETUP-1)"
        )
    ability = entry.get("ability")
    effect = None if ability is None else parse_effect(ability, f"{where}.ability", True)
    return Faction(name, effect, (chips[0], chips[1], chips[2]), name_de)


def parse_content(text: str, source: str = "content file") -> Content:
    """Parse and check a content file's text; errors name the entry and the field."""
    data = read_toml(text, source)
    unknown = set(data) - {"content", "card", "faction"}
    if unknown:
        raise DataFileError(f"{source}: unknown section {shown(sorted(unknown)[0])}")
    meta = data.get("content", {})
    if not isinstance(meta, dict):
        raise DataFileError(f"{source}: [content] must be a table whose 'name' is text")
    name = _label(meta.get("name", "custom"), "name", f"{source}: [content]")
    cards = data.get("card", {})
    if not isinstance(cards, dict):
        raise DataFileError(f"{source}: 'card' must be a table of [card.<code>] entries")
    effects: list[Effect | None] = [None] * len(CODES)
    for key, entry in cards.items():
        where = f"{source}: card {shown(key)}"
        try:
            card = parse_card(key)
        except ValueError as exc:
            raise DataFileError(f"{where}: {exc}") from None
        if effects[card] is not None:
            raise DataFileError(f"{where}: card {CODES[card]} has a second entry")
        effects[card] = parse_effect(entry, where)
    factions_in = data.get("faction", {})
    if not isinstance(factions_in, dict):
        raise DataFileError(f"{source}: 'faction' must be a table of [faction.<name>] entries")
    for key in factions_in:
        if key not in FACTIONS:
            raise DataFileError(
                f"{source}: faction {shown(key)} is not one of {', '.join(FACTIONS)} (K-SETUP-1)"
            )
    factions = tuple(
        _faction(factions_in.get(name, {}), suit, f"{source}: faction {name!r}")
        for suit, name in enumerate(FACTIONS)
    )
    has_blocks = any(e is not None and e.kind == "block" for e in effects)
    return Content(name, tuple(effects), factions, has_blocks)


@lru_cache(maxsize=4)
def packaged_text(name: str) -> str:
    return resources.files(__package__).joinpath(f"data/{name}.toml").read_text("utf-8")


def content_text(spec: str) -> str:
    """A name of :data:`PACKAGED` names a packaged file; anything else is a file's text."""
    return packaged_text(spec) if spec in PACKAGED else spec


@lru_cache(maxsize=16)
def load_content(spec: str) -> Content:
    source = f"content {spec!r}" if spec in PACKAGED else "content file"
    return parse_content(content_text(spec), source)
