"""Running the real command line in a subprocess, as a person's shell would."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# ``python -m`` runs the module's own entry point, as the installed ``apokalypse`` script does.
CLI = [sys.executable, "-m", "apokalypse.cli.main"]


def run(
    command: Sequence[str],
    *,
    cwd: Path | None = None,
    stdin: str = "",
    columns: int = 120,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """``command`` with piped input, UTF-8 text, no colours and a terminal ``columns`` wide."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": str(columns), "NO_COLOR": "1"}
    return subprocess.run(
        list(command),
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=env,
        timeout=timeout,
        check=False,
    )


def script_input(monkeypatch: Any, answers: Sequence[str]) -> None:
    """The terminal game in-process: ``input()`` answers with ``answers`` in turn, then EOF (the
    person closed the terminal)."""
    lines = iter(answers)

    def scripted_input(prompt: str = "") -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", scripted_input)
