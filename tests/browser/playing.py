"""What the browser tests do as a person would, written once: a person's own browser
(:class:`Person`, :func:`person`), waits on the page's state (``data-move`` and friends, never a
sleep), clicking a decision on the table (:func:`click_decision`), a ride's panel, screenshots,
naming oneself and talking (:func:`name_myself`, :func:`say`)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

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

from tests.server.served import Addressed

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


@contextmanager
def chromium(executable: Path, args: list[str]) -> Iterator[Browser]:
    """Chromium (``executable``: Debian's, or a wrapper that starts it) launched by Playwright
    with ``args``, closed when done."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(executable), args=args)
        try:
            yield launched
        finally:
            launched.close()


# Every wait in the browser: a healthy page answers in milliseconds, a busy one later.
WAIT_MS = 30_000
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
# Screenshots go to each test's tmp dir; set APOKALYPSE_SCREENS=DIR to keep copies to look at.
SCREENS = os.environ.get("APOKALYPSE_SCREENS")
READY = "document.body.dataset.deciding === 'yes' || document.body.dataset.over === 'yes'"


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


def seat_url(server: Addressed, created: dict[str, Any], seat: int) -> str:
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


# The seat's state and what the table lights up for it, read in one go: a state that arrives
# between two reads would pair one state's lights with another's choices.
LAID_OUT = """() => ({
  state: window.apokalypse.state(),
  lit: [...document.querySelectorAll('.target[data-action], .target[data-actions]')]
    .map((e) => [e.getAttribute('data-action'), e.getAttribute('data-actions')]),
  choices: [...document.querySelectorAll('#choices button.choice')]
    .map((b) => b.getAttribute('data-action')),
  answering: document.querySelector('#answering') !== null,
})"""


def lit_as_legal(page: Page) -> dict[str, Any]:
    """What lights up on the table is the seat's legal actions laid out from their parts: every
    lit card, place and player sends a legal action's text, and every legal action that names a
    card or a seat lights up somewhere; every legal action is a choice, worded by the server."""
    laid_out = page.evaluate(LAID_OUT)
    state = laid_out["state"]
    legal: list[dict[str, Any]] = state["legal"]
    texts = [a["text"] for a in legal]
    assert all(isinstance(t, str) and t for t in texts) and len(set(texts)) == len(texts), legal
    assert len(state["text"]["choices"]) == len(legal), state["text"]
    lit = {a for pair in laid_out["lit"] for value in pair for a in (value or "").split("|") if a}
    assert lit <= set(texts), (lit, texts)
    placed = {a["text"] for a in legal if "card" in a or "seat" in a}
    assert placed <= lit, (placed, lit)
    assert laid_out["choices"] == texts
    return cast("dict[str, Any]", laid_out)


def click_decision(page: Page) -> str:
    """Take this seat's decision by clicking on the table as a person would: a lit place on a
    display, else a lit card in the hand (then one of its uses), else a lit player, else a choice
    (not passing while something else is possible). What was clicked, as its action text."""
    laid_out = lit_as_legal(page)
    if laid_out["answering"] or not laid_out["state"]["legal"]:
        # A question with one answer that the server gives for this seat by itself, a moment
        # later (the page says so): a person waits, and a click could land as it is answered.
        # Read from the same snapshot as the lights: asked again later, the answer may have
        # come, and the next state (not this seat's decision) would offer nothing to click.
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
            press(use)
        return action
    return choose(page, prefer_pass=False)


def settled(page: Page) -> None:
    """Wait until the table takes clicks again: for a moment after the decision changed the page
    lets no pointer reach it (``body[data-settling]``: a second quick click must not land on the
    next step). Clicking before would only have Playwright retry with pauses of its own."""
    page.wait_for_function("() => document.body.dataset.settling === undefined")


def press(target: Locator) -> None:
    """Click ``target`` as a person would, once the table takes clicks. Playwright first waits
    until it stops moving; on a starved machine a page that keeps settling (marks landing, a
    clock ticking) can keep a lit place from ever holding still for two frames in a row, and a
    person clicks it all the same."""
    settled(target.page)
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
    settled(page)
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


# -- names and talk ---------------------------------------------------------------------------

MARKUP = "<img src=x onerror=1>"


def name_myself(page: Page, name: str) -> None:
    """Answer the name prompt a seat's first opening shows."""
    prompt = page.locator("#name-prompt")
    prompt.locator("input").fill(name)
    prompt.locator("button[type=submit]").click()
    expect(page.locator("#name-prompt")).to_have_count(0)


def say(page: Page, text: str) -> None:
    page.fill("#talk-input", text)
    page.press("#talk-input", "Enter")
    expect(page.locator(".talk-line.mine .talk-text").last).to_have_text(text)


def line(page: Page, text: str) -> Locator:
    return page.locator(".talk-line", has_text=text)
