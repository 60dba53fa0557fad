"""A player's view of one kind of event, typed: each game's event union has one per kind.

The rules make events as :class:`~.events.Event` (a kind and JSON-ready arguments). Each game
names every kind's arguments in its ``events`` module and puts them together as one union of
:class:`Told`, told apart by ``kind``: ``Told[Literal["attack"], Attack] | …``. The wire format
carries that union to the browser (its JSON Schema and the browser's types are made from it), and
Python code that reads one kind's arguments reads them through it.

Not compiled (like the games' ``observation`` and ``events`` modules): pydantic reads these types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar

# typing_extensions: pydantic reads these to make the wire schema, and needs its TypedDict on 3.11
from typing_extensions import ReadOnly, TypedDict

K = TypeVar("K", bound=str)  # an event's kind, as a literal
T = TypeVar("T", bound=Mapping[str, object])  # the arguments of its views


class Told(TypedDict, Generic[K, T]):
    """A player's view of one kind of event, as :meth:`.events.EventView.to_json` makes it."""

    kind: ReadOnly[K]
    args: ReadOnly[T]
    seen: ReadOnly[bool]  # True when args include the event's secret part
