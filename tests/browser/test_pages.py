"""The browser pages in a real browser: Debian's Chromium driven by Playwright against the real
``apokalypse serve`` process, playing as a person would: the lobby creates games, cards are played
by clicking them and the places that light up on the displays, a horseman's ride shows its panel,
the page survives a reload, a friend joins by invite link, a spectator sees no hand, refusals show
their rule, a phone-sized screen and the keyboard alone can play, and both games end in their
final reveal. Every wait is on the page's state (``data-move`` and friends), never a sleep."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    ViewportSize,
    expect,
    sync_playwright,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from apokalypse.server import pages
from tests.conftest import create
from tests.server.test_app import Server
from tests.server.test_app import server as server  # the same fixture: one real server
from tests.services import missing

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
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
# Screenshots go to each test's tmp dir; set APOKALYPSE_SCREENS=DIR to keep copies to look at.
SCREENS = os.environ.get("APOKALYPSE_SCREENS")
READY = "document.body.dataset.deciding === 'yes' || document.body.dataset.over === 'yes'"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():  # skipped with the reason; failed under REQUIRE_SERVICES=1
        missing(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    if not (pages.DIST / "game.html").is_file():
        pytest.fail(f"{pages.DIST} is missing: build the pages with `make web`")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


class Person:
    """One person's browser (its own context: its own storage, like a friend's computer); every
    page it opens is checked for script errors and for a token written to the console."""

    def __init__(self, browser: Browser, viewport: ViewportSize) -> None:
        self.context: BrowserContext = browser.new_context(viewport=viewport)
        self.context.set_default_timeout(WAIT_MS)
        self.console: list[str] = []
        self.page = self.context.new_page()
        self.page.on("console", lambda message: self.console.append(message.text))
        self.page.on("pageerror", lambda error: self.console.append(f"page error: {error}"))

    def close(self) -> None:
        self.context.close()
        assert not any(text.startswith("page error") for text in self.console), self.console
        assert not any("token" in text for text in self.console), self.console


@pytest.fixture
def people(browser: Browser) -> Iterator[list[Person]]:
    opened: list[Person] = []
    yield opened
    for person in opened:
        person.close()


def person(people: list[Person], browser: Browser, viewport: ViewportSize = DESKTOP) -> Page:
    one = Person(browser, viewport)
    people.append(one)
    return one.page


def screenshot(page: Page, tmp_path: Path, name: str, full_page: bool = True) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    if SCREENS:
        Path(SCREENS).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(SCREENS) / f"{name}.png")


def seat_url(server: Server, created: dict[str, Any], seat: int) -> str:
    return f"{server.http}/games/{created['id']}?token={created['seats'][seat]['token']}"


def move(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-move") or "-1")


def over(page: Page) -> bool:
    return page.locator("body").get_attribute("data-over") == "yes"


def ready(page: Page) -> None:
    """Wait until the page asks this seat to decide, or the game is over."""
    page.wait_for_selector("body[data-move]")
    page.wait_for_function(f"() => ({READY})")


def after(page: Page, before: int) -> None:
    """Wait until the game has gone on past ``before`` and this seat decides again (or it ended)."""
    page.wait_for_function(f"() => Number(document.body.dataset.move) > {before} && ({READY})")


def close_ride(page: Page, shots: Path | None = None, keyboard: bool = False) -> int | None:
    """Close a horseman's ride panel if one is open (a screenshot of it into ``shots``); the
    horseman's number, or None. The panel names every player with their reckoning."""
    panel = page.locator("#ride-panel[open]")
    if panel.count() == 0:
        return None
    number = int(panel.get_attribute("data-horseman") or "0")
    players = page.locator(".display").count()
    expect(panel.locator(".ride-table tbody tr")).to_have_count(players)
    expect(panel.locator(".ride-banner")).to_be_visible()
    if shots is not None:
        screenshot(page, shots, f"ride-{number}", full_page=False)
    if keyboard:
        page.keyboard.press("Escape")
    else:
        page.click("#ride-continue")
    expect(page.locator("#ride-panel")).to_have_count(0)
    return number


