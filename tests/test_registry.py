"""A game is one registry entry (``engine/registry.py``): every part it names loads and is what
its layer expects, no code outside a game's own modules asks which game it runs, and no module is
found by a name made from the game's at run time (the entry names it)."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType
from typing import get_args

import pytest

from apokalypse.bench.engine import own_figures
from apokalypse.bots import bots_for
from apokalypse.bots.learned import BASE, layout_of, packaged_path, value_module
from apokalypse.bots.levels import Budget, searching
from apokalypse.cli.ui import make_ui
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.registry import ENTRIES, Part, entry, game_names, get_game, load, part
from apokalypse.i18n.texts import texts_for
from apokalypse.server.tutorial import GUIDES, TUTORIALS
from apokalypse.server.tutorial.guide import Guide
from apokalypse.sim.collect import Collector, Figures, collector_for, figures_for
from apokalypse.sim.report.generic import GENERIC, report_for
from apokalypse.sim.report.model import GameReport
from apokalypse.wire import state_adapter, views

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "apokalypse"
# Modules that use "apokalypse" meaning the program, not the game: its script's name, and its
# package's logger.
THE_PROGRAM = {Path("cli/safe.py"), Path("server/logs.py")}
# The one place that imports a module named at run time: the registry's load(), by the entry.
LOADER = Path("engine/registry.py")


@pytest.mark.parametrize("name", game_names())
def test_every_part_of_an_entry_loads_as_its_layer_expects(name: str) -> None:
    game = entry(name)
    rules = get_game(name)
    assert rules.name == name
    assert set(game.bench.players) <= set(range(rules.players[0], rules.players[1] + 1))
    assert rules.players[0] <= game.learning.players <= rules.players[1]
    config = rules.config_from_options(game.learning.players, [], None)
    assert make_ui(name, config.to_json(), "en").help()
    assert issubclass(collector_for(name), Collector)
    assert issubclass(figures_for(name), Figures)
    assert isinstance(report_for(name), GameReport)
    figures = own_figures(name)
    assert figures is None or all(len(figure) == 3 for figure in figures.FIGURES)
    if game.beliefs is not None:
        assert callable(load(game.beliefs))


@pytest.mark.parametrize("name", game_names())
def test_the_players_of_an_entry(name: str) -> None:
    """``bots`` maps names to factories of players; a game with a heuristic has the levels,
    whose search is the entry's ``searcher``, scored by its ``value`` inputs."""
    own = part(name, "bots")
    assert own is None or isinstance(own, dict)
    players = bots_for(name)
    for bot, make in (own or {}).items():
        assert players[bot] is make and callable(make(1).choose)
    if own is None or "heuristic" not in own:
        return
    assert {"easy", "medium", "hard", "expert", "master"} <= set(players)
    assert callable(part(name, "searcher"))
    assert callable(searching(name, 1, Budget(iterations=1)).choose)
    rules = get_game(name)
    config = rules.config_from_options(entry(name).learning.players, [], None)
    assert isinstance(part(name, "value"), ModuleType)
    assert layout_of(rules, config).extras[-1] == BASE  # the value module's inputs
    assert callable(value_module(name).base)
    assert packaged_path(name).is_file()  # the master level's weights, beside the value module


@pytest.mark.parametrize("name", game_names())
def test_the_texts_and_wire_format_of_an_entry(name: str) -> None:
    rules = get_game(name)
    config = rules.config_from_options(entry(name).learning.players, [], None).to_json()
    assert isinstance(part(name, "texts"), type)
    texts = texts_for(name, config, "en")
    assert texts.lang == "en" and texts.rules("")
    module = views(name)
    assert module is part(name, "wire")
    assert callable(module.seat_views)
    assert state_adapter(name).json_schema()["type"] == "object"


@pytest.mark.parametrize("name", game_names())
def test_the_guided_game_of_an_entry(name: str) -> None:
    """The guide is a Guide and the prepared deal a game its rules make; the server serves the
    entry's, nothing of its own."""
    deal = entry(name).tutorial
    if deal is None:
        assert name not in GUIDES and name not in TUTORIALS
        return
    guide = part(name, "guide")
    assert isinstance(guide, Guide) and GUIDES[name] is guide and guide.topics
    rules = get_game(name)
    assert rules.players[0] <= deal.players <= rules.players[1]
    config = rules.config_from_options(deal.players, list(deal.variants), None)
    assert rules.new_game(config, deal.seed).observation(0)
    served = TUTORIALS[name]
    assert (served.game, served.players, served.seed) == (name, deal.players, deal.seed)
    assert served.variants == deal.variants


