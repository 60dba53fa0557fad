"""Game configuration: player count, the two rule texts' variants (KV-…) and the content."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from apokalypse.engine.datafile import config_fields
from apokalypse.engine.errors import ConfigError
from apokalypse.engine.text import shown

from .content import DEFAULT_CONTENT, Content, load_content

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # K-SETUP-1
TableName = Literal["full", "short"]  # KV-TABLE: the full rules (default) or the short rules
TABLES: tuple[TableName, ...] = get_args(TableName)

# K-SCORE-2 base points by category, high card … royal flush.
BASE_POINTS: dict[TableName, tuple[int, ...]] = {
    "full": (0, 2, 5, 9, 14, 18, 25, 40, 60, 70),
    "short": (2, 5, 9, 14, 20, 25, 35, 55, 75, 95),
}
BONUS_CAP = 10  # KV-BONUS-CAP (short rules)


@dataclass(frozen=True)
class Config:
    """``players`` 2–4; ``table`` "full" or "short" (KV-TABLE); ``bonus_cap`` caps the card bonus
    at 10 (KV-BONUS-CAP); ``content`` a packaged name ("standard-2", the default; "standard", its
    first edition; "plain"; "example") or a content file's text (KD-SETUP-1), stored as given so
    that a record carries its own content. A record from before "standard" names its content
    (or, without one, was "plain")."""

    players: int = 4
    table: TableName = "full"
    bonus_cap: bool = False
    content: str = DEFAULT_CONTENT

    def __post_init__(self) -> None:
        # The fields as given (a record's config may hold anything), checked in this order.
        _players(self.players)
        _table(self.table)
        _bonus_cap(self.bonus_cap)
        _content(self.content)
        load_content(self.content)  # fail now, not mid-game: the content must parse

    @property
    def rules_content(self) -> Content:
        return load_content(self.content)

    @property
    def base_points(self) -> tuple[int, ...]:
        return BASE_POINTS[self.table]

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "table": self.table,
            "bonus_cap": self.bonus_cap,
            "content": self.content,
        }

    @classmethod
    def from_json(cls, data: object) -> Config:
        data = config_fields(data, ("players", "table", "bonus_cap", "content"))
        return cls(  # checked in the order of __post_init__
            players=_players(data.get("players", 4)),
            table=_table(data.get("table", "full")),
            bonus_cap=_bonus_cap(data.get("bonus_cap", False)),
            content=_content(data.get("content", "plain")),
        )


def _players(value: object) -> int:
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or not MIN_PLAYERS <= value <= MAX_PLAYERS
    ):
        raise ConfigError(
            f"K-SETUP-1: Apokerlypse is for {MIN_PLAYERS}–{MAX_PLAYERS} players,"
            f" not {shown(value)}"  # cut short: a record's config may hold anything
        )
    return value


def _table(value: object) -> TableName:
    if isinstance(value, str):
        for table in TABLES:
            if value == table:
                return table
    raise ConfigError("KV-TABLE: table must be 'full' or 'short'")


def _bonus_cap(value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError("KV-BONUS-CAP: bonus_cap must be true or false")
    return value


def _content(value: object) -> str:
    if not isinstance(value, str):
        raise ConfigError(
            "KD-SETUP-1: content must be a packaged name ('standard-2', 'standard', 'plain',"
            " 'example') or a file's text"
        )
    return value
