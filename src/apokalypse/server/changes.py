"""A replay's steps as what changed: each frame told as its change from the frame before.

Two frames of one viewer differ in little (the move number, a display, that step's events), so a
replay sends its first frame whole and every later one as a :func:`change` from the frame before,
and the page rebuilds each frame by :func:`applied` (``web/src/replay/frames.ts`` does the same).
A change is made of the two frames alone, both the viewer's own: it tells nothing the frames do
not.

A change of one JSON value into another is

- ``[value]``: the new value whole (a one-item array: a patch is never an array);
- for two objects, ``{"k": {key: change}, "d": [key, …]}``: the keys whose values changed, each
  with its change (a new key's is its value whole), and the keys dropped;
- for two arrays, ``{"t": length, "i": {"index": change}, "a": [item, …]}``: cut to ``length``
  (when shorter), the items changed by index, the items added at the end.

Parts with nothing in them are left out. Values that are equal have no change at all.
"""

from __future__ import annotations

from typing import Any

Change = list[Any] | dict[str, Any]


def change(old: Any, new: Any) -> Change:
    """The change that makes ``new`` of ``old`` (two values that differ)."""
    if isinstance(old, dict) and isinstance(new, dict):
        keys = {
            key: change(old[key], value) if key in old else [value]
            for key, value in new.items()
            if key not in old or old[key] != value
        }
        dropped = [key for key in old if key not in new]
        made: dict[str, Any] = {}
        if keys:
            made["k"] = keys
        if dropped:
            made["d"] = dropped
        return made
    if isinstance(old, list) and isinstance(new, list):
        kept = min(len(old), len(new))
        items = {str(i): change(old[i], new[i]) for i in range(kept) if old[i] != new[i]}
        made = {}
        if len(new) < len(old):
            made["t"] = len(new)
        if items:
            made["i"] = items
        if len(new) > kept:
            made["a"] = new[kept:]
        return made
    return [new]


def applied(old: Any, made: Change) -> Any:
    """``old`` changed by ``made`` (a new value: ``old`` is left as it was)."""
    if isinstance(made, list):
        return made[0]
    if isinstance(old, list):
        items = list(old[: made.get("t", len(old))])
        for index, inner in made.get("i", {}).items():
            items[int(index)] = applied(items[int(index)], inner)
        items.extend(made.get("a", ()))
        return items
    result = dict(old)
    for key, inner in made.get("k", {}).items():
        result[key] = applied(result[key], inner) if key in result else inner[0]
    for key in made.get("d", ()):
        del result[key]
    return result


def frames(first: Any, changes: list[Change]) -> list[Any]:
    """A replay's every frame: ``first``, then each made of the one before by its change."""
    made = [first]
    for step in changes:
        made.append(applied(made[-1], step))
    return made
