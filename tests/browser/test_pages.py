"""The browser pages in a real browser: Debian's Chromium driven by Playwright against the real
``apokalypse serve`` process. The lobby creates games, the game page plays them by clicking the
server's legal actions, a spectator sees the public view, refusals show their rule and reason."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.server.test_app import TIMEOUT, Server
from tests.server.test_app import server as server  # the same fixture: one real server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WAIT_MS = 10_000  # every wait in the browser; a healthy page answers in milliseconds
# Screenshots go to each test's tmp dir; set APOKALYPSE_SCREENS=DIR to keep copies to look at.
SCREENS = os.environ.get("APOKALYPSE_SCREENS")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():  # a real browser or no test: never skipped quietly
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(WAIT_MS)
    opened = context.new_page()
    console: list[str] = []
    opened.on("console", lambda message: console.append(message.text))
    opened.on("pageerror", lambda error: console.append(f"page error: {error}"))
    try:
        yield opened
    finally:
        context.close()
    assert not any(text.startswith("page error") for text in console), console
    assert not any("token" in text for text in console), console


def screenshot(page: Page, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if SCREENS:
        Path(SCREENS).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(SCREENS) / f"{name}.png")


def create(server: Server, **body: Any) -> dict[str, Any]:
    request = {"game": "apokalypse", "players": 2, "seats": ["human", "heuristic"], **body}
    response = httpx.post(f"{server.http}/api/games", json=request, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    return created


def move(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-move") or "-1")


def wait_for_state(page: Page) -> int:
    page.wait_for_selector("body[data-move]")
    return move(page)


def click_actions(page: Page, decisions: int) -> int:
    """Click a legal action (plays before passes) ``decisions`` times; the last move shown."""
    for _ in range(decisions):
        buttons = page.locator("#actions button.action")
        if buttons.count() == 0:
            break
        texts = [buttons.nth(i).get_attribute("data-action") or "" for i in range(buttons.count())]
        choice = next((t for t in texts if t != "pass"), "pass")
        before = move(page)
        page.locator(f'#actions button[data-action="{choice}"]').click()
        page.wait_for_function(f"Number(document.body.dataset.move) > {before}")
    return move(page)


def test_lobby_seat_and_spectator(server: Server, page: Page, browser: Browser, tmp_path: Path):
    page.goto(f"{server.http}/")
    page.select_option("#game", "apokalypse")
    page.select_option("#players", "2")
    expect(page.locator("#seats select")).to_have_count(2)
    page.select_option("#seats select[data-seat='0']", "human")
    page.select_option("#seats select[data-seat='1']", "heuristic")
    page.click("#create-button")
    expect(page.locator("a.seat-link")).to_have_count(1)  # one human seat: one invite link
    seat_link = page.locator("a.seat-link").get_attribute("href") or ""
    spectator_link = page.locator("#spectator-link").get_attribute("href") or ""
    assert "/games/" in seat_link and "?token=" in seat_link
    assert spectator_link.endswith(seat_link.split("/games/")[1].split("?")[0])
    screenshot(page, tmp_path, "lobby")
    token = seat_link.split("token=")[1]

    page.click("#open-seat")
    first = wait_for_state(page)
    expect(page.locator(".display")).to_have_count(2)
    for seat in range(2):
        rows = page.locator(f".display[data-seat='{seat}'] tr.row")
        expect(rows).to_have_count(3)
        assert [r.get_attribute("data-plane") for r in rows.all()] == ["heaven", "earth", "nether"]
    expect(page.locator(".display .side-label.good").first).to_contain_text("Good")
    expect(page.locator(".display .side-label.evil").first).to_contain_text("Evil")
    assert page.locator("#hand li.card").count() > 0
    card = page.locator("#hand li.card").first  # named from the card facts, not by its code
    assert card.inner_text() not in ("", card.get_attribute("data-code"))
    expect(page.locator("#ethos")).to_be_visible()
    assert page.locator("#actions button.action").count() > 0
    assert token not in page.content()  # the token stays in the address, not in the page

    last = click_actions(page, 6)
    assert last > first + 6, "the computer player answered"
    expect(page.locator("#log li", has_text="p2").first).to_be_attached()  # the bot's sentences
    screenshot(page, tmp_path, "game")

    spectator = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        spectator.set_default_timeout(WAIT_MS)
        spectator.goto(spectator_link)
        assert wait_for_state(spectator) == last
        expect(spectator.locator(".display")).to_have_count(2)
        expect(spectator.locator(".display tr.row")).to_have_count(6)
        expect(spectator.locator("#hand")).to_have_count(0)
        expect(spectator.locator("button.action")).to_have_count(0)
        expect(spectator.locator("#actions-box")).to_be_hidden()
        expect(spectator.locator("#whoami")).to_contain_text("Spectator")
        assert token not in spectator.content()
        # the spectator follows the game as it goes on
        later = click_actions(page, 1)
        spectator.wait_for_function(f"Number(document.body.dataset.move) === {later}")
        screenshot(spectator, tmp_path, "spectator")
    finally:
        spectator.close()


def test_a_german_game_shows_refusals(server: Server, page: Page, tmp_path: Path) -> None:
    created = create(server, lang="de")
    game_id, token = created["id"], created["seats"][0]["token"]
    page.goto(f"{server.http}/games/{game_id}?token={token}")
    shown = wait_for_state(page)
    expect(page.locator(".display .plane.heaven").first).to_have_text("Himmel")
    # the question, in German, as the terminal asks it
    expect(page.locator("#actions-title")).to_contain_text("Du bist am Zug")

    page.evaluate("([a, m]) => window.apokalypse.send(a, m)", ["pass", shown + 100])
    expect(page.locator("#refusal")).to_be_visible()
    expect(page.locator("#refusal")).to_contain_text("Diese Aktion antwortet auf Zug")

    buttons = page.locator("#actions button.action")
    legal = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
    illegal = next(a for a in ("decline", "steal p2", "back") if a not in legal)
    page.evaluate("([a, m]) => window.apokalypse.send(a, m)", [illegal, shown])
    expect(page.locator("#refusal .reason")).to_contain_text("Nicht erlaubt")
    rule = page.locator("#refusal").get_attribute("data-rule") or ""
    assert rule.startswith("R-"), rule
    expect(page.locator("#refusal")).to_contain_text(rule)
    screenshot(page, tmp_path, "refusal-de")

    assert click_actions(page, 1) > shown  # nothing changed: the game goes on
    expect(page.locator("#refusal")).to_be_hidden()


def test_an_apokerlypse_game(server: Server, page: Page, tmp_path: Path) -> None:
    page.goto(f"{server.http}/")
    page.select_option("#game", "apokerlypse")
    expect(page.locator("#players option")).to_have_count(3)  # 2–4 players
    page.select_option("#players", "2")
    page.select_option("#seats select[data-seat='1']", "random")
    page.click("#create-button")
    expect(page.locator("a.seat-link")).to_have_count(1)
    page.click("#open-seat")
    first = wait_for_state(page)
    assert page.locator("#hand li.card").count() >= 5
    labels = page.locator("#hand li.card").all_inner_texts()
    assert all(label[-1] in "♠♥♦♣" for label in labels), labels  # "10♥", not "Th"
    expect(page.locator("#pot")).to_contain_text("Pot")
    expect(page.locator(".counts")).to_contain_text("Chips")
    assert page.locator("#actions button.action").count() > 0
    screenshot(page, tmp_path, "apokerlypse")
    assert click_actions(page, 3) > first


def test_a_wrong_link_says_so(server: Server, page: Page) -> None:
    page.goto(f"{server.http}/games/nothing-here")
    expect(page.locator("#refusal")).to_contain_text("There is no such game.")
    game_id = create(server)["id"]
    page.goto(f"{server.http}/games/{game_id}?token=not-a-seat")
    expect(page.locator("#refusal")).to_contain_text("This link opens no seat of this game.")
    expect(page.locator("button.action")).to_have_count(0)
