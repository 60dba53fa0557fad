"""The browser tests' own fixture: the people a test opens (each a browser context of its own on
the session's Chromium, ``browser`` in ``tests/conftest.py``), closed after the test with their
pages checked for script errors and for a token written to the console."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from .playing import Person


@pytest.fixture
def people(browser: Browser) -> Iterator[list[Person]]:
    opened: list[Person] = []
    yield opened
    for person in opened:
        person.close()
