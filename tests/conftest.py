"""The fixtures every part of the suite shares: one real ``apokalypse serve`` process per test
session (under pytest-xdist, per worker), started the first time a test asks for it, and
Chromium. Starting a server costs seconds and a browser more; a fresh game per test costs
milliseconds, so tests share these and make their own games. A test that kills, restarts or
reconfigures a server starts its own (``fresh_server`` in ``tests/server/conftest.py``, or
``serving`` in-process).

The helpers the tests call by name live in modules of their own (``tests/helpers.py``,
``tests/server/served.py``, ``tests/browser/playing.py``); no test module imports a fixture from
another.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from apokalypse.server import pages
from tests.browser.playing import CHROMIUM, CHROMIUM_ARGS, chromium
from tests.server.served import APOKALYPSE, Server, started
from tests.services import missing

# The shared server's allowance of games made at once: many tests make games from one address
# (127.0.0.1) on it; the allowance itself is tested on servers of its own (test_hardening).
SHARED_CREATE_BURST = "10000"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first, longest first (``@pytest.mark.long(seconds)``: about what it took
    in a CI run), then the rest in their order. pytest-xdist hands a quarter of the tests out at
    once, round the workers, and the rest as workers come free: a long test collected late would
    start near the end and keep the run going on its own."""

    def took(item: pytest.Item) -> float:
        mark = item.get_closest_marker("long")
        return -float(mark.args[0]) if mark is not None else 0.0

    items.sort(key=took)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One ``apokalypse serve`` for the session over an SQLite file: its computers decide without
    a pause, in games a person follows too, and it answers a person's forced questions after a
    short one (tests wait on the server, not on people following the play)."""
    assert APOKALYPSE.exists(), APOKALYPSE
    database = tmp_path_factory.mktemp("server") / "db.sqlite3"
    options = (
        *("--computer-pace", "0", "--computer-delay", "0", "--answer-delay", "0.05", "0.3"),
        *("--create-burst", SHARED_CREATE_BURST),
    )
    with started(Server(database, *options)) as running:
        yield running
    assert "Traceback" not in running.errors(), running.errors()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, driven by Playwright; each person opens a context of their own. One
    for each module, not the session: Playwright's synchronous API keeps an asyncio loop running
    on the test's thread while it is open, and a later test of the session that runs a loop of
    its own (``asyncio.run``) would fail; a launch costs about a second."""
    if not CHROMIUM.exists():  # skipped with the reason; failed under REQUIRE_SERVICES=1
        missing(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    if not (pages.DIST / "game.html").is_file():
        pytest.fail(f"{pages.DIST} is missing: build the pages with `make web`")
    with chromium(CHROMIUM, CHROMIUM_ARGS) as launched:
        yield launched
