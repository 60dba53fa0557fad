"""What may reach the terminal, and what counts as a number typed there.

Text from a record, a deck file or a file name is not ours: a ``\\x1b[…`` in it would recolour,
move or clear the screen, and a bidi override would reorder what people read. Rich passes such
characters through (``Text`` strips only BEL, BS, VT, FF and CR), so they are escaped before
anything is printed or handed to Rich.

Numbers are ASCII digits only: ``str.isdigit()`` also accepts ``²`` (AltGr+2 on German keyboards)
and other digits ``int()`` refuses, and ``int()`` refuses more than 4,300 digits.
"""

from __future__ import annotations

import os
import shlex
import unicodedata
from pathlib import Path

from apokalypse.engine.text import ascii_number

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
    return ascii_number(text, MAX_DIGITS)


def is_digits(text: str) -> bool:
    """ASCII digits, of any length: meant as a number, even when too long to be one."""
    return text.isascii() and text.isdigit()


def is_number_like(text: str) -> bool:
    """A signed or decimal number (``-1``, ``+2``, ``1.5``, ``2,5``): meant as a choice's number,
    though no choice has it. ASCII only, like :func:`is_digits`.

    >>> [is_number_like(t) for t in ("-1", "1.5", ",5", "1.", "pass", "1²", "-", "p2")]
    [True, True, True, True, False, False, False, False]
    """
    if not text.isascii():
        return False
    body = text[1:] if text[:1] in ("+", "-") else text
    whole, _, part = body.replace(",", ".").partition(".")
    if "." in part or not (whole or part):
        return False
    return all(p == "" or p.isdigit() for p in (whole, part))


def program_name(argv0: str, cwd: Path) -> str:
    """How the user can type the running ``apokalypse`` program from ``cwd``: the name alone
    when it was found on PATH, a path relative to ``cwd`` when it lies inside (``./apokalypse``,
    ``.venv/bin/apokalypse``), else its whole path. Started some other way (``python -m``),
    the project's ``.venv/bin/apokalypse`` when there is one, else the name alone."""
    path = Path(argv0)
    if path.name == "apokalypse":
        if os.sep not in argv0:
            return argv0  # the shell found it on PATH
        full = Path(os.path.abspath(cwd / path))
        try:
            inside = full.relative_to(os.path.abspath(cwd))
        except ValueError:
            return str(full)
        return str(inside) if os.sep in str(inside) else f".{os.sep}{inside}"
    venv = Path(".venv", "bin", "apokalypse")
    return str(venv) if (cwd / venv).exists() else "apokalypse"


def command_line(*words: str | Path) -> str:
    """A command as it can be typed into a shell: each word quoted where it needs it."""
    return " ".join(shlex.quote(str(word)) for word in words)
