"""Typed errors. Every refusal names what was wrong; game-rule refusals also name the rule id."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """An action the rules forbid. The state is left untouched.

    >>> str(IllegalAction("R-PLAY-8", "evil Heaven needs a Netherworld card below"))
    'R-PLAY-8: evil Heaven needs a Netherworld card below'
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class NotationError(EngineError):
    """Action text that does not parse."""


class ConfigError(EngineError):
    """An impossible game configuration (player count, unknown variant, …)."""


class DataFileError(EngineError):
    """A malformed deck or content file; the message names the entry and field."""


class RecordError(EngineError):
    """A game record that cannot be read or does not replay."""
