"""Two small text rules every layer shares: how a value from outside is quoted in a one-line
message, and what counts as a typed number.

>>> shown("x" * 40), shown(10**50, limit=10), ascii_number("12", 3), ascii_number("²", 3)
("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'…", '1000000000…', 12, None)
"""

from __future__ import annotations


def shown(value: object, limit: int = 30) -> str:
    """``value`` for a one-line message: its repr (escapes visible, so no control character
    reaches a screen), cut short. Text is cut before it is quoted, so the quote stays closed."""
    if isinstance(value, str):
        return repr(value) if len(value) <= limit else repr(value[:limit]) + "…"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def ascii_number(text: str, max_digits: int) -> int | None:
    """``text`` as a whole number if it is 1 to ``max_digits`` ASCII digits, else None.

    ``str.isdigit()`` also accepts ``²`` (AltGr+2 on German keyboards) and ``٣``, which
    ``int()`` refuses or reads as another digit, and ``int()`` refuses more than 4,300 digits."""
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None
