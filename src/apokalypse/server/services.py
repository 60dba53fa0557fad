"""What every room of a server shares: the store, the fan-out, the settings, the metrics, the
computers' and the coach's pools, and the clocks (:class:`apokalypse.server.hub.Hub` holds one)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .computers import ComputerPool
from .days import Now, utc_now
from .fanout import Fanout
from .metrics import Metrics
from .settings import Settings
from .store import Store

if TYPE_CHECKING:  # pushes.py reads the rooms, which read these services
    from .pushes import Pushes


@dataclass(eq=False)
class Services:
    store: Store
    fanout: Fanout | None  # None: one process alone
    settings: Settings
    metrics: Metrics
    computers: ComputerPool  # the computer players' decisions (computers.py)
    coach: ComputerPool  # the coach, in a process of its own (never the computers' pool)
    coached: Counter[str] = field(default_factory=Counter)  # coach questions by address
    pushes: Pushes | None = None  # Web Push (pushes.py): told of each change this process makes
    now: Now = utc_now  # the time turn-based deadlines are kept in (a test moves it)
    # The seconds idle games, turn timers, automatic answers and a connection's paces are
    # timed in: a test moves a clock of its own instead of waiting them out or racing them.
    # Their waits sleep real seconds, and look at it again.
    clock: Callable[[], float] = time.monotonic
