"""Typed errors. Every refusal names what was wrong; game-rule refusals also name the rule id."""

from __future__ import annotations

from collections.abc import Mapping

# What a refusal's parameters may hold: plain values, so that a refusal can be rendered (or
# sent over a wire) without knowing the engine's types.
ParamValue = str | int | None


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class Explained(EngineError):
    """An error whose reason can be translated: ``message`` is the English reason (what logs and
    tests read), ``key`` and ``params`` say the same for the catalogs, which hold a template
    under the key with ``{param}`` placeholders (:mod:`apokalypse.i18n` fills them in); without
    a key the English message is shown."""

    def __init__(
        self,
        shown: str,
        message: str,
        key: str | None = None,
        params: Mapping[str, ParamValue] | None = None,
    ) -> None:
        super().__init__(shown)
        self.message = message
        self.key = key
        # A copy, typed read-only: the caller's dict may be reused, and a reason never changes.
        self.params: Mapping[str, ParamValue] = dict(params or {})


class IllegalAction(Explained):
    """An action the rules forbid. The state is left untouched.

    ``str()`` is the rule id and the English reason; the catalogs hold the reason under
    ``refusal.<key>`` (``<game>.refusal.<key>`` for a game with its own catalog).

    >>> str(IllegalAction("R-PLAY-8", "evil Heaven needs a Netherworld card below"))
    'R-PLAY-8: evil Heaven needs a Netherworld card below'
    >>> exc = IllegalAction("R-PLAY-5", "p3 is not another player holding cards",
    ...                     key="steal.no-cards", params={"seat": 2})
    >>> str(exc), exc.key, dict(exc.params)
    ('R-PLAY-5: p3 is not another player holding cards', 'steal.no-cards', {'seat': 2})
    """

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        key: str | None = None,
        params: Mapping[str, ParamValue] | None = None,
    ) -> None:
        super().__init__(f"{rule}: {message}", message, key, params)
        self.rule = rule

    def __reduce__(self) -> tuple[object, ...]:
        # Exceptions pickle by their args; this one's constructor takes (rule, message) and two
        # keywords, so say how to rebuild it (worker processes send errors back this way).
        return (_rebuild_illegal, (self.rule, self.message, self.key, dict(self.params)))


def _rebuild_illegal(
    rule: str, message: str, key: str | None, params: dict[str, ParamValue]
) -> IllegalAction:
    return IllegalAction(rule, message, key=key, params=params)


class ProtocolError(EngineError):
    """A protocol verb asked about something the game does not have (a seat that does not
    exist, ``observation(-1)`` …)."""


class NotationError(Explained):
    """Action text that does not parse. ``str()`` is the English message; the catalogs hold it
    under ``notation.<key>`` (``<game>.notation.<key>`` for a game's own words).

    >>> exc = NotationError("'x': unknown verb 'x'", key="verb", params={"verb": "'x'"})
    >>> str(exc), exc.key, dict(exc.params)
    ("'x': unknown verb 'x'", 'verb', {'verb': "'x'"})
    """

    def __init__(
        self,
        message: str,
        *,
        key: str | None = None,
        params: Mapping[str, ParamValue] | None = None,
    ) -> None:
        super().__init__(message, message, key, params)

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_notation, (self.message, self.key, dict(self.params)))


def _rebuild_notation(
    message: str, key: str | None, params: dict[str, ParamValue]
) -> NotationError:
    return NotationError(message, key=key, params=params)


class ConfigError(EngineError):
    """An impossible game configuration (player count, unknown variant, …)."""


class DataFileError(EngineError):
    """A malformed deck or content file; the message names the entry and field."""


class RecordError(EngineError):
    """A game record that cannot be read or does not replay."""
