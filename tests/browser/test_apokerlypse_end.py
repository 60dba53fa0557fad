"""Apokerlypse's end in a real browser, in English and German: the game-over panel names the
players who ran out of chips (K-END-1), a revealed hand's value reads as a category and its
points (K-SCORE-2/3: "Pair · 4 points", never "pair 4", which reads as a pair of fours), and the
players' table says what the faction column is. A game of two computer players, played to its
end from a seeded deal; the page is the spectator's. Every wait is on the page's state."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.playing import Person, person, screenshot
from tests.server.seeded import seeded
from tests.server.served import Server

SEED = 0  # a deal on which the random players' game ends after 40 moves, a player out of chips
BROKE = {"en": "ran out of chips during dealer round", "de": "die Chips ausgegangen"}
VALUE = {  # a category, then its points
    "en": re.compile(r"— [A-Z][a-z]+( [a-z]+)* · \d+ points?$"),
    "de": re.compile(r"— [A-ZÄÖÜ]\w*( \w+)? · \d+ Punkte?$"),
}
FACTION = {"en": "Faction: dealt to each player", "de": "Fraktion: wird jedem Spieler"}


def _finished(server: Server, lang: str) -> dict[str, Any]:
    """A game of two random computer players, played to its end from a seeded deal (as the
    server plays it, ``tests/server/seeded.py``) that ends because somebody ran out of chips
    (the other end, nobody able to pay, names nobody)."""
    done = seeded(server.database_url, "apokerlypse", ["random", "random"], SEED, lang=lang)
    result = done.live.state.result
    assert result is not None and result.to_json()["reason"] == "no-chips", result
    return done.created


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
