"""The type of a value whose type depends on which game runs, for code that runs any game.

A game types its own values exactly: an Apokalypse state is a
``GameState[apokalypse.Action, apokalypse.Observation]``, its observations and event arguments
are its own ``TypedDict``\\ s and literals. Code that runs a game chosen at run time (the
commands, the server, the lab, the learning interfaces) meets the same values without knowing
the game: it writes ``GameState``, ``Game``, ``Match`` or ``Player`` plain, reads an event's
arguments (whose shape depends on the game and on the event's kind), a result's or a record's
JSON. Python's types cannot say "the action type of whichever game this is" (an existential
type), so there such a value is :data:`Erased`, and the reader checks what it reads.

mypy refuses an explicit ``Any`` in the engine, the games, the wire and the server modules that
pyproject.toml lists (``disallow_any_explicit``); this alias is the one ``Any`` written there,
and it is used only for the values above: the defaults of the protocols' type variables
(:mod:`.protocol`, :mod:`.match`, :mod:`.features`), an event's arguments (:mod:`.events`), a
result's JSON and a record's ``meta`` (:mod:`.record`). Everything else names its type.
"""

from __future__ import annotations

from typing import Any, TypeAlias

Erased: TypeAlias = Any  # type: ignore[explicit-any]  # the one Any: see the module's docstring
