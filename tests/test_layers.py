"""The layers of ARCHITECTURE.md: imports point down only. Every module of the package is read
(its ``import`` statements, relative ones resolved) and each import of another layer must be
one of the layers below it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "apokalypse"

# What each layer may import (besides itself and the package's build chooser).
BELOW: dict[str, set[str]] = {
    "engine": set(),
    "games": {"engine"},
    "bots": {"engine", "games"},
    "i18n": {"engine", "games"},
    "wire": {"engine"},
    "sim": {"engine", "games", "bots"},
    "rl": {"engine", "games", "i18n", "sim"},  # the lab's statistics for its evaluations
    "server": {"engine", "games", "bots", "i18n", "wire"},
    "cli": {"engine", "games", "bots", "i18n", "wire", "sim", "server", "rl"},
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