def lit_as_legal(page: Page) -> None:
    """What lights up on the table is the seat's legal actions laid out from their parts: every
    lit card, place and player sends a legal action's text, and every legal action that names a
    card or a seat lights up somewhere; every legal action is a choice, worded by the server."""
    state = page.evaluate("window.apokalypse.state()")
    legal: list[dict[str, Any]] = state["legal"]
    texts = [a["text"] for a in legal]
    assert all(isinstance(t, str) and t for t in texts) and len(set(texts)) == len(texts), legal
    assert len(state["text"]["choices"]) == len(legal), state["text"]
    lit: set[str] = set()
    for element in page.locator(".target[data-action], .target[data-actions]").all():
        for attribute in ("data-action", "data-actions"):
            lit.update(a for a in (element.get_attribute(attribute) or "").split("|") if a)
    assert lit <= set(texts), (lit, texts)
    placed = {a["text"] for a in legal if "card" in a or "seat" in a}
    assert placed <= lit, (placed, lit)
    choices = page.locator("#choices button.choice")
    assert [b.get_attribute("data-action") for b in choices.all()] == texts


def click_decision(page: Page) -> str:
    """Take this seat's decision by clicking on the table as a person would: a lit place on a
    display, else a lit card in the hand (then one of its uses), else a lit player, else a choice
    (not passing while something else is possible). What was clicked, as its action text."""
    lit_as_legal(page)
    if page.locator("#answering").count():
        # A question with one answer that the server gives for this seat by itself, a moment
        # later (the page says so): a person waits, and a click could land as it is answered.
        return "allow"
    for selector in (".display .cell.target", "#hand .hand-card.target", ".player-row.target"):
        lit = page.locator(selector)
        if lit.count() == 0:
            continue
        target = lit.first
        action = target.get_attribute("data-action") or target.get_attribute("data-actions") or ""
        press(target)
        if "|" in action:  # a card with several uses: pick the first once they are offered
            expect(page.locator("#cancel-pick")).to_be_visible()
            use = page.locator("#choices button.choice").first
            action = use.get_attribute("data-action") or ""
            use.click()
        return action
    return choose(page, prefer_pass=False)


def press(target: Locator) -> None:
    """Click ``target`` as a person would. Playwright first waits until it stops moving; on a
    starved machine a page that keeps settling (marks landing, a clock ticking) can keep a lit
    place from ever holding still for two frames in a row, and a person clicks it all the same."""
    try:
        target.click(timeout=5_000)
    except PlaywrightTimeoutError as error:
        if "not stable" not in str(error):
            raise
        target.click(force=True)


def choose(page: Page, prefer_pass: bool) -> str:
    """Click one of the choices: ``pass`` (or ``decline``) first when ``prefer_pass``."""
    buttons = page.locator("#choices button.choice")
    actions = [buttons.nth(i).get_attribute("data-action") or "" for i in range(buttons.count())]
    assert actions, "a deciding seat is offered choices"
    quiet = [a for a in actions if a in ("pass", "decline", "stand", "pay")]
    busy = [a for a in actions if a not in ("pass", "decline")]
    action = (quiet or actions)[0] if prefer_pass else (busy or actions)[0]
    page.locator(f'#choices button.choice[data-action="{action}"]').click()
    return action


def play(
    page: Page, decisions: int, prefer_pass: bool = False, shots: Path | None = None
) -> list[int]:
    """Take up to ``decisions`` decisions (stopping when the game ends); the horsemen that rode."""
    rides: list[int] = []
    for _ in range(decisions):
        ready(page)
        ridden = close_ride(page, shots)
        if ridden is not None:
            rides.append(ridden)
        if over(page):
            break
        before = move(page)
        if prefer_pass:
            choose(page, prefer_pass=True)
        else:
            click_decision(page)
        after(page, before)
    return rides


