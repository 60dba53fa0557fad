"""What the lobby offers (``GET /api/catalog``): every registered game with its title, player
range and variants, and the seat kinds, in one language. The browser builds its form from this
alone, so a game added to the registry (with its catalogs) appears in the lobby unchanged."""

from __future__ import annotations

from functools import cache

from apokalypse.bots import bot_names
from apokalypse.bots.levels import LEVELS
from apokalypse.engine.registry import game_names, get_game
from apokalypse.i18n import DEFAULT_LANG, check_lang, has, text
from apokalypse.i18n import catalog as messages
from apokalypse.wire.seat import Catalog, GameChoice, SeatChoice, VariantChoice

from .games import HUMAN


def _label(key: str, lang: str) -> str | None:
    """The catalog's text for ``key`` in ``lang`` (English where only English has it), or None
    where no catalog has it."""
    return text(key, lang) if has(key, lang) or has(key, "en") else None


def title(name: str, lang: str) -> str:
    """A game's title in ``lang`` (its registry name where no catalog has one)."""
    return _label(f"{name}.name", lang) or name


def _game(name: str, lang: str) -> GameChoice:
    rules = get_game(name)
    variants: list[VariantChoice] = [
        # A variant nobody labelled yet still reads: the rules' own English description.
        {"id": variant, "label": _label(f"{name}.variant.{variant}", lang) or about}
        for variant, about in rules.variants.items()
    ]
    return {
        "name": name,
        "title": title(name, lang),
        "players": rules.players,
        "variants": variants,
    }


def _seats(lang: str) -> list[SeatChoice]:
    """A person, the levels (easiest first), then the other computer players: only those every
    game has, since the lobby offers one list whatever game is chosen."""
    shared = set.intersection(*(set(bot_names(name)) for name in game_names()))
    levels = [kind for kind in LEVELS if kind in shared]
    # The other players in the order the catalog lists them (the order the lobby always had),
    # any it does not list after them by name.
    listed = [key for key in messages(DEFAULT_LANG) if key.startswith("lobby.seat.")]
    order = {key.removeprefix("lobby.seat."): n for n, key in enumerate(listed)}
    others = sorted(shared - set(levels), key=lambda kind: (order.get(kind, len(order)), kind))
    others_heading = text("lobby.others", lang)

    def choice(kind: str, group: str | None) -> SeatChoice:
        label = _label(f"lobby.seat.{kind}", lang) or text("lobby.unnamed", lang, kind=kind)
        return {
            "kind": kind,
            "label": label,
            "group": group,
            "about": _label(f"lobby.about.{kind}", lang),
        }

    return [
        choice(HUMAN, None),
        *(choice(kind, None) for kind in levels),
        *(choice(kind, others_heading) for kind in others),
    ]


def catalog(lang: str) -> Catalog:
    """The lobby's catalog in ``lang`` (a :class:`ConfigError` names the known languages). The
    caller must not change it: it is shared."""
    return _catalog(check_lang(lang))


@cache  # one per known language (checked first): it changes only with the code
def _catalog(lang: str) -> Catalog:
    return {"games": [_game(name, lang) for name in game_names()], "seats": _seats(lang)}
