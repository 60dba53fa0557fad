"""Finding rule ids in tests: a test names the rule it checks in its name or its docstring."""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Iterable


def named_in(modules: Iterable[str]) -> str:
    """Test names (as ids: ``test_r_play_8_x`` → ``R-PLAY-8-X``) and docstrings of ``modules``."""
    text = []
    for module in modules:
        mod = importlib.import_module(module)
        for name, fn in inspect.getmembers(mod, inspect.isfunction):
            if name.startswith("test_"):
                text.append(name[5:].upper().replace("_", "-"))
                text.append(fn.__doc__ or "")
    return "\n".join(text)


def names(rule: str, text: str) -> bool:
    """Whether ``text`` names ``rule`` (R-PLAY-1 is not named by R-PLAY-10)."""
    return re.search(rf"(?<![A-Z0-9-]){re.escape(rule)}(?![0-9])", text) is not None
