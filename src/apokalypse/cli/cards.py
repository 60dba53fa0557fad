"""``--deck`` / ``--content``: a file's text, or a packaged deck or content by name.

A game whose registry entry names its packaged files (``Entry.packaged``: Apokerlypse's
"plain", "example" …) takes those names as well as a path; the names are read from the game's
module each time, so a newly packaged file is known without a change here. A name is taken
before a file of the same name in the working folder (give such a file with its folder:
``data/example``, or its absolute path).

The packaged file's *text* is what the run uses, as a file's would be: the results tables name
it by its content (``sim.tables.deck_name``), so a packaged file edited between two runs is two
decks, and a record keeps the text it was played with.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import cast

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.registry import entry, load


def packaged_names(game: str) -> tuple[str, ...]:
    """The names of the game's packaged decks or contents (none for most games)."""
    path = entry(game).packaged
    if path is None:
        return ()
    return tuple(str(name) for name in getattr(load(path), "PACKAGED", ()))


def packaged_text(game: str, name: str) -> str:
    path = entry(game).packaged
    assert path is not None, f"{game} packages no decks"
    return str(cast(ModuleType, load(path)).packaged_text(name))


def read_cards(game: str, given: Path | None) -> str | None:
    """The text of ``--deck`` / ``--content`` for ``game``: a packaged name's file or the file
    at that path; None when the option was not given. Anything else is one line naming it."""
    if given is None:
        return None
    option = f"--{entry(game).learning.cards}"  # "--deck" or "--content", as the game calls it
    names = packaged_names(game)
    if str(given) in names:
        return packaged_text(game, str(given))
    try:
        return given.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        if names:
            raise ConfigError(
                f"{option} {str(given)!r}: neither a packaged {entry(game).learning.cards}"
                f" ({', '.join(names)}) nor a readable file ({why})"
            ) from None
        raise ConfigError(f"{option} {str(given)!r}: cannot read it ({why})") from None
