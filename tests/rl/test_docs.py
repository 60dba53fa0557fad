"""The examples of docs/rl.md run as printed (all but the two-minute training, which
tests/rl/test_train.py runs through its command on a tiny budget)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.commands import CLI, run

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


@pytest.mark.long(26)
def test_the_guide_examples_run_in_order(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text("utf-8"), re.S)
    assert len(blocks) == 4
    namespace: dict[str, Any] = {}
    ran = 0
    for block in blocks:
        if "train(" in block:
            continue
        exec(compile(block, str(DOCS), "exec"), namespace)  # the guide's own code, as printed
        ran += 1
    assert ran == 3
    out = capsys.readouterr().out
    replayed = run([*CLI, "replay", str(tmp_path / "game.json"), "--verify"])
    assert replayed.returncode == 0, replayed.stderr
    seat = namespace["state"].current_player()
    assert out.strip() == namespace["state"].information_state_string(seat)
    assert namespace["action"] in namespace["state"].legal_actions()
