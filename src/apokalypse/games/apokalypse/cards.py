"""Cards as data: the kinds of card, the deck file that lists them, and the physical card table.

A physical card is an ``int`` id into a :class:`CardTable`; everything the rules need to know about
it (its back, its role, the icons on each half, the modifier of each half) lives on its
:class:`CardKind`. The deck file is TOML (``data/deck.toml`` is the default, D-COMP-1/D-COMP-2).
What a role may do is :mod:`.roles`' table.

The rules read cards through :class:`Cards`: a :class:`CardTable` by card id (the State's
displays), or :class:`CodeCards` by code (an observation's displays), so that one function
answers for both.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Protocol, TypeVar

from apokalypse.engine.datafile import MAX_TEXT_BYTES, read_toml
from apokalypse.engine.errors import ConfigError, DataFileError
from apokalypse.engine.text import shown

# Sides, planes and roles are the rules' vocabulary (roles.py); named here too, where most of the
# game has always imported them.
from .roles import CHURCH as CHURCH
from .roles import DUAL as DUAL
from .roles import EARTH as EARTH
from .roles import ETHOS_CHANGE as ETHOS_CHANGE
from .roles import EVIL as EVIL
from .roles import FIEND as FIEND
from .roles import GOOD as GOOD
from .roles import HEAVEN as HEAVEN
from .roles import HORSEMAN as HORSEMAN
from .roles import ICON as ICON
from .roles import METAL as METAL
from .roles import NETHER as NETHER
from .roles import PLANE_NAMES as PLANE_NAMES
from .roles import PROTECTION as PROTECTION
from .roles import ROLES as ROLES
from .roles import ROLES_BY_DECK as ROLES_BY_DECK
from .roles import SAINT as SAINT
from .roles import SEAL as SEAL
from .roles import SIDE_NAMES as SIDE_NAMES
from .roles import VIOLENCE as VIOLENCE
from .roles import Role as Role
from .roles import is_role

# Icons as bits, so that "a complete set" is a mask test (R-COMP-2).
MASK, HELMET, PIG = 1, 2, 4
ICON_BITS = {"mask": MASK, "helmet": HELMET, "pig": PIG}
ICON_OF_HORSEMAN = {1: MASK, 2: HELMET, 3: PIG}  # R-COMP-5
HORSEMAN_VP = {1: 1, 2: 2, 3: 4, 4: 7}  # R-END-2

MODIFIERS = {"": (0, 0), "+1B": (1, 0), "-1B": (-1, 0), "+1K": (0, 1), "-1K": (0, -1)}
SEALS_IN_GAME = 6  # R-COMP-5
HORSEMAN_SETS = 3  # R-COMP-5: one in each deck, one public reference / reward supply
HAND_START = 2  # R-SETUP-4: 2 B and 2 K cards each
BETWEEN_HORSEMEN = 6  # R-SETUP-5

# What a deck file may hold. The printed game has 60 B and 63 K cards; the bounds leave a designer
# room while keeping a hostile file (a record carries its deck) from eating memory or the screen.
MAX_COUNT = 500  # copies of one entry
MAX_CARDS_PER_BACK = 2000
MAX_CODE_LENGTH = 24
MAX_NAME_LENGTH = 40
# Codes travel through the action notation (lower-cased, split at white space, chained with ';'
# at the terminal) and onto the screen, so they keep to a small ASCII set. Upper case is read as
# lower case: the notation is case-blind, and a code it could not write back would make a game's
# record unreplayable.
CODE_FIRST = frozenset(string.ascii_lowercase + string.digits)
CODE_CHARS = CODE_FIRST | frozenset("/-_+.")
# The notation's own words (actions.py: verbs, uses, sides, planes) and the codes the engine
# gives its own cards or shows for a hidden front: a card named like them would be ambiguous.
RESERVED_CODES = frozenset(
    {"pass", "play", "target", "give", "to", "steal", "defend", "decline", "back"}
    | {"good", "evil", "heaven", "earth", "nether", "attack", "neutralise"}
    | {"seal", "populace"}
    | {f"{HORSEMAN}{n}" for n in (1, 2, 3, 4)}
)


@dataclass(frozen=True, slots=True)
class CardKind:
    """One kind of card. ``icons[side]`` and ``modifier[side]`` are what shows on that side."""

    code: str
    back: str  # "B", "K", "seal" or "horseman"
    role: Role
    icons: tuple[int, int] = (0, 0)
    modifier: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    count: int = 0
    asterisk: int = 0
    horseman: int = 0

    @property
    def is_music(self) -> bool:
        return ROLES[self.role].music


# (music, masks, helmets, pigs): what protects a side against the horsemen (R-HORSE-1).
Protection = tuple[int, int, int, int]
NO_PROTECTION: Protection = (0, 0, 0, 0)


def card_protection(kind: CardKind) -> tuple[Protection, Protection]:
    """What a Heaven or Netherworld card counts for on the good and on the evil side: a music card
    one populace against any horseman (R-HORSE-1, R-HORSE-2), a card with icons only the icons of
    the half its side shows (R-COMP-2)."""
    protects = ROLES[kind.role].protects
    if protects == "music":
        return (1, 0, 0, 0), (1, 0, 0, 0)
    if protects == "icons":
        return _icon_protection(kind.icons[GOOD]), _icon_protection(kind.icons[EVIL])
    return NO_PROTECTION, NO_PROTECTION


def _icon_protection(icons: int) -> Protection:
    return 0, 1 if icons & MASK else 0, 1 if icons & HELMET else 0, 1 if icons & PIG else 0


@dataclass(frozen=True, slots=True)
class CardTable:
    """The physical cards of one game: ``kind[card_id]`` for every id."""

    kind: tuple[CardKind, ...]
    b_cards: tuple[int, ...]
    k_cards: tuple[int, ...]
    seals: tuple[int, ...]
    horsemen: tuple[tuple[int, ...], ...]  # horsemen[set][number - 1]
    kinds_by_code: KindsByCode  # a dict, with its CodeCards
    # Flat lookups by card id for the hot paths, read through Cards.
    music: tuple[bool, ...]  # music[card_id]
    role: tuple[Role, ...]  # role[card_id]
    protection: tuple[tuple[Protection, Protection], ...]  # protection[card_id][side]
    back: tuple[str, ...]  # back[card_id]: "B", "K", "seal" or "horseman"
    codes: tuple[str, ...]  # codes[card_id]: its kind's code

    def code(self, card: int) -> str:
        return self.kind[card].code


Card = TypeVar("Card")  # how a display names its cards: an id (State) or a code (observation)
Card_contra = TypeVar("Card_contra", contravariant=True)
Value = TypeVar("Value")
Value_co = TypeVar("Value_co", covariant=True)


class Lookup(Protocol[Card_contra, Value_co]):
    """``lookup[card]``: a tuple by card id, a dict by code."""

    def __getitem__(self, card: Card_contra, /) -> Value_co: ...


class Cards(Protocol[Card_contra]):
    """What the rules read of the cards lying in displays; a :class:`CardTable` (by id) and a
    :class:`CodeCards` (by code) both are one."""

    @property
    def music(self) -> Lookup[Card_contra, bool]: ...

    @property
    def role(self) -> Lookup[Card_contra, Role | None]: ...

    @property
    def protection(self) -> Lookup[Card_contra, tuple[Protection, Protection]]: ...


class _ByCode(dict[str, Value]):
    """A lookup by code; a code the kinds do not know (a face-down populace, another deck's card)
    reads as ``default``."""

    def __init__(self, values: Mapping[str, Value], default: Value) -> None:
        super().__init__(values)
        self.default = default

    def __missing__(self, code: str) -> Value:
        return self.default


class CodeCards:
    """:class:`Cards` by code, for the displays of an observation (:func:`code_cards`)."""

    __slots__ = ("kinds", "music", "protection", "role")

    def __init__(self, kinds: Mapping[str, CardKind]) -> None:
        self.kinds = kinds
        self.music: Mapping[str, bool] = _ByCode(
            {code: ROLES[k.role].music for code, k in kinds.items()}, False
        )
        self.role: Mapping[str, Role | None] = _ByCode(
            {code: k.role for code, k in kinds.items()}, None
        )
        self.protection: Mapping[str, tuple[Protection, Protection]] = _ByCode(
            {code: card_protection(k) for code, k in kinds.items()}, (NO_PROTECTION, NO_PROTECTION)
        )


class KindsByCode(dict[str, CardKind]):
    """A deck's kinds by code (:attr:`CardTable.kinds_by_code`, :func:`deck_kinds`), with their
    :class:`CodeCards`, built once with the table."""

    def __init__(self, kinds: Mapping[str, CardKind]) -> None:
        super().__init__(kinds)
        self.cards = CodeCards(self)


def code_cards(kinds: Mapping[str, CardKind]) -> CodeCards:
    """The :class:`Cards` of a game's kinds by code: a deck's own (:func:`deck_kinds`), or built
    now for any other mapping."""
    return kinds.cards if isinstance(kinds, KindsByCode) else CodeCards(kinds)


def is_code(text: str) -> bool:
    """Whether ``text`` is written like a card code (lower case; reserved words not checked)."""
    return (
        0 < len(text) <= MAX_CODE_LENGTH
        and text[0] in CODE_FIRST
        and all(c in CODE_CHARS for c in text)
    )


def _icons(entry: dict[str, object], field: str, where: str) -> int:
    names = entry.get(field, [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise DataFileError(f"{where}: field '{field}' must be a list of icon names")
    bits = 0
    for name in names:
        if name not in ICON_BITS:
            raise DataFileError(
                f"{where}: field '{field}' has unknown icon {shown(name)} (mask, helmet, pig)"
            )
        bits |= ICON_BITS[name]
    return bits


def _int(
    entry: dict[str, object], field: str, where: str, high: int, default: int | None = None
) -> int:
    value = entry.get(field, default)
    if value is None:
        raise DataFileError(f"{where}: field '{field}' is missing")
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
        raise DataFileError(f"{where}: field '{field}' must be a whole number 0–{high}")
    return value


def _str(entry: dict[str, object], field: str, where: str, default: str | None = None) -> str:
    value = entry.get(field, default)
    if value is None:
        raise DataFileError(f"{where}: field '{field}' is missing")
    if not isinstance(value, str):
        raise DataFileError(f"{where}: field '{field}' must be text")
    return value


def _label(entry: dict[str, object], field: str, where: str) -> str:
    """A name for people: printable (no control characters or escape sequences), and short."""
    value = _str(entry, field, where)
    if len(value) > MAX_NAME_LENGTH or not value.isprintable():
        raise DataFileError(
            f"{where}: field '{field}' must be printable text of at most {MAX_NAME_LENGTH}"
            " characters"
        )
    return value


def _code(entry: dict[str, object], where: str) -> str:
    """D-COMP-1: the code, lower-cased (the notation is case-blind), in the notation's alphabet."""
    raw = _str(entry, "code", where)
    code = raw.lower() if raw.isascii() else raw  # only ASCII upper case is taken as lower case
    if not is_code(code):
        raise DataFileError(
            f"{where}: field 'code' must be 1–{MAX_CODE_LENGTH} letters, digits and / - _ + ."
            " (starting with a letter or digit)"
        )
    if code in RESERVED_CODES:
        raise DataFileError(
            f"{where}: field 'code' {shown(code)} is a word of the action notation or a code the"
            " engine uses itself"
        )
    return code


def parse_kind(entry: object, index: int) -> CardKind:
    """One ``[[card]]`` entry of a deck file, checked field by field."""
    if not isinstance(entry, dict):
        raise DataFileError(f"card #{index + 1}: must be a table")
    code = entry.get("code")
    where = f"card #{index + 1}" + (f" ({shown(code)})" if isinstance(code, str) else "")
    code = _code(entry, where)
    back = _str(entry, "deck", where)
    if back not in ROLES_BY_DECK:
        raise DataFileError(f"{where}: field 'deck' must be 'B' or 'K', not {shown(back)}")
    role = _str(entry, "role", where)
    if not is_role(role) or role not in ROLES_BY_DECK[back]:
        allowed = ", ".join(ROLES_BY_DECK[back])
        raise DataFileError(f"{where}: field 'role' {shown(role)} is not a {back} role ({allowed})")
    count = _int(entry, "count", where, MAX_COUNT)
    asterisk = _int(entry, "asterisk", where, MAX_COUNT, 0)
    if asterisk > count:
        raise DataFileError(f"{where}: field 'asterisk' ({asterisk}) exceeds 'count' ({count})")
    icons = (0, 0)
    modifier = ((0, 0), (0, 0))
    if role == PROTECTION:
        left, right = _icons(entry, "left", where), _icons(entry, "right", where)
        if left & right or left | right != MASK | HELMET | PIG or not left or not right:
            raise DataFileError(
                f"{where}: fields 'left'/'right' must split all three icons over both halves"
                " (R-COMP-2)"
            )
        icons = (left, right)
    elif role == ICON:
        left, right = _icons(entry, "left", where), _icons(entry, "right", where)
        if left != right or bin(left).count("1") != 1:
            raise DataFileError(
                f"{where}: fields 'left'/'right' must show the same single icon (R-COMP-4)"
            )
        icons = (left, right)
    elif role == DUAL:
        # The halves' names are checked (the file must stay safe to show) though a card is
        # named from its code's parts, in the reader's language (D-COMP-1).
        _label(entry, "good", where)
        _label(entry, "evil", where)
        mods = []
        for field in ("good_modifier", "evil_modifier"):
            text = _str(entry, field, where, "")
            if text not in MODIFIERS:
                raise DataFileError(
                    f"{where}: field '{field}' must be one of +1B, -1B, +1K, -1K or empty"
                )
            mods.append(MODIFIERS[text])
        modifier = (mods[0], mods[1])
    return CardKind(code, back, role, icons, modifier, count, asterisk)


def parse_deck(text: str, source: str = "deck file") -> list[CardKind]:
    """Parse and check a deck file's text; errors name the entry and the field."""
    data = read_toml(text, source)
    entries = data.get("card")
    if not isinstance(entries, list) or not entries:
        raise DataFileError(f"{source}: needs a list of [[card]] entries")
    kinds: list[CardKind] = []
    seen: set[str] = set()
    cards_per_back = {"B": 0, "K": 0}
    for i, entry in enumerate(entries):
        kind = parse_kind(entry, i)
        where = f"card #{i + 1} ({shown(kind.code)})"  # as parse_kind names an entry
        if kind.code in seen:
            raise DataFileError(f"{where}: card code {shown(kind.code)} appears twice")
        seen.add(kind.code)
        cards_per_back[kind.back] += kind.count
        if cards_per_back[kind.back] > MAX_CARDS_PER_BACK:
            raise DataFileError(
                f"{where}: field 'count' takes the {kind.back} deck past {MAX_CARDS_PER_BACK} cards"
            )
        kinds.append(kind)
    for back in ("B", "K"):
        if not any(k.back == back and k.count for k in kinds):
            raise DataFileError(f"{source}: the {back} deck has no cards")
    return kinds


DEFAULT_DECK = "default"


@lru_cache(maxsize=1)
def default_deck_text() -> str:
    return resources.files(__package__).joinpath("data/deck.toml").read_text("utf-8")


def load_deck_text(path: str) -> str:
    """The text of a deck file; ``"default"`` is the packaged default deck."""
    if path == DEFAULT_DECK:
        return default_deck_text()
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_TEXT_BYTES + 1)  # never more: the path may be /dev/zero
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise DataFileError(f"deck file {path!r}: cannot be read ({reason})") from None
    if len(data) > MAX_TEXT_BYTES:
        raise DataFileError(f"deck file {path!r}: larger than {MAX_TEXT_BYTES >> 20} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataFileError(
            f"deck file {path!r}: not UTF-8 text (byte {exc.start} cannot be decoded)"
        ) from None


