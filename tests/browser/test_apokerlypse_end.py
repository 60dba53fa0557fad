"""Apokerlypse's end in a real browser, in English and German: the game-over panel names the
players who ran out of chips (K-END-1), a revealed hand's value reads as a category and its
points (K-SCORE-2/3: "Pair · 4 points", never "pair 4", which reads as a pair of fours), and the
players' table says what the faction column is. Games of two computer players run to their end
on the server; the page is the spectator's. Every wait is on the page or the server's answer."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.playing import Person, person, screenshot
from tests.helpers import create
from tests.server.served import Server

GAMES = 8  # games made at most until one ends by a player running out of chips
DEADLINE = 60.0  # seconds for a game of two computer players to end (it takes a few)
BROKE = {"en": "ran out of chips in dealer round", "de": "Keine Chips mehr in Geberrunde"}
VALUE = {  # a category, then its points
    "en": re.compile(r"— [A-Z][a-z]+( [a-z]+)* · \d+ points?$"),
    "de": re.compile(r"— [A-ZÄÖÜ]\w*( \w+)? · \d+ Punkte?$"),
}
FACTION = {"en": "Faction: dealt to each player", "de": "Fraktion: wird jedem Spieler"}


def _finished(server: Server, lang: str) -> dict[str, Any]:
    """A game of two random computer players, played to its end, that ended because somebody
    ran out of chips (the other end, nobody able to pay, names nobody)."""
    for _ in range(GAMES):
        created = create(
            server, game="apokerlypse", players=2, seats=["random", "random"], lang=lang
        )
        summary: dict[str, Any] = {}
        deadline = time.monotonic() + DEADLINE
        while not summary.get("over"):
            assert time.monotonic() < deadline, f"game {created['id']} did not end"
            response = httpx.get(f"{server.http}/api/games/{created['id']}", timeout=10.0)
            summary = response.json()
            if not summary.get("over"):
                time.sleep(0.1)  # polling the server's answer, with the deadline above
        if summary["result"]["reason"] == "no-chips":
            return created
    pytest.fail(f"none of {GAMES} games ended by a player running out of chips")


def _broke_names(page: Page) -> list[str]:
    """Who ran out, as the state the page received says, by the names the page shows."""
    names: list[str] = page.evaluate(
        """() => {
            const state = window.apokalypse.state();
            return (state.observation.result.broke || []).map((q) => state.names[q]);
        }"""
    )
    return names


@pytest.mark.parametrize("lang", ["en", "de"])
def test_k_end_1_the_end_names_who_ran_out_and_hands_read_as_points(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path, lang: str
) -> None:
    created = _finished(server, lang)
    page = person(people, browser)
    page.goto(f"{server.http}/games/{created['id']}")  # the spectator's page
    expect(page.locator("#final-reveal")).to_be_visible()
    broke = _broke_names(page)
    assert broke, "a game that ended by running out of chips names who did"
    reason = page.locator("#end-reason")
    expect(reason).to_contain_text(BROKE[lang])
    for name in broke:
        expect(reason).to_contain_text(name)
        # The log's game-over line, rendered by the server from the event, names them too.
        expect(page.locator("#log")).to_contain_text(name)

    values = page.locator(".revealed-hand .hand-value")
    expect(values.first).to_be_visible()
    for value in values.all_inner_texts():
        assert VALUE[lang].search(value.strip()), value
        assert not re.search(r"(?i)\bpair \d", value), value

    header = page.locator("table.poker-players th[title]")
    expect(header).to_have_count(1)
    assert FACTION[lang] in (header.get_attribute("title") or "")
    expect(page.locator("#faction-help")).to_contain_text(FACTION[lang])
    screenshot(page, tmp_path, f"apokerlypse-end-{lang}")
