"""Drawing pieces both games' boards share."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich import box
from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from apokalypse.engine.errors import IllegalAction
from apokalypse.engine.events import Event
from apokalypse.i18n import text
from apokalypse.i18n.texts import Texts


class Spoken:
    """What a game's adapter says rather than draws: its texts (``i18n/<game>/texts.py``), the
    same sentences the server sends the browser."""

    texts: Texts

    def render_events(
        self, events: Sequence[Event], seat: int | None, names: Sequence[str]
    ) -> list[str]:
        # The one place the terminal turns events into a seat's views: it shows one seat's
        # (or a spectator's) screen at a time, hot-seat games included.
        return self.texts.render_events([event.view(seat) for event in events], names)

    def refusal(self, exc: IllegalAction) -> str:
        return self.texts.refusal(exc)

    def rules(self, topic: str) -> str:
        return self.texts.rules(topic)


def recent_panel(recent: Sequence[str], lang: str) -> Panel:
    """The last events, as rendered lines, in a titled box."""
    log = Text("\n".join(recent))
    return Panel(log, title=text("ui.recent", lang), title_align="left", box=box.ROUNDED)


class Packed:
    """Renderables side by side, as many to a row as the width allows, each at its own width.

    Rich's ``Columns`` gives every item of a column the widest item's width, so one long
    display pushes all of them onto rows of their own; here each row is packed on its own."""

    def __init__(self, items: Sequence[RenderableType], gap: int = 4) -> None:
        self.items = list(items)
        self.gap = gap

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        rows: list[list[RenderableType]] = [[]]
        used = 0
        for item in self.items:
            width = Measurement.get(console, options, item).maximum
            if rows[-1] and used + self.gap + width > options.max_width:
                rows.append([])
                used = 0
            used += (self.gap if rows[-1] else 0) + width
            rows[-1].append(item)
        for row in rows:
            grid = Table.grid(padding=(0, self.gap))
            for _ in row:
                grid.add_column(vertical="top")
            grid.add_row(*row)
            yield grid


class Pause:
    """A summary drawing worth a pause: the terminal shows it and waits for Enter, so that a
    person can read it before the game goes on (a horseman's ride)."""

    def __init__(self, drawing: RenderableType) -> None:
        self.drawing = drawing

    def __rich__(self) -> RenderableType:
        return self.drawing