def check_deck_size(table: CardTable, players: int) -> None:
    """R-SETUP-4/R-SETUP-5: each deck must deal two cards to every hand and still hold six cards
    between each two horsemen. Checked when a game is configured, so a deck too small (perhaps
    only after R-SETUP-1's removals for 2–3 players) is refused before any game is dealt."""
    need = HAND_START * players + BETWEEN_HORSEMEN * 3
    for back, cards in (("B", table.b_cards), ("K", table.k_cards)):
        if len(cards) < need:
            raise ConfigError(
                f"R-SETUP-5: the {back} deck holds {len(cards)} cards with {players} players;"
                f" it needs {need} ({HAND_START} per hand and 3 × {BETWEEN_HORSEMEN} between the"
                " horsemen)"
            )


@lru_cache(maxsize=32)
def card_table(deck_text: str, few_players: bool, keep_music: bool = False) -> CardTable:
    """Build the physical cards for a game; ``few_players`` applies R-SETUP-1 (2–3 players):
    the asterisk cards leave, and two Heavy Metal and two Church Music with them unless
    ``keep_music`` (V-EDITION-2008: the 2008 rules remove only the asterisk cards; the music's
    removal is new in 2009)."""
    kinds = parse_deck(deck_text)
    table: list[CardKind] = []
    b_cards: list[int] = []
    k_cards: list[int] = []
    # R-SETUP-1 removes two Heavy Metal and two Church Music in all, however many entries the
    # deck file splits them into.
    music_to_remove = {
        role: rules.fewer_with_few_players
        for role, rules in ROLES.items()
        if rules.fewer_with_few_players
    }
    for kind in kinds:
        copies = kind.count
        if few_players:
            copies -= kind.asterisk
            if kind.role in music_to_remove and not keep_music:
                removed = min(copies, music_to_remove[kind.role])
                music_to_remove[kind.role] -= removed
                copies -= removed
        for _ in range(copies):
            (b_cards if kind.back == "B" else k_cards).append(len(table))
            table.append(kind)
    seal_kind = CardKind("seal", "seal", SEAL, count=SEALS_IN_GAME)
    seals = tuple(range(len(table), len(table) + SEALS_IN_GAME))
    table.extend([seal_kind] * SEALS_IN_GAME)
    horse_kinds = [CardKind(f"horseman{n}", "horseman", HORSEMAN, horseman=n) for n in (1, 2, 3, 4)]
    horsemen = []
    for _ in range(HORSEMAN_SETS):
        horsemen.append(tuple(range(len(table), len(table) + 4)))
        table.extend(horse_kinds)
    by_code = KindsByCode({**{k.code: k for k in kinds}, "seal": seal_kind})
    return CardTable(
        tuple(table),
        tuple(b_cards),
        tuple(k_cards),
        seals,
        tuple(horsemen),
        by_code,
        tuple(ROLES[k.role].music for k in table),
        tuple(k.role for k in table),
        tuple(card_protection(k) for k in table),
        tuple(k.back for k in table),
        tuple(k.code for k in table),
    )


def deck_kinds(deck_text: str) -> Mapping[str, CardKind]:
    """The kinds of card of a deck file's text by code, the seal included: what a viewer needs
    to read an observation's codes (icons, halves, modifiers)."""
    return card_table(deck_text, False).kinds_by_code
