"""Build the compiled rules: mypyc turns the rules modules into C, gcc into extension modules.

    .venv/bin/python scripts/build_compiled.py        # what ``make`` runs

The extensions go to ``build/mypyc/`` (git-ignored), never into ``src/``: a source file edited
after the build can then never be shadowed by an old ``.so``. ``build/mypyc/manifest.json``
records the hashes of the sources the build was made from; ``apokalypse/_build.py`` loads the
compiled modules only while those hashes still match (see there). Which modules are compiled:
:func:`apokalypse._build.compiled_sources`. A build that still matches the sources is kept
(``--force`` builds anyway).

No C compiler: one line says the build is skipped and the pure-Python package is used (exit 0;
with ``REQUIRE_COMPILED`` set, as CI does, exit 1).
``MYPYC_OPT_LEVEL`` (default 2) is gcc's -O level; ``BUILD_JOBS`` (default: the number of
cores) how many gcc processes run at once. The build is made in a new folder and moved into
place in one rename, so a process starting meanwhile sees the old build or the new, whole.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
# The build step must not pick a build of the package it is about to replace, nor warn that
# the one it replaces is stale.
os.environ["APOKALYPSE_BUILD"] = "pure"
sys.path.insert(0, str(SRC))

from apokalypse import _build  # noqa: E402

# mypyc.build still imports distutils on Python 3.11 (only for compiler detection, unused here).
warnings.filterwarnings("ignore", "The distutils", DeprecationWarning)

GROUP = "apokalypse_rules"  # the shared library's name: one library for every compiled module


def note(message: str) -> None:
    print(f"build_compiled: {message}", file=sys.stderr)


def compiler() -> list[str] | None:
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if not cc or shutil.which(cc[0]) is None:
        return None
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        return None
    return cc


def generate_c(target: Path) -> list[Path]:
    """mypyc's front end: type-check and write the C files of one group into ``target``."""
    from mypyc.build import mypyc_build
    from mypyc.common import RUNTIME_C_FILES
    from mypyc.options import CompilerOptions

    options = CompilerOptions(
        multi_file=True,  # one C file per module: gcc runs on them in parallel
        target_dir=str(target),
        group_name=GROUP,
        include_runtime_files=False,
    )
    paths = [str(SRC / path) for path in _build.compiled_sources()]
    mypy_args = ["--config-file", str(ROOT / "pyproject.toml")]
    mypy_args += ["--cache-dir", str(target / "mypy_cache")]
    groups, cfiles, _deps = mypyc_build(mypy_args + paths, options, separate=False)
    assert len(groups) == 1 and groups[0][1] == GROUP, groups
    runtime = Path(include_dir())
    sources = [Path(c) for c in cfiles[0][0]]
    for name in RUNTIME_C_FILES:  # mypyc's runtime, compiled into the same library
        shutil.copy(runtime / name, target / name)
        sources.append(target / name)
    return sources


def include_dir() -> str:
    from mypyc.build import include_dir as mypyc_include_dir

    return mypyc_include_dir()


def shim(module: str, target: Path) -> Path:
    """The small extension module that imports ``module`` from the shared library."""
    from mypyc.build import generate_c_extension_shim

    return Path(generate_c_extension_shim(module, module.rsplit(".", 1)[-1], str(target), GROUP))


def run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"build_compiled: failed: {shlex.join(command)}")


def build(out: Path, cc: list[str], opt_level: str, jobs: int) -> None:
    from mypyc.build import get_cflags

    csrc = out / "c"
    started = time.perf_counter()
    sources = generate_c(csrc)
    shims = [shim(module, csrc) for module in _build.compiled_modules()]
    generated = time.perf_counter()
    cflags = shlex.split(sysconfig.get_config_var("CFLAGS") or "")
    cflags += shlex.split(sysconfig.get_config_var("CCSHARED") or "")
    cflags += get_cflags(compiler_type="unix", opt_level=opt_level, multi_file=True)
    includes = [f"-I{include_dir()}", f"-I{csrc}", f"-I{sysconfig.get_paths()['include']}"]

    def compile_one(source: Path) -> Path:
        obj = source.with_suffix(".o")
        run([*cc, *cflags, *includes, "-c", str(source), "-o", str(obj)])
        return obj

    # The biggest files first, so that the last one to finish is a small one.
    order = sorted(sources + shims, key=lambda p: p.stat().st_size, reverse=True)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        objects = dict(zip(order, pool.map(compile_one, order), strict=True))
    compiled = time.perf_counter()

    ldshared = shlex.split(sysconfig.get_config_var("LDSHARED") or "cc -shared")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    lib = out / "lib"
    lib.mkdir()
    run(
        [*ldshared, *(str(objects[s]) for s in sources), "-o", str(lib / f"{GROUP}__mypyc{suffix}")]
    )
    for module, shim_c in zip(_build.compiled_modules(), shims, strict=True):
        so = lib.joinpath(*module.split(".")).with_name(module.rsplit(".", 1)[-1] + suffix)
        so.parent.mkdir(parents=True, exist_ok=True)
        run([*ldshared, str(objects[shim_c]), "-o", str(so)])
    linked = time.perf_counter()

    manifest = _build.current_manifest()
    manifest["library"] = f"{GROUP}__mypyc"
    manifest["modules"] = {
        module: str(Path(*module.split(".")).with_name(module.rsplit(".", 1)[-1] + suffix))
        for module in _build.compiled_modules()
    }
    manifest["opt_level"] = opt_level
    (out / _build.MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    shutil.rmtree(csrc)  # 40 MB of C, objects and mypy cache: not needed to run
    note(
        f"compiled {len(manifest['modules'])} modules with -O{opt_level}, {jobs} jobs: "
        f"mypyc {generated - started:.0f} s, gcc {compiled - generated:.0f} s, "
        f"link {linked - compiled:.1f} s"
    )


def missing_tools() -> str | None:
    """Why the build cannot be made here, or None."""
    if compiler() is None:
        return "no C compiler or Python headers here"
    try:  # mypyc's build helpers import distutils: on Python 3.12+ only setuptools brings it
        import mypyc.build  # noqa: F401
    except ImportError as exc:
        return f"mypyc's build helpers cannot be imported ({exc})"
    return None


def main() -> int:
    missing = missing_tools()
    if missing is not None:
        if os.environ.get("REQUIRE_COMPILED"):  # CI: both builds are tested, or the run fails
            note(f"{missing}, and REQUIRE_COMPILED is set")
            return 1
        note(f"{missing}: skipped, the pure-Python rules are used")
        return 0
    cc = compiler()
    assert cc is not None
    opt_level = os.environ.get("MYPYC_OPT_LEVEL", "2")
    jobs = int(os.environ.get("BUILD_JOBS") or os.cpu_count() or 1)
    final = _build.build_dir()
    manifest, _ = _build.check(final)
    if (
        manifest is not None
        and manifest.get("opt_level") == opt_level
        and "--force" not in sys.argv
    ):
        # Only the sources' times changed (a checkout, an edit undone): make's stamp moves on.
        (final / _build.MANIFEST).touch()
        note("the compiled build matches the sources: kept")
        return 0
    final.parent.mkdir(parents=True, exist_ok=True)
    new = final.with_name(f"{final.name}.new-{os.getpid()}")
    old = final.with_name(f"{final.name}.old-{os.getpid()}")
    try:
        build(new, cc, opt_level, jobs)
        if final.exists():
            final.rename(old)
        new.rename(final)
    finally:
        shutil.rmtree(new, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
