"""Moving "my games" to a second browser with a one-time code: typed in, and by the QR code's
address (its fragment); the code fails the second time and once it expired (the server's clock,
moved forward by the test), each with the server's words; the games arrive with their seats'
links, so the second browser opens the same seat."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from apokalypse.server.transfers import LIFETIME, UNKNOWN
from tests.helpers import create
from tests.server.inprocess import AheadClock, Running, serving

from .playing import PHONE, Person, person, screenshot, seat_url


def my_games(page: Page) -> list[str]:
    """The links of "my games" as the lobby shows them."""
    items = page.locator("#my-games .game-item a")
    return sorted(items.nth(i).get_attribute("href") or "" for i in range(items.count()))


def send(page: Page, running: Running) -> str:
    """On the lobby of ``page``: the code to move its games, as shown."""
    page.goto(f"{running.http}/")
    page.locator("#move-games-send").click()
    code = page.locator("#move-code").inner_text()
    assert len(code) == 9 and code[4] == "-", code
    return code


def enter(page: Page, running: Running, code: str) -> None:
    page.goto(f"{running.http}/")
    page.locator("#move-games-add").click()
    page.locator("#move-games-code").fill(code)
    page.locator(".move-take button[type=submit]").click()


def test_my_games_move_to_another_browser_once(
    browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    with serving(f"sqlite:///{tmp_path / 'games.sqlite3'}") as running:
        clock = AheadClock()
        running.call(lambda: setattr(running.hub, "now", clock))
        mine = person(people, browser)
        for _ in range(2):  # two games opened at their seats: "my games" keeps them
            mine.goto(seat_url(running, create(running), 0))
            expect(mine.locator("body[data-move]")).to_be_attached()
        code = send(mine, running)
        expect(mine.locator("#my-games .game-item")).to_have_count(2)
        screenshot(mine, tmp_path, "move-games-code")
        wanted = my_games(mine)

        phone = person(people, browser, PHONE)
        enter(phone, running, code.lower())  # typed as it comes
        told = phone.locator("#move-games-told")
        expect(told).to_have_text("Added 2 games from the other device.")
        expect(phone.locator("#my-games .game-item")).to_have_count(2)
        assert my_games(phone) == wanted  # the same seats, tokens and all
        screenshot(phone, tmp_path, "move-games-added")
        phone.locator("#my-games .game-item a").first.click()
        expect(phone.locator("body[data-seat='0']")).to_be_attached()  # the seat, not a spectator

        again = person(people, browser)
        enter(again, running, code)
        expect(again.locator("#move-games-told")).to_contain_text(UNKNOWN)
        expect(again.locator("#my-games .game-item")).to_have_count(0)

        # the QR code's address: the code in its fragment, taken on opening, then dropped
        scanned = person(people, browser, PHONE)
        scanned.goto(f"{running.http}/#move={send(mine, running)}")
        expect(scanned.locator("#my-games .game-item")).to_have_count(2)
        assert scanned.evaluate("() => window.location.hash") == ""

        late = send(mine, running)
        clock.ahead = LIFETIME + timedelta(seconds=1)
        expired = person(people, browser)
        enter(expired, running, late)
        expect(expired.locator("#move-games-told")).to_contain_text(UNKNOWN)
        expect(expired.locator("#my-games .game-item")).to_have_count(0)
        # Leave the game page before the server stops: its reconnecting socket would make
        # Chromium log the seat's address (token and all) as a failed connection.
        phone.goto("about:blank")
