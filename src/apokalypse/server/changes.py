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

from typing import TypeAlias

# A JSON value as ``json.loads`` makes it: what a frame is, and a change is made of.
JSON: TypeAlias = "str | int | float | bool | list[JSON] | dict[str, JSON] | None"
Change = list[JSON] | dict[str, JSON]


def change(old: JSON, new: JSON) -> Change:
    """The change that makes ``new`` of ``old`` (two values that differ)."""
    if isinstance(old, dict) and isinstance(new, dict):
        keys: dict[str, JSON] = {
            key: change(old[key], value) if key in old else [value]
            for key, value in new.items()
            if key not in old or old[key] != value
        }
        dropped: list[JSON] = [key for key in old if key not in new]
        made: dict[str, JSON] = {}
        if keys:
            made["k"] = keys
        if dropped:
            made["d"] = dropped
        return made
    if isinstance(old, list) and isinstance(new, list):
        kept = min(len(old), len(new))
        items: dict[str, JSON] = {
            str(i): change(old[i], new[i]) for i in range(kept) if old[i] != new[i]
        }
        made = {}
        if len(new) < len(old):
            made["t"] = len(new)
        if items:
            made["i"] = items
        if len(new) > kept:
            made["a"] = new[kept:]
        return made
    return [new]


def applied(old: JSON, made: Change) -> JSON:
    """``old`` changed by ``made`` (a new value: ``old`` is left as it was)."""
    if isinstance(made, list):
        return made[0]
    if isinstance(old, list):
        cut = made.get("t", len(old))
        items = list(old[: cut if isinstance(cut, int) else len(old)])
        for index, inner in _parts(made, "i").items():
            items[int(index)] = applied(items[int(index)], _change(inner))
        added = made.get("a", [])
        items.extend(added if isinstance(added, list) else [])
        return items
    if not isinstance(old, dict):
        raise ValueError(f"a change of keys for a value without keys: {old!r}")
    result = dict(old)
    for name, inner in _parts(made, "k").items():
        result[name] = applied(result[name], _change(inner)) if name in result else _whole(inner)
    dropped = made.get("d", [])
    for gone in dropped if isinstance(dropped, list) else []:
        del result[str(gone)]
    return result


def _parts(made: dict[str, JSON], key: str) -> dict[str, JSON]:
    parts = made.get(key, {})
    return parts if isinstance(parts, dict) else {}


def _change(value: JSON) -> Change:
    if not isinstance(value, list | dict):
        raise ValueError(f"not a change: {value!r}")
    return value


def _whole(value: JSON) -> JSON:
    """A new key's value, which its change holds whole (``[value]``)."""
    if not isinstance(value, list) or len(value) != 1:
        raise ValueError(f"a new key's change holds its value whole: {value!r}")
    return value[0]


def frames(first: JSON, changes: list[Change]) -> list[JSON]:
    """A replay's every frame: ``first``, then each made of the one before by its change."""
    made = [first]
    for step in changes:
        made.append(applied(made[-1], step))
    return made
