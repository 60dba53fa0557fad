"""The two builds of the rules (``apokalypse/_build.py``): this run loads the build it was asked
for, every rules module from it; a build that no longer matches the sources is never loaded (a
warning and pure Python, or a one-line error when the compiled build is forced)."""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import apokalypse
from apokalypse import _build
from apokalypse.games.apokalypse.state import State

SRC = Path(apokalypse.__file__).resolve().parent.parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
SHOW_BUILD = "import apokalypse, json; print(json.dumps(apokalypse.build_info()))"


def python(code: str, build_dir: Path | None = None, mode: str | None = None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("APOKALYPSE_")}
    if build_dir is not None:
        env["APOKALYPSE_BUILD_DIR"] = str(build_dir)
    if mode is not None:
        env["APOKALYPSE_BUILD"] = mode
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )


def test_this_run_loads_the_build_it_asked_for_every_rules_module_from_it():
    """``make test`` runs the tests once with APOKALYPSE_BUILD=compiled and the rules tests
    again with APOKALYPSE_BUILD=pure: each run checks here that it got what it asked for."""
    asked = os.environ.get("APOKALYPSE_BUILD", "auto")
    fresh, _ = _build.check(_build.build_dir())
    expected = {"pure": "pure", "compiled": "compiled"}.get(asked, "compiled" if fresh else "pure")
    assert apokalypse.build_info()["build"] == expected
    for name in _build.compiled_modules():
        module = importlib.import_module(name)
        assert module.__file__ is not None
        if expected == "compiled":
            assert module.__file__.endswith(SUFFIX), name
            assert Path(module.__file__).is_relative_to(_build.build_dir()), name
        else:
            assert module.__file__.endswith(".py"), name
            assert Path(module.__file__).is_relative_to(SRC), name
    for name in _build.LEFT_OUT[1:]:  # pure Python in both builds (see _build.py why)
        module = importlib.import_module(f"apokalypse.games.apokalypse.{name.removesuffix('.py')}")
        assert module.__file__ is not None and module.__file__.endswith(name)
    # A native class (mypyc) has C methods and a fixed attribute table; a Python class neither.
    native = hasattr(State, "__mypyc_attrs__")
    assert native == (expected == "compiled")
    assert (type(State.__dict__["apply"]).__name__ == "function") != native


def test_the_compiled_modules_depend_only_on_what_the_manifest_hashes():
    """Compiled code bakes in the types of what it imports: every module a compiled one imports
    from the package must be among the hashed sources, or editing it would not make the build
    stale."""
    hashed = set(_build.source_hashes())
    for path in _build.compiled_sources():
        assert path in hashed, path
        tree = ast.parse((SRC / path).read_text("utf-8"))
        package = path.removesuffix(".py").replace("/", ".").rsplit(".", 1)[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                name = node.module or ""
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0]
                    name = f"{base}.{name}" if name else base
                names = [name]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.split(".")[0] == "apokalypse":
                    assert name.split(".")[1] in _build.HASHED_DIRS, f"{path} imports {name}"


def test_every_rules_module_is_compiled_unless_left_out_by_name():
    """A new module in a game's folder is compiled without a change to the build."""
    games = SRC / "apokalypse" / "games"
    for path in games.glob("*/*.py"):
        name = path.relative_to(SRC).as_posix()
        assert (name in _build.compiled_sources()) == (path.name not in _build.LEFT_OUT), name
    assert "apokalypse/engine/rng.py" in _build.compiled_sources()


def fake_build(directory: Path) -> dict[str, object]:
    """A manifest that matches the sources now (the compiled files themselves are not needed
    until a module is imported)."""
    manifest = _build.current_manifest()
    manifest["library"] = "nothing__mypyc"
    manifest["modules"] = {}
    directory.mkdir(parents=True, exist_ok=True)
    (directory / _build.MANIFEST).write_text(json.dumps(manifest))
    return manifest


def test_a_stale_build_is_never_loaded(tmp_path: Path):
    """A source edited after the build (here: its recorded hash differs) makes the build stale:
    pure Python with one warning line, or a one-line error when the compiled build is forced."""
    manifest = fake_build(tmp_path)
    sources = manifest["sources"]
    assert isinstance(sources, dict)
    sources["apokalypse/games/apokalypse/state.py"] = "0" * 64
    (tmp_path / _build.MANIFEST).write_text(json.dumps(manifest))

    run = python(SHOW_BUILD, tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["build"] == "pure"
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("warning: ")
    assert "stale" in run.stderr and "games/apokalypse/state.py" in run.stderr

    forced = python(SHOW_BUILD, tmp_path, "compiled")
    assert forced.returncode == 2 and not forced.stdout
    assert forced.stderr.count("\n") == 1 and forced.stderr.startswith("error: ")
    assert "stale" in forced.stderr


def test_a_new_or_removed_source_makes_the_build_stale(tmp_path: Path):
    manifest = fake_build(tmp_path)
    sources = manifest["sources"]
    assert isinstance(sources, dict)
    del sources["apokalypse/engine/rng.py"]
    assert _build.check(tmp_path)[0] is not None  # the file on disk still says fresh
    (tmp_path / _build.MANIFEST).write_text(json.dumps(manifest))
    fresh, why = _build.check(tmp_path)
    assert fresh is None and "engine/rng.py" in why


def test_a_build_for_another_python_is_not_loaded(tmp_path: Path):
    manifest = fake_build(tmp_path)
    manifest["python"] = ".cpython-39-x86_64-linux-gnu.so"
    (tmp_path / _build.MANIFEST).write_text(json.dumps(manifest))
    fresh, why = _build.check(tmp_path)
    assert fresh is None and "cpython-39" in why


def test_without_a_build_the_pure_rules_run_silently(tmp_path: Path):
    run = python(SHOW_BUILD, tmp_path / "none")
    assert run.returncode == 0 and run.stderr == ""
    assert json.loads(run.stdout)["build"] == "pure"
    forced = python(SHOW_BUILD, tmp_path / "none", "compiled")
    assert forced.returncode == 2 and forced.stderr.count("\n") == 1
    assert "no compiled build" in forced.stderr


def test_an_unknown_build_name_is_one_line_error():
    run = python(SHOW_BUILD, mode="fast")
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert run.stderr.startswith("error: APOKALYPSE_BUILD must be one of auto, pure, compiled")


def test_the_build_can_be_forced_either_way_when_it_is_built():
    fresh, why = _build.check(_build.build_dir())
    if fresh is None:
        pytest.skip(f"no fresh compiled build here ({why}): `make` makes one")
    code = "import apokalypse.games.apokerlypse.state as m; print(m.__file__)"
    compiled = python(code, mode="compiled")
    assert compiled.returncode == 0, compiled.stderr
    assert compiled.stdout.strip().endswith(SUFFIX)
    pure = python(code, mode="pure")
    assert pure.returncode == 0 and pure.stdout.strip().endswith("state.py")


def test_a_copied_build_is_found_through_the_override(tmp_path: Path):
    """APOKALYPSE_BUILD_DIR points at another build folder (how the tests above make theirs)."""
    fresh, why = _build.check(_build.build_dir())
    if fresh is None:
        pytest.skip(f"no fresh compiled build here ({why}): `make` makes one")
    shutil.copytree(_build.build_dir(), tmp_path / "mypyc")
    run = python(SHOW_BUILD, tmp_path / "mypyc", "compiled")
    assert run.returncode == 0, run.stderr
    info = json.loads(run.stdout)
    assert info["build"] == "compiled" and info["directory"] == str(tmp_path / "mypyc")
