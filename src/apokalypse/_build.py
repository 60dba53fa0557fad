"""Which build of the rules runs: compiled by mypyc, or pure Python.

The rules modules (:func:`compiled_sources`) can be compiled with mypyc into extension modules
(``make`` does it, ``scripts/build_compiled.py``). The extensions live outside the package, in
``build/mypyc/``, with a manifest of the hashes of the sources they were made from: the
package imports them only while every hash still matches, so an edited source is never
shadowed by old compiled code. The choice is made once, in ``apokalypse/__init__.py``, before
any rules module is imported; ``APOKALYPSE_BUILD`` forces it:

- ``auto`` (the default): compiled when a build exists and matches the sources, else pure
  Python — with one warning line on stderr when a build exists but is stale;
- ``pure``: the ``.py`` files, whatever is built;
- ``compiled``: the compiled build, or a one-line error (exit status 2) when there is none or it
  is stale.

:func:`apokalypse.build_info` tells which build was loaded and why. ``APOKALYPSE_BUILD_DIR`` points
at another build folder than ``build/mypyc`` (the tests use it for stale and missing builds).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE = Path(__file__).resolve().parent
MANIFEST = "manifest.json"
MODES = ("auto", "pure", "compiled")

# The compiled modules: engine/rng.py, engine/events.py and every module of every game in
# games/ but these (a new rules module is compiled unless it is named here):
# - the package ``__init__`` (the registry glue, run once per game; compiled, the package itself
#   would live in build/ and its data files, read with importlib.resources, would follow it);
# - ``config.py``: a Config is checked field by field in ``__post_init__`` so that a wrong type
#   from JSON or a caller is a ConfigError naming the rule; a compiled dataclass checks the
#   annotations first and raises TypeError. It is made once per game, so nothing is lost;
# - ``observation.py``: TypedDicts only, nothing to run; compiled, they become typing.TypedDict,
#   which pydantic refuses on Python 3.11 when it builds the wire schema;
# - ``forecast.py``: its dataclasses are the wire schema's Forecast; compiled, their annotations
#   read as erased runtime types (``tuple[int, int]`` as ``type``), which pydantic cannot describe.
ENGINE_COMPILED = ("engine/rng.py", "engine/events.py")
LEFT_OUT = ("__init__.py", "config.py", "observation.py", "forecast.py", "events.py")
# What compiled code depends on: the compiled sources and every module they can import (the
# rules import only engine/). A change to any of these makes the build stale.
HASHED_DIRS = ("engine", "games")

_info: dict[str, Any] = {"build": "pure", "reason": "not chosen yet"}


def compiled_sources() -> list[str]:
    """The compiled modules' files, relative to src/."""
    paths = [f"apokalypse/{name}" for name in ENGINE_COMPILED]
    for game in sorted((PACKAGE / "games").glob("*/__init__.py")):
        paths += sorted(
            path.relative_to(PACKAGE.parent).as_posix()
            for path in game.parent.glob("*.py")
            if path.name not in LEFT_OUT
        )
    return paths


def compiled_modules() -> list[str]:
    return [path.removesuffix(".py").replace("/", ".") for path in compiled_sources()]


def build_dir() -> Path:
    """``build/mypyc`` beside ``src/`` (an installed package has none: pure Python)."""
    override = os.environ.get("APOKALYPSE_BUILD_DIR")
    return Path(override) if override else PACKAGE.parent.parent / "build" / "mypyc"


def source_hashes() -> dict[str, str]:
    hashes: dict[str, str] = {}
    for top in HASHED_DIRS:
        for path in sorted((PACKAGE / top).rglob("*.py")):
            name = path.relative_to(PACKAGE.parent).as_posix()
            hashes[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return hashes


def current_manifest() -> dict[str, Any]:
    """What a build made now from these sources for this Python would record."""
    return {
        "python": importlib.machinery.EXTENSION_SUFFIXES[0],
        "compiled": compiled_sources(),
        "sources": source_hashes(),
    }


def check(directory: Path) -> tuple[dict[str, Any] | None, str]:
    """(the manifest, "") when the build in ``directory`` matches the sources, else (None, why)."""
    try:
        manifest = json.loads((directory / MANIFEST).read_text("utf-8"))
    except FileNotFoundError:
        return None, f"no compiled build in {directory} (run `make`)"
    except (OSError, ValueError) as exc:
        return None, f"unreadable build manifest {directory / MANIFEST}: {exc}"
    now = current_manifest()
    if manifest.get("python") != now["python"]:
        return None, f"the compiled build is for {manifest.get('python')}, not this Python"
    if manifest.get("compiled") != now["compiled"] or manifest.get("sources") != now["sources"]:
        built = manifest.get("sources", {})
        changed = sorted(
            name
            for name in built.keys() | now["sources"].keys()
            if built.get(name) != now["sources"].get(name)
        )
        return (
            None,
            f"the compiled build is stale ({', '.join(changed[:3]) or 'module list'} changed)",
        )
    return manifest, ""


class CompiledFinder:
    """Finds the compiled modules (and their shared library) in the build folder."""

    def __init__(self, lib: Path, modules: dict[str, str]) -> None:
        self.lib = lib
        self.modules = modules

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        relative = self.modules.get(fullname)
        if relative is None:
            return None
        location = str(self.lib / relative)
        loader = importlib.machinery.ExtensionFileLoader(fullname, location)
        return importlib.util.spec_from_file_location(fullname, location, loader=loader)


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def select() -> None:
    """Choose the build, once, before any rules module is imported."""
    global _info
    if any(isinstance(finder, CompiledFinder) for finder in sys.meta_path):
        return
    mode = os.environ.get("APOKALYPSE_BUILD", "auto").strip().lower() or "auto"
    if mode not in MODES:
        fail(f"APOKALYPSE_BUILD must be one of {', '.join(MODES)}, not {mode!r}")
    directory = build_dir()
    if mode == "pure":
        _info = {"build": "pure", "reason": "APOKALYPSE_BUILD=pure"}
        return
    manifest, why = check(directory)
    if manifest is None:
        if mode == "compiled":
            fail(f"APOKALYPSE_BUILD=compiled, but {why}")
        stale = (directory / MANIFEST).exists()
        if stale and not os.environ.get("APOKALYPSE_STALE_WARNED"):
            print(f"warning: {why}: running the pure-Python rules", file=sys.stderr)
            # Once per run: the commands this process starts inherit the note.
            os.environ["APOKALYPSE_STALE_WARNED"] = "1"
        _info = {"build": "pure", "reason": why}
        return
    modules: dict[str, str] = dict(manifest["modules"])
    library = manifest["library"]
    modules[library] = library + importlib.machinery.EXTENSION_SUFFIXES[0]
    sys.meta_path.insert(0, CompiledFinder(directory / "lib", modules))
    _info = {
        "build": "compiled",
        "reason": f"mypyc build in {directory} matches the sources",
        "modules": len(manifest["modules"]),
        "directory": str(directory),
    }


def build_info() -> dict[str, Any]:
    """Which build of the rules this process runs: ``{"build": "compiled" | "pure", ...}``,
    and whether the modules loaded so far agree with it."""
    info = dict(_info)
    rules = sys.modules.get("apokalypse.games.apokalypse.state")
    if rules is not None:
        info["state_module"] = rules.__file__
    return info
