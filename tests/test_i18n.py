"""Message catalogs: the shared one and every game's, each game's in its own folder and read under
its prefix, both languages complete and consistent. What a game's texts say and how its events,
actions and refusals render is tested with the game (``tests/<game>/test_i18n.py``); the helpers
those tests share live here."""

from __future__ import annotations

import re
import string
import tomllib
from importlib import import_module, resources
from pathlib import Path

import pytest

from apokalypse.engine.errors import ConfigError
from apokalypse.engine.registry import game_names
from apokalypse.i18n import LANGS, _flatten, catalog, check_lang, plural, seat_names, text

GAMES = game_names()
NAMES = ["p1", "p2", "p3", "p4"]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def assert_clean(line: str) -> None:
    """No unfilled placeholder and no fallback for an unknown event kind."""
    assert line.strip()
    assert "{" not in line and "}" not in line, line
    assert not line.startswith("["), line


def read_catalog(*path: str) -> dict[str, str]:
    """One catalog file of the package as it is written (flattened, without a prefix)."""
    file = resources.files("apokalypse.i18n").joinpath(*path)
    out: dict[str, str] = {}
    _flatten(tomllib.loads(file.read_text("utf-8")), "", out)
    return out


# --- catalogs ----------------------------------------------------------------------------------


def test_catalogs_have_the_same_keys():
    en, de = set(catalog("en")), set(catalog("de"))
    assert en - de == set(), "missing in de.toml (the shared one, or <game>/ by the prefix)"
    assert de - en == set(), "missing in en.toml (the shared one, or <game>/ by the prefix)"


def test_catalogs_are_shipped_as_package_data():
    root = resources.files("apokalypse.i18n")
    for lang in LANGS:
        assert root.joinpath(f"{lang}.toml").is_file()
        for game in GAMES:  # every game's in its own folder
            assert root.joinpath(game, f"{lang}.toml").is_file(), game


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalog_is_the_shared_texts_and_each_games_under_its_prefix(lang):
    expected = read_catalog(f"{lang}.toml")
    assert not {key.split(".")[0] for key in expected} & set(GAMES)  # no game text is shared
    for game in GAMES:
        own = read_catalog(game, f"{lang}.toml")
        assert own, game
        expected.update({f"{game}.{key}": value for key, value in own.items()})
    assert catalog(lang) == expected


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_name_for_the_welcome(game):
    for lang in LANGS:  # ui.welcome names the game by <game>.name (cli/play.py)
        assert catalog(lang)[f"{game}.name"].strip(), (game, lang)


def test_no_template_is_empty_except_a_blank_column_header():
    for lang in LANGS:
        empty = {key for key, value in catalog(lang).items() if not value.strip()}
        assert empty <= {"apokalypse.ui.col.state"}


def test_unknown_language_is_a_config_error():
    assert check_lang(" DE ") == "de"
    with pytest.raises(ConfigError, match="unknown language 'fr'"):
        check_lang("fr")


def test_plural_and_missing_key_fallback():
    assert plural("count.card", 1, "de") == "1 Karte"
    assert plural("count.card", 3, "en") == "3 cards"
    assert text("no.such.key", "de") == "no.such.key"


def test_same_placeholders_are_filled_in_both_languages():
    """A German template may not use a value the English one never needs, except those the
    renderer always supplies alongside (Apokalypse's side_f beside side)."""
    interchangeable = {"side", "side_f", "other", "plane"}
    en, de = catalog("en"), catalog("de")
    for key in en:
        extra = placeholders(de[key]) - placeholders(en[key]) - interchangeable
        assert extra == set(), (key, extra)


@pytest.mark.parametrize("game", GAMES)
def test_every_event_kind_a_game_creates_has_a_text(game):
    """Read from the rules' source, so that a new kind cannot slip by; the game's own tests render
    each kind (tests/<game>/test_i18n.py)."""
    made: set[str] = set()
    for path in Path(import_module(f"apokalypse.games.{game}").__file__ or "").parent.rglob("*.py"):
        made |= set(re.findall(r'Event\(\s*"([a-z-]+)"', path.read_text("utf-8")))
    assert made, game
    for lang in LANGS:
        texts = {key.split(".")[2] for key in catalog(lang) if key.startswith(f"{game}.event.")}
        assert made - texts == set(), (game, lang)


def test_the_viewers_own_seat_reads_your_in_english_possessives() -> None:
    """ "Ann (you)'s display" reads "your display"; another seat keeps its name's possessive."""
    mine = seat_names(2, 0, "en", ["Ann", "Bob"])[0]
    theirs = seat_names(2, 0, "en", ["Ann", "Bob"])[1]
    key = "apokalypse.event.populace.public.good"
    assert text(key, "en", actor=theirs, seat=mine) == "Bob adds a good populace to your display."
    assert (
        text(key, "en", actor=mine, seat=theirs)
        == "Ann (you) adds a good populace to Bob's display."
    )
    row = text("apokalypse.place.row", "en", seat=mine, plane="heaven", side_f="good")
    assert row == "your heaven row, good side"  # a fragment, set inside a sentence


def test_the_viewers_own_seat_reads_deine_auslage_or_von_dir_in_german() -> None:
    """The viewer's own display is "deine Auslage" (not "die Auslage von dir"); any other thing
    of theirs is "von dir"."""
    mine, theirs = seat_names(2, 0, "de", ["Ann", "Bob"])
    key = "apokalypse.event.populace.public.good"
    assert text(key, "de", actor=theirs, seat=mine) == (
        "Bob legt einen guten Bevölkerungsanteil an deine Auslage an."
    )
    row = text("apokalypse.place.row", "de", seat=mine, plane="Himmelsebene", side_f="gute")
    assert row == "Himmelsebene von dir, gute Seite"
    assert text(key, "de", actor=mine, seat=theirs).endswith("an die Auslage von Bob an.")
