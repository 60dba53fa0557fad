"""``TypeVar`` with a default (PEP 696, in ``typing`` from Python 3.13) on Python 3.11 and 3.12.

Defaults matter to the type checker only: they let a bare ``GameState`` mean ``GameState[Any,
Any]``. The type checker reads ``typing_extensions``; at run time the default is dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import TypeVar as TypeVar
else:
    from typing import TypeVar as _TypeVar

    def TypeVar(name: str, *, default: object = None, **kwargs: Any) -> Any:
        return _TypeVar(name, **kwargs)
