"""Drawing pieces both games' boards share."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.panel import Panel
from rich.text import Text

from apokalypse.i18n import text


def recent_panel(recent: Sequence[str], lang: str) -> Panel:
    """The last events, as rendered lines, in a titled box."""
    log = Text("\n".join(recent))
    return Panel(log, title=text("ui.recent", lang), title_align="left", box=box.ROUNDED)
