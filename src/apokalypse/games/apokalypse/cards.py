"""Cards as data: the kinds of card, the deck file that lists them, and the physical card table.

A physical card is an ``int`` id into a :class:`CardTable`; everything the rules need to know about
it (its back, its role, the icons on each half, the modifier of each half) lives on its
:class:`CardKind`. The deck file is TOML (``data/deck.toml`` is the default, D-COMP-1/D-COMP-2).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from apokalypse.engine.errors import DataFileError

# Sides and planes. A display is six rows: rows[side * 3 + plane].
GOOD, EVIL = 0, 1
HEAVEN, EARTH, NETHER = 0, 1, 2
SIDE_NAMES = ("good", "evil")
PLANE_NAMES = ("heaven", "earth", "nether")

# Icons as bits, so that "a complete set" is a mask test (R-COMP-2).
MASK, HELMET, PIG = 1, 2, 4
ICON_BITS = {"mask": MASK, "helmet": HELMET, "pig": PIG}
ICON_OF_HORSEMAN = {1: MASK, 2: HELMET, 3: PIG}  # R-COMP-5
HORSEMAN_VP = {1: 1, 2: 2, 3: 4, 4: 7}  # R-END-2

# Card roles (R-COMP-1, R-COMP-3, R-COMP-4).
PROTECTION = "protection"  # B front, Heaven plane
METAL = "metal"  # B front, Heavy Metal, Netherworld evil side
DUAL = "dual"  # K Netherworld: a good half and an evil half with modifiers
ICON = "icon"  # K Netherworld: one icon printed on both halves
SAINT = "saint"  # K Earthly: an especially good person
FIEND = "fiend"  # K Earthly: an especially evil person
CHURCH = "church"  # K Heaven, Church Music, good side only
VIOLENCE = "violence"  # K neutral
ETHOS_CHANGE = "ethos-change"  # K neutral
SEAL = "seal"  # Church Music and Heavy Metal at once (R-COMP-5)
HORSEMAN = "horseman"

ROLES_BY_DECK = {
    "B": (PROTECTION, METAL),
    "K": (DUAL, ICON, SAINT, FIEND, CHURCH, VIOLENCE, ETHOS_CHANGE),
}
MUSIC_ROLES = frozenset({METAL, CHURCH, SEAL})
MODIFIERS = {"": (0, 0), "+1B": (1, 0), "-1B": (-1, 0), "+1K": (0, 1), "-1K": (0, -1)}
SEALS_IN_GAME = 6  # R-COMP-5
HORSEMAN_SETS = 3  # R-COMP-5: one in each deck, one public reference / reward supply
FEW_PLAYERS_MUSIC_REMOVED = 2  # R-SETUP-1: 2 Heavy Metal and 2 Church Music leave 2–3 player games


@dataclass(frozen=True, slots=True)
class CardKind:
    """One kind of card. ``icons[side]`` and ``modifier[side]`` are what shows on that side."""

    code: str
    back: str  # "B", "K", "seal" or "horseman"
    role: str
    icons: tuple[int, int] = (0, 0)
    modifier: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    half_names: tuple[str, str] = ("", "")
    count: int = 0
    asterisk: int = 0
    horseman: int = 0

    @property
    def is_music(self) -> bool:
        return self.role in MUSIC_ROLES


@dataclass(frozen=True, slots=True)
class CardTable:
    """The physical cards of one game: ``kind[card_id]`` for every id."""

    kind: tuple[CardKind, ...]
    b_cards: tuple[int, ...]
    k_cards: tuple[int, ...]
    seals: tuple[int, ...]
    horsemen: tuple[tuple[int, ...], ...]  # horsemen[set][number - 1]
    kinds_by_code: dict[str, CardKind]
    music: tuple[bool, ...]  # music[card_id]: a flat lookup for the hot paths

    def code(self, card: int) -> str:
        return self.kind[card].code


def _icons(entry: dict[str, Any], field: str, where: str) -> int:
    names = entry.get(field, [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise DataFileError(f"{where}: field '{field}' must be a list of icon names")
    bits = 0
    for name in names:
        if name not in ICON_BITS:
            raise DataFileError(
                f"{where}: field '{field}' has unknown icon {name!r} (mask, helmet, pig)"
            )
        bits |= ICON_BITS[name]
    return bits


def _int(entry: dict[str, Any], field: str, where: str, default: int | None = None) -> int:
    value = entry.get(field, default)
    if value is None:
        raise DataFileError(f"{where}: field '{field}' is missing")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DataFileError(f"{where}: field '{field}' must be a whole number ≥ 0")
    return value


def _str(entry: dict[str, Any], field: str, where: str, default: str | None = None) -> str:
    value = entry.get(field, default)
    if value is None:
        raise DataFileError(f"{where}: field '{field}' is missing")
    if not isinstance(value, str):
        raise DataFileError(f"{where}: field '{field}' must be text")
    return value


def parse_kind(entry: Any, index: int) -> CardKind:
    """One ``[[card]]`` entry of a deck file, checked field by field."""
    if not isinstance(entry, dict):
        raise DataFileError(f"card #{index + 1}: must be a table")
    code = entry.get("code")
    where = f"card #{index + 1}" + (f" ({code!r})" if isinstance(code, str) else "")
    code = _str(entry, "code", where)
    if not code or any(c.isspace() for c in code):
        raise DataFileError(f"{where}: field 'code' must be one word")
    back = _str(entry, "deck", where)
    if back not in ROLES_BY_DECK:
        raise DataFileError(f"{where}: field 'deck' must be 'B' or 'K', not {back!r}")
    role = _str(entry, "role", where)
    if role not in ROLES_BY_DECK[back]:
        allowed = ", ".join(ROLES_BY_DECK[back])
        raise DataFileError(f"{where}: field 'role' {role!r} is not a {back} role ({allowed})")
    count = _int(entry, "count", where)
    asterisk = _int(entry, "asterisk", where, 0)
    if asterisk > count:
        raise DataFileError(f"{where}: field 'asterisk' ({asterisk}) exceeds 'count' ({count})")
    icons = (0, 0)
    modifier = ((0, 0), (0, 0))
    names = ("", "")
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
        names = (_str(entry, "good", where), _str(entry, "evil", where))
        mods = []
        for field in ("good_modifier", "evil_modifier"):
            text = _str(entry, field, where, "")
            if text not in MODIFIERS:
                raise DataFileError(
                    f"{where}: field '{field}' must be one of +1B, -1B, +1K, -1K or empty"
                )
            mods.append(MODIFIERS[text])
        modifier = (mods[0], mods[1])
    return CardKind(code, back, role, icons, modifier, names, count, asterisk)


def parse_deck(text: str, source: str = "deck file") -> list[CardKind]:
    """Parse and check a deck file's text; errors name the entry and the field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{source}: not valid TOML ({exc})") from None
    entries = data.get("card")
    if not isinstance(entries, list) or not entries:
        raise DataFileError(f"{source}: needs a list of [[card]] entries")
    kinds = [parse_kind(entry, i) for i, entry in enumerate(entries)]
    seen: set[str] = set()
    for kind in kinds:
        if kind.code in seen:
            raise DataFileError(f"{source}: card code {kind.code!r} appears twice")
        seen.add(kind.code)
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
        return Path(path).read_text("utf-8")
    except OSError as exc:
        raise DataFileError(f"deck file {path!r}: cannot be read ({exc.strerror})") from None


@lru_cache(maxsize=32)
def card_table(deck_text: str, few_players: bool) -> CardTable:
    """Build the physical cards for a game; ``few_players`` applies R-SETUP-1 (2–3 players)."""
    kinds = parse_deck(deck_text)
    table: list[CardKind] = []
    b_cards: list[int] = []
    k_cards: list[int] = []
    # R-SETUP-1 removes two Heavy Metal and two Church Music in all, however many entries the
    # deck file splits them into.
    music_to_remove = {METAL: FEW_PLAYERS_MUSIC_REMOVED, CHURCH: FEW_PLAYERS_MUSIC_REMOVED}
    for kind in kinds:
        copies = kind.count
        if few_players:
            copies -= kind.asterisk
            if kind.role in music_to_remove:
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
    by_code = {k.code: k for k in kinds}
    by_code["seal"] = seal_kind
    music = tuple(k.role in MUSIC_ROLES for k in table)
    return CardTable(
        tuple(table), tuple(b_cards), tuple(k_cards), seals, tuple(horsemen), by_code, music
    )
