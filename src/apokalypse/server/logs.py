"""The server's logs: one handler on stderr, as text for a terminal or JSON lines for a log
collector, every line without URL queries or token values (a seat's link holds its token)."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Literal

LogFormat = Literal["text", "json"]

# A URL's query (a seat's link holds its token there), and a token named as such anywhere.
_QUERY = re.compile(r"(?P<path>/[^\s?\"']*)\?[^\s\"']*")
_TOKEN = re.compile(r"(?P<key>token[\"']?\s*[:=]\s*[\"']?)[^\s\"'&,;)}]+", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` without URL queries or token values: ``/ws/games/x?token=…`` → ``/ws/games/x?…``."""
    text = _QUERY.sub(r"\g<path>?…", text)
    return _TOKEN.sub(r"\g<key>…", text)


class TextFormatter(logging.Formatter):
    """``LEVEL: message`` (uvicorn's terminal form, without colours), redacted."""

    def __init__(self) -> None:
        super().__init__("%(levelname)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``
    and, for an exception, ``error`` (its traceback), every text redacted."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, str] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        if record.exc_info:
            entry["error"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False)


def logging_config(log_format: LogFormat) -> dict[str, object]:
    """The ``logging.config.dictConfig`` of a server: every logger (uvicorn's, the app's, the
    libraries') through one handler on stderr in ``log_format``; uvicorn's access log off (a
    request line holds the query, a seat's token)."""
    formatter = JsonFormatter if log_format == "json" else TextFormatter
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"server": {"()": formatter}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "server",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": "WARNING"},
        "loggers": {
            "uvicorn": {"handlers": [], "propagate": True},
            "uvicorn.error": {"handlers": [], "propagate": True},
            "uvicorn.access": {"handlers": [], "propagate": False},
            "apokalypse": {"handlers": [], "propagate": True, "level": log_level(log_format)},
        },
    }


def log_level(log_format: LogFormat) -> str:
    # A terminal shows what needs attention; a log collector keeps starts, stops and
    # connections too (their addresses' queries redacted).
    return "INFO" if log_format == "json" else "WARNING"
