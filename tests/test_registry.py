"""A game is one registry entry (``engine/registry.py``): every part it names loads and is what
its layer expects, and no code outside a game's own modules asks which game it runs."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType

import pytest

from apokalypse.bench.engine import own_figures
from apokalypse.cli.ui import make_ui
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.registry import ENTRIES, entry, game_names, get_game, load, part
from apokalypse.sim.collect import Collector, Figures, collector_for, figures_for
from apokalypse.sim.report.generic import GENERIC, report_for
from apokalypse.sim.report.model import GameReport

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "apokalypse"
# Modules that compare with "apokalypse" meaning the program, not the game (its script's name).
THE_PROGRAM = {Path("cli/safe.py")}


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


def _own_modules() -> set[Path]:
    """The per-game modules and folders of every layer: those named after a registered game."""
    return {
        path
        for path in PACKAGE.rglob("*.py")
        if any(part in ENTRIES or part.removesuffix("_v0") in ENTRIES
               for part in path.relative_to(PACKAGE).with_suffix("").parts)
    }  # fmt: skip


def test_no_code_outside_a_game_asks_which_game_it_runs() -> None:
    """No comparison with a registered game's name outside games/ and the games' own modules: a
    third game is its entry and its modules, nothing else."""
    own = _own_modules()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "games" or path in own or relative in THE_PROGRAM:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Compare):
                names = [node.left, *node.comparators]
                if any(isinstance(n, ast.Constant) and n.value in ENTRIES for n in names):
                    found.append(f"{relative}:{node.lineno}")
    assert not found, found
