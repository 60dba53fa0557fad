"""The results tables' columns: those every game has, then the game's own (its collector's).

A results folder holds two tables, ``games`` (one row per game) and ``players`` (one row per
player in a game). The common columns identify the game (run, index, seed, configuration, who
played); the collector of the game (:mod:`.collect`) adds what that game's statistics need. Every
column is nullable: a failed game keeps its identity and its error, and nothing else.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

# One row of a table, column name → value, as pyarrow's ``Table.from_pylist`` takes it.
Row = dict[str, Any]

# Bumped when a column changes meaning or type: a folder of another format is refused, never mixed.
FORMAT = 1

_GAME_COMMON: list[pa.Field[Any]] = [
    pa.field("run", pa.string()),  # the run's id (run.json): rows of two runs never mix unnoticed
    pa.field("game", pa.int64()),  # index in the run; seed = the run's first seed + game
    pa.field("seed", pa.uint64()),
    pa.field("players", pa.int8()),
    pa.field("variants", pa.string()),  # sorted variant ids joined by ",", "" for none
    pa.field("deck", pa.string()),  # "default" or "sha256:<12 hex>" of a deck / content file
    pa.field("lineup", pa.string()),  # the computer player at each seat, joined by ","
    pa.field("decisions", pa.int32()),
    pa.field("error", pa.string()),  # null unless the game failed
    pa.field("winners", pa.int8()),
]
GAME_COMMON = pa.schema(_GAME_COMMON)

_PLAYER_COMMON: list[pa.Field[Any]] = [
    pa.field("run", pa.string()),
    pa.field("game", pa.int64()),
    pa.field("seed", pa.uint64()),
    pa.field("players", pa.int8()),
    pa.field("variants", pa.string()),
    pa.field("seat", pa.int8()),
    pa.field("bot", pa.string()),
    pa.field("won", pa.bool_()),
]
PLAYER_COMMON = pa.schema(_PLAYER_COMMON)


def joined(common: pa.Schema, own: pa.Schema) -> pa.Schema:
    """The common columns, then the game's own, with the format in the metadata."""
    return pa.schema([*common, *own], metadata={"apokalypse-format": str(FORMAT)})
