"""Refusals in the player's language, for every game: every ``IllegalAction`` the rules raise
carries a catalog key and its parameters, both languages have a text for every key, and the texts
render with the parameters their raise sites give. That a game's real refusals (in process and in a
German terminal game) show a German reason is tested with the game
(``tests/<game>/test_i18n_refusals.py``)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from apokalypse.engine.errors import IllegalAction, ParamValue
from apokalypse.engine.registry import game_names
from apokalypse.i18n import LANGS, catalog, refusal_reason
from tests.test_i18n import placeholders

# --- what the rules' source raises -------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    """One ``raise IllegalAction(...)`` in a game's source."""

    game: str
    where: str  # file:line, for failure messages
    keys: frozenset[str]  # every key the call can pass (a conditional names several)
    params: frozenset[str]  # the names of the parameters it passes


@dataclass(frozen=True, eq=False)  # hashed by identity, for the cache below
class Game:
    name: str
    package_dir: Path
    prefix: str  # where the game's texts live in the catalog ("apokalypse.")
    values: Callable[[Mapping[str, ParamValue], str], Mapping[str, Any]]
    samples: Mapping[str, ParamValue]  # a plausible value for every parameter name it uses


@cache  # one Game per name, so that raise_sites below reads each game's source once
def load_game(name: str) -> Game:
    """A game's refusals, found where every game keeps them: the rules in ``games/<name>``, the
    values of their texts in ``i18n/<name>/render.py`` (under its prefix ``P``) and a sample for
    every parameter in ``tests/<name>/test_i18n_refusals.py`` (``PARAM_SAMPLES``)."""
    rules = import_module(f"apokalypse.games.{name}")
    texts = import_module(f"apokalypse.i18n.{name}.render")
    samples = import_module(f"tests.{name}.test_i18n_refusals").PARAM_SAMPLES
    return Game(name, Path(rules.__file__ or "").parent, texts.P, texts.refusal_values, samples)


def games() -> list[Game]:
    return [load_game(name) for name in game_names()]


@pytest.fixture(params=game_names())
def game(request: pytest.FixtureRequest) -> Game:
    return load_game(request.param)


def _keys(node: ast.expr, where: str) -> set[str]:
    """The keys a ``key=`` argument can evaluate to. Only literals, conditionals between literals
    and a literal dict indexed by the rule are allowed, so that this test sees every key."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _keys(node.body, where) | _keys(node.orelse, where)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
        return {k for value in node.value.values for k in _keys(value, where)}
    raise AssertionError(f"{where}: key={ast.unparse(node)} is not a literal this test can read")


def _params(node: ast.expr | None, where: str) -> set[str]:
    if node is None:
        return set()
    assert isinstance(node, ast.Dict), f"{where}: params must be a dict literal"
    names = set()
    for key in node.keys:
        assert isinstance(key, ast.Constant) and isinstance(key.value, str), where
        names.add(key.value)
    return names


def _is_illegal_action(func: ast.expr) -> bool:
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name == "IllegalAction"


def _raise_sites(game: Game) -> Iterator[Site]:
    for path in sorted(game.package_dir.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _is_illegal_action(node.func)):
                continue
            where = f"{path.name}:{node.lineno}"
            kwargs = {kw.arg: kw.value for kw in node.keywords}
            assert "key" in kwargs, f"{where}: IllegalAction without key="
            keys = frozenset(_keys(kwargs["key"], where))
            params = frozenset(_params(kwargs.get("params"), where))
            yield Site(game.name, where, keys, params)


@cache  # read once; inside the tests, so a site without a key fails a test, not collection
def raise_sites(game: Game) -> tuple[Site, ...]:
    return tuple(_raise_sites(game))


def keys_of(game: Game) -> set[str]:
    return {key for site in raise_sites(game) for key in site.keys}


# --- for the games' own tests ------------------------------------------------------------------


def flat(out: str) -> str:
    """The output with the terminal's line wrapping undone."""
    return " ".join(out.split())


# --- keys and catalogs -------------------------------------------------------------------------


def test_every_raise_site_in_the_games_has_a_key():
    for game in games():  # _raise_sites asserts a key= on each call it finds
        sites = raise_sites(game)
        assert len(sites) >= 30, game.name  # the walk really finds the rules' refusals
        assert all(site.keys for site in sites)


def test_keys_are_stable_dotted_names():
    for game in games():
        for key in keys_of(game):
            area, dot, name = key.partition(".")
            assert dot and area and name and "." not in name, key
            assert key == key.lower() and " " not in key, key


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_has_a_text(game, lang):
    missing = {k for k in keys_of(game) if f"{game.prefix}refusal.{k}" not in catalog(lang)}
    assert missing == set(), (game.name, lang)


def test_no_refusal_text_is_left_without_a_raise_site(game):
    entry = f"{game.prefix}refusal."
    written = {k.removeprefix(entry) for k in catalog("en") if k.startswith(entry)}
    assert written - keys_of(game) == set()


@pytest.mark.parametrize("lang", LANGS)
def test_texts_render_with_the_params_of_their_raise_sites(game, lang):
    for site in raise_sites(game):
        assert site.params <= set(game.samples), f"{site.where}: add a sample for a new param"
        params = {name: game.samples[name] for name in site.params}
        for key in site.keys:
            exc = IllegalAction("X-1", "english", key=key, params=params)
            line = refusal_reason(exc, lang, game.prefix, game.values)
            assert line != "english", (site.where, key)
            assert "{" not in line and "}" not in line, (site.where, key, line)
            # and a text only asks for what its raise sites give (derived values included)
            template = catalog(lang)[f"{game.prefix}refusal.{key}"]
            assert placeholders(template) <= set(game.values(params, lang)), (site.where, key)


def test_german_texts_differ_from_the_english_ones():
    en, de = catalog("en"), catalog("de")
    same = {k for k in en if ".refusal." in f".{k}" and en[k] == de[k]}
    assert same == set()


# --- the engine's side -------------------------------------------------------------------------


def test_message_and_str_stay_english_and_positional_use_still_works():
    exc = IllegalAction("R-PLAY-5", "p3 is not another player holding cards",
                        key="steal.no-cards", params={"seat": 2})  # fmt: skip
    assert str(exc) == "R-PLAY-5: p3 is not another player holding cards"
    assert exc.message == "p3 is not another player holding cards" and exc.rule == "R-PLAY-5"
    assert exc.params == {"seat": 2}
    plain = IllegalAction("R-PLAY-5", "no")
    assert plain.key is None and plain.params == {}
