"""Reading the games' data files (decks, content) safely: whatever a file holds, the only error
is a one-line :class:`~.errors.DataFileError`."""

from __future__ import annotations

import tomllib
from collections.abc import Collection

from .errors import ConfigError, DataFileError
from .text import shown

MAX_TEXT_BYTES = 1 << 20  # 1 MiB of TOML: far above any deck or content file


def read_toml(text: str, source: str) -> dict[str, object]:
    """A data file's TOML, refusing what would crash or swamp the reader: more than 1 MiB,
    nesting deep enough for a RecursionError, integers too long for int()."""
    if len(text) > MAX_TEXT_BYTES // 4 and (
        len(text) > MAX_TEXT_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_TEXT_BYTES
    ):
        raise DataFileError(f"{source}: larger than {MAX_TEXT_BYTES >> 20} MiB")
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise DataFileError(f"{source}: not valid TOML (nested too deeply)") from None
    except ValueError as exc:  # TOMLDecodeError, and int()'s refusal of 4,300 digits
        raise DataFileError(f"{source}: not valid TOML ({exc})") from None


def config_fields(data: object, fields: Collection[str]) -> dict[str, object]:
    """A game config's JSON object (from a record or a request), refused unless it is an object
    of known ``fields`` only; unknown names are quoted, so the message stays one line."""
    if not isinstance(data, dict):
        raise ConfigError("config must be an object")
    unknown = sorted(shown(str(name)) for name in set(data) - set(fields))
    if unknown:
        raise ConfigError(f"config has unknown field(s): {', '.join(unknown)}")
    return data
