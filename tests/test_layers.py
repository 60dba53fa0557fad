"""The layers of docs/design.md: imports point down only. Every module of the
package is read (its ``import`` statements, relative ones resolved) and each import of another
layer must be one of the layers below it. Within a layer, no two modules import each other,
however indirectly, not even from inside a function."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "apokalypse"

# What each layer may import (besides itself and the package's build chooser).
BELOW: dict[str, set[str]] = {
    "engine": set(),
    "games": {"engine"},
    "bots": {"engine", "games"},
    "i18n": {"engine", "games"},
    "wire": {"engine", "games", "i18n"},  # a seat view: observation, event views, sentences
    "sim": {"engine", "games", "bots"},
    "rl": {"engine", "games", "i18n", "sim"},  # the lab's statistics for its evaluations
    "server": {"engine", "games", "bots", "i18n", "wire"},
    # the benchmarks measure the layers below them (server's included, under load)
    "bench": {"engine", "games", "bots", "i18n", "wire", "sim", "server", "rl"},
    "cli": {"engine", "games", "bots", "i18n", "wire", "sim", "server", "rl", "bench"},
}


def imported_layers(path: Path) -> set[str]:
    parts = path.relative_to(PACKAGE).parts
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against the module's own package
                package = ["apokalypse", *parts[: len(parts) - node.level]]
                names = [".".join(package + ([node.module] if node.module else []))]
            else:
                names = [node.module or ""]
        for name in names:
            pieces = name.split(".")
            if pieces[0] == "apokalypse" and len(pieces) > 1:
                found.add(pieces[1])
    return found


def test_imports_point_down_only() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if len(parts) == 1:  # the package's own __init__ and build chooser
            continue
        layer = parts[0]
        allowed = BELOW[layer] | {layer, "_build"}
        wrong += [f"{path.relative_to(PACKAGE)} imports {other}" for other in
                  sorted(imported_layers(path) - allowed)]  # fmt: skip
    assert not wrong, wrong


def test_the_reader_resolves_relative_imports() -> None:
    """``from .runner import …`` in sim/ and ``from .simulate import …`` in cli/ are found as
    the layers they reach (a check that missed relative imports would pass on anything)."""
    module = PACKAGE / "sim" / "runner.py"
    assert "bots" in imported_layers(module) and "cli" not in imported_layers(module)
    assert imported_layers(PACKAGE / "cli" / "simulate.py") >= {"sim", "engine", "bots"}


# --- no import cycles ---------------------------------------------------------------------------


def module_name(path: Path) -> str:
    """``games/apokalypse/state.py`` → ``apokalypse.games.apokalypse.state`` (a package's
    ``__init__`` is the package)."""
    parts = ["apokalypse", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_only(tree: ast.Module) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:``: imports for the type checker, never run."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            skip.update(id(inner) for branch in node.body for inner in ast.walk(branch))
    return skip


def imports_that_run(source: str, name: str, is_package: bool, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that module ``name`` imports when it runs: every import
    statement, at module level or inside a function (one there only postpones the cycle it
    would close), but none under ``if TYPE_CHECKING:``. ``from x import y`` imports ``x.y``
    where that is a module, else ``x``."""
    tree = ast.parse(source)
    skip = _type_only(tree)
    package = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against the module's own package
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return (found & modules) - {name}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Import cycles, each as the path round it: a depth-first walk finds at least one in every
    group of modules that import each other."""
    found: list[list[str]] = []
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path = [start]
        walk = [sorted(graph[start])]  # per module on the path: what it imports, still to see
        while walk:
            if not walk[-1]:
                done.add(path.pop())
                walk.pop()
                continue
            nxt = walk[-1].pop()
            if nxt in path:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in done:
                path.append(nxt)
                walk.append(sorted(graph[nxt]))
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    modules = set(paths)
    return {
        name: imports_that_run(path.read_text("utf-8"), name, path.name == "__init__.py", modules)
        for name, path in paths.items()
    }


def test_no_import_cycles() -> None:
    """A cycle makes the import order matter and hides which module is built on which: the
    Apokalypse rules, for one, run data (``board``) ← rules ← turns (``state``)."""
    assert not cycles(import_graph())


def test_the_cycle_check_sees_imports_inside_functions() -> None:
    """An import postponed into a function still closes a cycle; one for the type checker only
    does not (a check that missed either would pass on anything, or on nothing)."""
    modules = {"p.a", "p.b", "p.c"}
    a = "from . import b\n"
    b = "def f():\n    from .a import x\n"
    c = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n"
    graph = {
        "p.a": imports_that_run(a, "p.a", False, modules),
        "p.b": imports_that_run(b, "p.b", False, modules),
        "p.c": imports_that_run(c, "p.c", False, modules),
    }
    assert graph == {"p.a": {"p.b"}, "p.b": {"p.a"}, "p.c": set()}
    assert cycles(graph) == [["p.a", "p.b", "p.a"]]
    state = import_graph()["apokalypse.games.apokalypse.state"]
    assert {"apokalypse.games.apokalypse.board", "apokalypse.games.apokalypse.secrecy"} <= state