def test_a_game_from_the_lobby_to_the_final_reveal(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    page = person(people, browser)
    page.goto(f"{server.http}/")
    page.locator("label.game-option", has_text="Apokalypse").click()
    page.select_option("#players", "2")
    expect(page.locator("#seats select")).to_have_count(2)
    page.select_option("#seats select[data-seat='0']", "human")
    page.select_option("#seats select[data-seat='1']", "heuristic")
    page.click("#create-button")
    expect(page.locator("a.seat-link")).to_have_count(1)  # one human seat: one invite link
    seat_link = page.locator("a.seat-link").get_attribute("href") or ""
    spectator_link = page.locator("#spectator-link").get_attribute("href") or ""
    game_id = seat_link.split("/games/")[1].split("?")[0]
    assert "?token=" in seat_link and spectator_link.endswith(f"/games/{game_id}")
    expect(page.locator(f"#my-games li[data-id='{game_id}']")).to_contain_text("running")
    screenshot(page, tmp_path, "lobby")
    token = seat_link.split("token=")[1]

    page.click("#open-seat")
    ready(page)
    expect(page.locator(".display")).to_have_count(2)
    for seat in range(2):  # three rows, good left, evil right, the sides named
        bands = page.locator(f".display[data-seat='{seat}'] .plane-band")
        assert [b.get_attribute("data-plane") for b in bands.all()] == ["heaven", "earth", "nether"]
    expect(page.locator(".display .side-label.good").first).to_contain_text("Good")
    expect(page.locator(".display .side-label.evil").first).to_contain_text("Evil")
    expect(page.locator("#ethos")).to_be_visible()
    card = page.locator("#hand .hand-card").first  # named from the card facts, not by its code
    assert card.inner_text().strip() not in ("", card.get_attribute("data-code"))
    card.hover()  # the card's help: its name and what it does
    code = card.get_attribute("data-code") or ""
    expect(page.locator("#card-help")).to_have_attribute("data-code", code)
    expect(page.locator(".deck-above").first).to_be_visible()  # cards until the horseman
    assert token not in page.content()  # the token stays in the address, not in the page

    # A card from the hand, then a place that lit up on a display.
    first = move(page)
    rides = play(page, 6, shots=tmp_path)
    assert move(page) > first + 6, "the computer player answered"
    bot = page.locator("#log li", has_text="Heuristic (computer)")  # the bot's sentences
    expect(bot.first).to_be_attached()
    screenshot(page, tmp_path, "game")

    # Pass until a horseman rides: its panel shows every display's protection and reckoning.
    while not rides:
        assert not over(page)
        rides += play(page, 1, prefer_pass=True, shots=tmp_path)
    assert rides[0] == 1, rides

    # A reload mid-game: the same move, the same seat; the old ride stays behind its button.
    shown = move(page)
    page.reload()
    ready(page)
    assert move(page) == shown
    expect(page.locator("#ride-panel")).to_have_count(0)
    page.click("#last-ride")
    expect(page.locator("#ride-panel")).to_be_visible()
    page.click("#ride-continue")

    # To the end: every ethos turned over, the totals, the winners and why.
    for _ in range(400):
        if over(page):
            break
        rides += play(page, 1, prefer_pass=True)
    if 4 not in rides:  # Death's ride ends the game: its panel opens with the final reveal
        page.wait_for_selector("#ride-panel[open]")
        rides.append(close_ride(page) or 0)
    assert 4 in rides, rides  # Death rode last
    reveal = page.locator("#final-reveal")
    expect(reveal).to_be_visible()
    expect(reveal.locator(".reveal")).to_have_count(2)
    for seat in range(2):
        assert reveal.locator(f".reveal[data-seat='{seat}']").get_attribute("data-ethos") in (
            "good",
            "evil",
        )
    expect(reveal.locator(".verdict")).not_to_be_empty()
    screenshot(page, tmp_path, "final")

    # A rematch: a new game with the same seats, this seat's link opens it.
    page.click("#rematch")
    link = page.locator("#rematch-link")
    expect(link).to_be_visible()
    href = link.get_attribute("href") or ""
    assert "/games/" in href and game_id not in href and f"token={token}" in href
    page.goto(f"{server.http}/")
    expect(page.locator(f"#my-games li[data-id='{game_id}']")).to_contain_text("finished")


def test_a_friend_joins_by_invite_link_and_a_spectator_watches(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = create(server, players=3, seats=["human", "human", "heuristic"])
    me, friend = person(people, browser), person(people, browser)
    me.goto(seat_url(server, created, 0))
    friend.goto(seat_url(server, created, 1))
    me.wait_for_selector("body[data-move]")  # either of them may start
    friend.wait_for_selector("body[data-move]")
    expect(me.locator("#whoami")).to_have_text("Seat 1")
    expect(friend.locator("#whoami")).to_have_text("Seat 2")
    friend_dot = me.locator(".player[data-seat='1'] .seat-dot")  # as the others see the friend
    expect(friend_dot).to_have_attribute("data-state", "connected")

    spectator = person(people, browser)
    spectator.goto(f"{server.http}/games/{created['id']}")
    spectator.wait_for_selector("body[data-move]")
    expect(spectator.locator("#whoami")).to_have_text("Spectator")
    expect(spectator.locator(".display")).to_have_count(3)
    expect(spectator.locator("#hand")).to_have_count(0)
    expect(spectator.locator("#spectator-note")).to_be_visible()
    expect(spectator.locator("#choices")).to_have_count(0)
    watched = move(spectator)

    # Both people play: whoever is asked decides, by clicking on the table.
    decided = {0: 0, 1: 0}
    current = move(me)
    for _ in range(40):
        if min(decided.values()) >= 2:
            break
        # The bot answers at once, so a person decides next: me, or the friend (whose turn I
        # see, or whose defence I do not: a defence window is the asked person's secret).
        me.wait_for_function(
            f"() => Number(document.body.dataset.move) >= {current}"
            " && (document.body.dataset.deciding === 'yes'"
            " || ['', '1'].includes(document.body.dataset.toAct))"
        )
        seat = 0 if me.locator("body").get_attribute("data-deciding") == "yes" else 1
        page = me if seat == 0 else friend
        page.wait_for_function(
            f"() => Number(document.body.dataset.move) >= {current}"
            " && document.body.dataset.deciding === 'yes'"
        )
        close_ride(page)
        current = move(page)
        click_decision(page)
        page.wait_for_function(f"() => Number(document.body.dataset.move) > {current}")
        current = move(page)
        decided[seat] += 1
    assert min(decided.values()) >= 2, decided
    # the spectator follows the game (not move by move: a defence window's answers are secret)
    spectator.wait_for_function(f"() => Number(document.body.dataset.move) > {watched}")
    assert friend.locator("#hand .hand-card").count() + me.locator("#hand .hand-card").count() > 0
    screenshot(friend, tmp_path, "friend")
    screenshot(spectator, tmp_path, "spectator")

    # The friend leaves (and says so in the dialog): a computer plays their seat until they
    # take it back.
    friend.click("#leave")
    friend.click("#leave-confirm")
    expect(friend_dot).to_have_attribute("data-state", "away")
    friend.click("#reclaim")
    expect(friend_dot).to_have_attribute("data-state", "connected")


def test_a_german_game_shows_refusals_with_their_rule(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = create(server, lang="de")
    page = person(people, browser)
    page.goto(seat_url(server, created, 0))
    ready(page)
    shown = move(page)
    expect(page.locator(".display .setup.plane-heaven").first).to_have_text("Himmel")
    expect(page.locator("#question")).to_contain_text("Du bist am Zug")  # the terminal's question

    page.evaluate("([a, m]) => window.apokalypse.send(a, m)", ["pass", shown + 100])
    expect(page.locator("#refusal")).to_contain_text("Diese Aktion antwortet auf Zug")

    legal = [b.get_attribute("data-action") for b in page.locator("#choices button.choice").all()]
    illegal = next(a for a in ("decline", "steal p2", "give violence") if a not in legal)
    page.evaluate("([a, m]) => window.apokalypse.send(a, m)", [illegal, shown])
    expect(page.locator("#refusal .reason")).to_contain_text("Nicht erlaubt")
    rule = page.locator("#refusal").get_attribute("data-rule") or ""
    assert rule.startswith("R-"), rule
    expect(page.locator("#refusal .rule-id")).to_have_text(rule)
    screenshot(page, tmp_path, "refusal-de")

    page.click("#rules-button")  # the rules in short, from the server, in German
    expect(page.locator("#rules .rules-book")).to_have_attribute("data-loaded", "yes")
    expect(page.locator("#rules .rules-section h3").first).to_have_text("Das Ziel")
    page.keyboard.press("Escape")
    expect(page.locator("#rules")).to_have_count(0)

    play(page, 1)  # nothing changed: the game goes on, and the refusal is gone
    expect(page.locator("#refusal")).to_have_count(0)


def test_a_phone_and_the_keyboard_alone(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    timer = {"turn": 300, "bank": 60}  # a clock on every decision of a person
    created = create(server, players=3, seats=["human", "random", "heuristic"], timer=timer)
    page = person(people, browser, PHONE)
    page.goto(seat_url(server, created, 0))
    ready(page)
    expect(page.locator("#clock")).to_be_visible()
    expect(page.locator("#clock")).to_have_attribute("data-seat", "0")  # the deciding seat: mine
    expect(page.locator("#clock .time")).to_contain_text(":")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"
    screenshot(page, tmp_path, "phone")

    # Tab to something lit (a choice, a hand card, a place) and press Enter or Space.
    decisions = 0
    for key in ("Enter", " ", "Enter", " "):
        ready(page)
        if over(page):
            break
        if close_ride(page, keyboard=True) is not None:
            continue
        before = move(page)
        for _ in range(80):
            page.keyboard.press("Tab")
            focused = page.evaluate(
                "(() => { const e = document.activeElement;"
                " return e && (e.matches('#choices button.choice:not([data-action=pass])')"
                " || e.matches('.cell.target, .hand-card.target, .player-row.target')) })()"
            )
            if focused:
                break
        else:
            pytest.fail("no lit place or choice is reachable with Tab")
        page.keyboard.press(key)
        if page.locator("#cancel-pick").count():  # a card's uses: the first one has the focus
            page.keyboard.press("Enter")
        after(page, before)
        decisions += 1
    assert decisions >= 3, decisions
    screenshot(page, tmp_path, "phone-later")

    page.goto(f"{server.http}/")  # the lobby fits the phone too
    expect(page.locator("#create-button")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, tmp_path, "phone-lobby")


def test_an_apokerlypse_game_to_the_end(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    page = person(people, browser)
    page.goto(f"{server.http}/")
    page.locator("label.game-option", has_text="Apokerlypse").click()
    expect(page.locator("#players option")).to_have_count(3)  # 2–4 players
    page.select_option("#players", "2")
    page.select_option("#seats select[data-seat='1']", "random")
    page.click("#create-button")
    page.click("#open-seat")
    ready(page)
    labels = page.locator("#hand .hand-card").all_inner_texts()
    assert len(labels) >= 5 and all(label.strip()[-1] in "♠♥♦♣" for label in labels), labels
    expect(page.locator("#pot")).to_contain_text("Pot")
    screenshot(page, tmp_path, "apokerlypse")
    for _ in range(300):
        if over(page):
            break
        before = move(page)
        click_decision(page)
        after(page, before)
    expect(page.locator("#final-reveal")).to_be_visible()
    expect(page.locator("#final-reveal .reveal")).to_have_count(2)
    screenshot(page, tmp_path, "apokerlypse-final")


def test_a_wrong_link_says_so(server: Server, browser: Browser, people: list[Person]) -> None:
    page = person(people, browser)
    page.goto(f"{server.http}/games/nothing-here")
    expect(page.locator("#fatal")).to_contain_text("There is no such game.")
    game_id = create(server)["id"]
    page.goto(f"{server.http}/games/{game_id}?token=not-a-seat")
    expect(page.locator("#fatal")).to_contain_text("This link opens no seat of this game.")
    expect(page.locator("button.choice")).to_have_count(0)


def test_without_a_build_the_pages_say_how_to_make_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "DIST", tmp_path / "dist")
    app = FastAPI()
    pages.add_pages(app)

    async def get(path: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://pages") as client:
            return await client.get(path)

    for path in ("/", "/games/abc", "/games/abc/replay", "/replay"):
        # its own thread: this thread's event loop belongs to Playwright's browser
        with ThreadPoolExecutor(1) as pool:
            response = pool.submit(asyncio.run, get(path)).result()
        assert response.status_code == 503
        assert "make web" in response.text
