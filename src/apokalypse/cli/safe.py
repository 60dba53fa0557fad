"""What may reach the terminal, and what counts as a number typed there.

Text from a record, a deck file or a file name is not ours: a ``\\x1b[…`` in it would recolour,
move or clear the screen, and a bidi override would reorder what people read. Rich passes such
characters through (``Text`` strips only BEL, BS, VT, FF and CR), so they are escaped before
anything is printed or handed to Rich.

Numbers are ASCII digits only: ``str.isdigit()`` also accepts ``²`` (AltGr+2 on German keyboards)
and other digits ``int()`` refuses, and ``int()`` refuses more than 4,300 digits.
"""

from __future__ import annotations

import unicodedata

MAX_DIGITS = 9  # more than any choice list, seat or player count; far below int()'s limit


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _unsafe(char: str, keep_newlines: bool) -> bool:
    if char == "\n":
        return not keep_newlines
    # Cc: C0/C1 controls and DEL; Cf: bidi overrides, zero-width marks; Zl/Zp: line breaks.
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every control character shown as an escape (``\\x1b``, ``\\u202e``).

    >>> printable("v1\\x1b[31m red")
    'v1\\\\x1b[31m red'
    >>> printable("two\\nlines"), printable("two\\nlines", keep_newlines=True)
    ('two\\\\x0alines', 'two\\nlines')
    """
    if text.isprintable() and "\n" not in text:  # the usual case, without a loop
        return text
    return "".join(_escape(char) if _unsafe(char, keep_newlines) else char for char in text)


def whole_number(text: str) -> int | None:
    """``text`` as a non-negative number if it is 1–:data:`MAX_DIGITS` ASCII digits, else None.

    >>> whole_number("12"), whole_number("²"), whole_number("1" * 10), whole_number("-1")
    (12, None, None, None)
    """
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text)
    return None


def is_digits(text: str) -> bool:
    """ASCII digits, of any length: meant as a number, even when too long to be one."""
    return text.isascii() and text.isdigit()