@pytest.mark.parametrize("which", get_args(Part))
def test_every_part_is_named_by_some_game(which: Part) -> None:
    """part() knows every part, and some registered game has each: the tests of an entry's
    parts above are not passed by games that all leave one out."""
    if which == "environment":
        pytest.importorskip("pettingzoo")  # the learning interfaces are an extra (rl)
    assert any(part(name, which) is not None for name in game_names())


@pytest.mark.parametrize("name", game_names())
def test_the_learning_module_of_an_entry(name: str) -> None:
    pytest.importorskip("pettingzoo")
    module = part(name, "environment")
    assert isinstance(module, ModuleType)
    assert callable(module.env) and callable(module.raw_env)


def test_unknown_games_get_one_line_or_the_generic_parts() -> None:
    with pytest.raises(ConfigError, match="unknown game 'chess'"):
        entry("chess")
    with pytest.raises(ConfigError, match="cannot show 'chess' games"):
        make_ui("chess", {}, "en")
    # a results folder of a game this version does not know still reads and reports
    assert collector_for("chess") is Collector and figures_for("chess") is Figures
    assert report_for("chess") is GENERIC
    for unknown in (
        lambda: bots_for("chess"),
        lambda: texts_for("chess", {}, "en"),
        lambda: views("chess"),
    ):
        with pytest.raises(ConfigError, match="unknown game 'chess' \\(known: apokalypse, "):
            unknown()


def _own_modules() -> set[Path]:
    """The per-game modules and folders of every layer: those named after a registered game."""
    return {
        path
        for path in PACKAGE.rglob("*.py")
        if any(part in ENTRIES or part.removesuffix("_v0") in ENTRIES
               for part in path.relative_to(PACKAGE).with_suffix("").parts)
    }  # fmt: skip


def test_no_code_outside_a_game_asks_which_game_it_runs() -> None:
    """No comparison with a registered game's name, and no table keyed by one, outside games/
    and the games' own modules: a third game is its entry and its modules, nothing else."""
    own = _own_modules()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "games" or path in own or relative in THE_PROGRAM:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Compare):
                names = [node.left, *node.comparators]
            elif isinstance(node, ast.Dict):
                names = [key for key in node.keys if key is not None]
            else:
                continue
            if any(isinstance(n, ast.Constant) and n.value in ENTRIES for n in names):
                found.append(f"{relative}:{node.lineno}")
    assert not found, found


# The calls that find a module or a package's files by name.
FINDERS = {"import_module", "__import__", "files"}


def names_made_at_run_time(source: str) -> list[int]:
    """The lines that import a module (or open a package's files) by a name put together at run
    time, an f-string, a ``+``, ``%`` or ``.format``: a game's part found by convention from its
    name (``f"apokalypse.bots.{game}"``) where its registry entry should name it."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        called = node.func
        name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", None)
        argument = node.args[0]
        formatted = (
            isinstance(argument, ast.Call)
            and isinstance(argument.func, ast.Attribute)
            and argument.func.attr == "format"
        )
        if name in FINDERS and (isinstance(argument, ast.JoinedStr | ast.BinOp) or formatted):
            found.append(node.lineno)
    return sorted(found)


def test_no_part_of_a_game_is_found_by_its_name() -> None:
    """Only the registry imports what an entry names: nowhere else is a module's name made from
    a game's (a third game's modules may live anywhere its entry says)."""
    found = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE) != LOADER
        for line in names_made_at_run_time(path.read_text("utf-8"))
    ]
    assert not found, found


def test_the_scan_finds_a_name_made_at_run_time() -> None:
    """The scan above sees the ways a module's name is made from a game's, and lets a fixed
    name (a lazy import of one module) and a package's own files be."""
    made = """
import importlib
from importlib import import_module, resources
a = import_module(f"{__name__}.{game}").BOTS
b = importlib.import_module("apokalypse.wire." + game)
c = resources.files(f"apokalypse.bots.{game}")
d = import_module("apokalypse.i18n.{}.texts".format(game))
e = __import__("apokalypse.bots.%s" % game)
"""
    assert names_made_at_run_time(made) == [4, 5, 6, 7, 8]
    fixed = """
from importlib import import_module, resources
a = import_module("apokalypse.bots")
b = resources.files(__package__)
"""
    assert names_made_at_run_time(fixed) == []
