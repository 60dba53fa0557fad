"""Message catalogs (English and German) for everything a person reads.

The rules never build sentences: they emit events with a ``kind`` and arguments, and each game's
subpackage turns them into text (:mod:`.apokalypse.render`, :mod:`.apokerlypse.render`). The
catalogs are TOML files shipped in the package, loaded once and flattened to dotted keys:
``en.toml`` / ``de.toml`` here hold what every game shares (the terminal game's texts,
``ui.nobody``); each game's folder holds its own ``<game>/<lang>.toml``, read under the prefix
``<game>.`` (``apokalypse.event.pass.public``, ``apokerlypse.event.pay.public``), so two games
can both have a ``deal`` event. A new game's folder with its catalogs is found by itself.

>>> text("ui.nobody", "de")
'niemand'
>>> text("apokalypse.side.evil", "de")
'böse'
>>> plural("count.card", 2, "en")
'2 cards'
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from apokalypse.engine.errors import (
    ConfigError,
    Explained,
    IllegalAction,
    NotationError,
    ParamValue,
)

LANGS = ("en", "de")
DEFAULT_LANG = "en"


def _flatten(table: Mapping[str, Any], prefix: str, out: dict[str, str]) -> None:
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            _flatten(value, name + ".", out)
        elif name in out:  # a shared table named like a game would hide the game's texts
            raise ValueError(f"catalog key {name!r} is defined twice")
        elif isinstance(value, str):
            out[name] = value
        else:  # a catalog holds text only; a number here is a typo in the file
            raise ValueError(f"catalog key {name!r} must be text, not {type(value).__name__}")


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """All messages of one language, by dotted key. Loaded once per process.

    The shared ``<lang>.toml`` without a prefix, then every folder beside it that has a
    ``<lang>.toml`` (a game's) under the prefix ``<folder>.``."""
    lang = check_lang(lang)
    root = resources.files(__package__)
    out: dict[str, str] = {}
    _flatten(tomllib.loads(root.joinpath(f"{lang}.toml").read_text("utf-8")), "", out)
    for folder in sorted(root.iterdir(), key=lambda e: e.name):
        own = folder.joinpath(f"{lang}.toml")
        if folder.is_dir() and own.is_file():
            _flatten(tomllib.loads(own.read_text("utf-8")), f"{folder.name}.", out)
    return out


def check_lang(lang: str) -> str:
    """The language code, normalised; a :class:`ConfigError` names the known ones."""
    code = lang.strip().lower()
    if code not in LANGS:
        raise ConfigError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")
    return code


class _Values(dict[str, object]):
    """Format values that leave an unknown placeholder visible instead of raising: a typo in a
    catalog must not crash a game in progress (the tests catch it instead)."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has(key: str, lang: str) -> bool:
    return key in catalog(lang)


def text(key: str, lang: str, /, **values: object) -> str:
    """The message ``key`` in ``lang`` with ``values`` filled in.

    A key missing from ``lang`` falls back to English, then to the key itself, so a half-finished
    catalog degrades to readable text rather than an exception."""
    template = catalog(lang).get(key)
    if template is None:
        template = catalog(DEFAULT_LANG).get(key, key)
    if (lang == "en" and "}'s" in template) or (lang == "de" and "von {" in template):
        template = _own(template, lang, values)
    return template.format_map(_Values(values))


# Whose something is, said as a person would. The viewer's own seat: "Ann (you)'s display"
# reads "your display", "die Auslage von Ann (du)" reads "deine Auslage" (German declines the
# possessive by case, so the display's article goes with it), any other "von Ann (du)" reads
# "von dir". A seat's display where the same seat acts in the sentence too: "Ann adds … to
# Ann's display" reads "… to their own display", German "an die eigene Auslage". Each list is
# tried in order, the longer phrases first.
_OWN = {
    "en": (("{{{}}}'s display", "your display"), ("{{{}}}'s", "your")),
    "de": (
        ("die Auslage von {{{}}}", "deine Auslage"),
        ("der Auslage von {{{}}}", "deiner Auslage"),
        ("von {{{}}}", "von dir"),
    ),
}
_SELF = {
    "en": (("{{{}}}'s display", "their own display"),),
    "de": (
        ("die Auslage von {{{}}}", "die eigene Auslage"),
        ("der Auslage von {{{}}}", "der eigenen Auslage"),
    ),
}


def _own(template: str, lang: str, values: dict[str, object]) -> str:
    mark = catalog(lang)["ui.you_mark"].replace("{name}", "")  # " (you)", " (du)"
    names = {key: value for key, value in values.items() if isinstance(value, str)}
    for key, value in names.items():
        for pattern, said in _SELF[lang]:
            at = template.find(pattern.format(key))
            # The same seat named earlier in the sentence (the actor, or the populace's owner).
            if at >= 0 and any(
                other != key and name == value and 0 <= template.find(f"{{{other}}}") < at
                for other, name in names.items()
            ):
                mine = lang == "en" and value.endswith(mark)
                template = template.replace(
                    pattern.format(key), "your own display" if mine else said
                )
    for key, value in names.items():
        if value.endswith(mark):
            for pattern, said in _OWN[lang]:
                # Lower case even where the template begins with it: those are fragments set
                # inside a sentence ("… with Protection Helmet: your Netherworld row, …").
                template = template.replace(pattern.format(key), said)
    return template


def plural(key: str, n: int, lang: str, /, **values: object) -> str:
    """``key.one`` for exactly one, ``key.other`` otherwise (enough for English and German)."""
    return text(f"{key}.{'one' if n == 1 else 'other'}", lang, n=n, **values)


def seat_names(
    players: int,
    viewer: int | None,
    lang: str,
    chosen: Sequence[str | None] = (),
    kinds: Sequence[str] = (),
) -> list[str]:
    """Each seat's name: the one its person ``chosen``, else a computer seat's level ("Medium
    (computer)", from ``kinds``, where the catalog names it), else ``p1``, ``p2`` …; names
    that look alike (:func:`alike`: "Ann" and "ANN") are told apart by their seats ("Ann (p3)"),
    and the viewer's own seat is marked ("p2 (you)")."""
    names = [_seat_name(q, chosen, kinds, lang) for q in range(players)]
    looks = [alike(name) for name in names]
    return [
        text("ui.you_mark", lang, name=name) if q == viewer else name
        for q, name in enumerate(
            f"{name} (p{q + 1})" if looks.count(looks[q]) > 1 else name
            for q, name in enumerate(names)
        )
    ]


def alike(name: str) -> str:
    """What a name reads as, to tell apart two that look the same ("Ann", "ANN", "Ａｎｎ"):
    NFKC, case folded, without spaces."""
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def _seat_name(seat: int, chosen: Sequence[str | None], kinds: Sequence[str], lang: str) -> str:
    name = chosen[seat] if seat < len(chosen) else None
    if name:
        return name
    kind = kinds[seat] if seat < len(kinds) else "human"
    if not has(f"names.level.{kind}", lang):  # a person, or a player the catalog does not name
        return f"p{seat + 1}"
    return text("names.computer", lang, level=text(f"names.level.{kind}", lang))


__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "RefusalValues",
    "alike",
    "catalog",
    "check_lang",
    "has",
    "notation_reason",
    "plural",
    "reason",
    "refusal",
    "refusal_reason",
    "seat_names",
    "text",
]


# Turns a refusal's plain parameters into the values of its template (a seat number into "p2", a
# card code into the card's name): each game knows its own cards, so it supplies this.
RefusalValues = Callable[[Mapping[str, ParamValue], str], Mapping[str, object]]


def reason(
    exc: Explained, lang: str, keys: Sequence[str], values: RefusalValues | None = None
) -> str:
    """The reason of an :class:`~apokalypse.engine.errors.Explained` error in ``lang``: the first
    of ``keys`` the catalog has, filled with the exception's parameters (through ``values``), or
    the engine's English message when the exception has no key or the catalog no entry."""
    key = next((k for k in keys if has(k, lang)), None) if exc.key is not None else None
    if key is None:
        return exc.message
    try:
        filled = values(exc.params, lang) if values is not None else exc.params
    except (KeyError, IndexError, TypeError, ValueError):
        # Parameters the renderer cannot read must not turn a refusal into a crash of the game
        # in progress; the English reason still says what is wrong (the tests catch the bug).
        return exc.message
    return text(key, lang, **filled)


def refusal_reason(
    exc: IllegalAction, lang: str, key_prefix: str, values: RefusalValues | None = None
) -> str:
    """The specific reason of a refusal in ``lang``: the catalog's ``<prefix>refusal.<key>``, the
    prefix being the game's (``apokalypse.``; see :func:`reason`).

    >>> exc = IllegalAction("R-END-1", "the game is over", key="game.over")
    >>> over = IllegalAction("R-END-1", "over")
    >>> refusal_reason(exc, "de", "apokalypse."), refusal_reason(over, "de", "apokalypse.")
    ('das Spiel ist zu Ende', 'over')
    """
    return reason(exc, lang, [f"{key_prefix}refusal.{exc.key}"], values)


def notation_reason(exc: NotationError, game: str, lang: str) -> str:
    """Action text that does not parse, in ``lang``: the game's own ``<game>.notation.<key>``,
    else the shared ``notation.<key>`` (see :func:`reason`)."""
    return reason(exc, lang, [f"{game}.notation.{exc.key}", f"notation.{exc.key}"])


def refusal(
    exc: IllegalAction, lang: str, key_prefix: str, values: RefusalValues | None = None
) -> str:
    """A refused action: the rule id, what the rule says (``<prefix>rule.<id>`` in the catalog,
    when there is such an entry) and the specific reason (:func:`refusal_reason`)."""
    key = f"{key_prefix}rule.{exc.rule}"
    title = text(key, lang) if has(key, lang) or has(key, "en") else exc.rule
    message = refusal_reason(exc, lang, key_prefix, values)
    return text("ui.refusal", lang, rule=exc.rule, title=title, message=message)
