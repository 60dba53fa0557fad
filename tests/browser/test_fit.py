"""The table fits the screen it is played on (a 390-px phone, a 1366-px laptop; English and
German): no panel scrolls sideways or cuts what it shows (a crowded display narrows its cards,
the forecast's and a ride's tables wrap their players' names, the hand wraps into rows), and a
decision whose lit places are all off-screen brings the first of them into view."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from apokalypse.engine.record import replay
from apokalypse.server.games import LiveGame
from apokalypse.server.store import Store
from tests.browser import playing
from tests.browser.playing import PHONE, Person, person, ready, screenshot, seat_url
from tests.server.seeded import asked, seeded
from tests.server.served import Server

LAPTOP: ViewportSize = {"width": 1366, "height": 768}
MOST = 12  # the other person's decisions before the phone's turn, at most
UNREAD_DECISIONS = 80  # a person's decisions at most, to a hundred new log lines
WAIT = 30.0  # seconds for the computers' turns between two people's decisions
SIZES = [
    pytest.param(PHONE, "en", id="phone-en"),
    pytest.param(PHONE, "de", id="phone-de"),
    pytest.param(LAPTOP, "en", id="laptop-en"),
    pytest.param(LAPTOP, "de", id="laptop-de"),
]
# Deals that crowd the table: after 25 decisions of Apokalypse (seed 11) one display holds seven
# evil populaces in a row (eight cards), and the forecast names four players; Apokerlypse
# (seed 5) after three.
CROWDED = {"apokalypse": (11, 25), "apokerlypse": (5, 3)}
# What must show whole: everything that scrolled sideways or was cut before.
PANELS = (
    ".display",
    ".display-grid",
    "#forecast",
    ".side-column .panel",
    ".hand",
    ".my-corner",
    "#choices",
    "#ride-panel .dialog-body",
)
CUT = """(selectors) => selectors.flatMap((selector) =>
    [...document.querySelectorAll(selector)]
        .filter((e) => e.getClientRects().length > 0 && e.scrollWidth > e.clientWidth + 1)
        .map((e) => `${selector}: ${e.scrollWidth} px in ${e.clientWidth}`))"""


def cut(page: Page) -> list[str]:
    """What scrolls sideways on the page (or the page itself): each as where, and how wide."""
    found: list[str] = page.evaluate(CUT, list(PANELS))
    wide = page.evaluate("document.documentElement.scrollWidth")
    width = page.viewport_size["width"] if page.viewport_size else 0
    return found + ([f"the page: {wide} px in {width}"] if wide > width else [])


@pytest.mark.parametrize(("viewport", "lang"), SIZES)
@pytest.mark.parametrize("game", ["apokalypse", "apokerlypse"])
def test_the_table_fits(
    server: Server,
    browser: Browser,
    people: list[Person],
    tmp_path: Path,
    game: str,
    viewport: ViewportSize,
    lang: str,
) -> None:
    seed, decisions = CROWDED[game]
    crowded = seeded(
        server.database_url,
        game,
        ["human", "medium", "medium", "medium"],
        seed,
        lang=lang,
        decisions=decisions,
    )
    page = person(people, browser, viewport)
    page.goto(seat_url(server, crowded.created, 0))
    ready(page)
    name = f"fit-{game}-{viewport['width']}-{lang}"
    screenshot(page, tmp_path, name)
    assert cut(page) == []
    # Every player's name in full where the table names them (none cut with an ellipsis).
    names = page.locator(".player-name, .display-head .owner, .poker-players tbody th")
    assert names.count() >= 4
    for index in range(names.count()):
        one = names.nth(index)
        assert one.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1"), one.inner_text()
    if game == "apokalypse":
        crowd = max(
            page.locator(".display").nth(q).locator(".cell:not(.slot)").count() for q in range(4)
        )
        assert crowd >= 8, crowd  # the moment is as crowded as it is meant to be


@pytest.mark.parametrize(("viewport", "lang"), SIZES)
def test_a_ride_fits(
    server: Server,
    browser: Browser,
    people: list[Person],
    tmp_path: Path,
    viewport: ViewportSize,
    lang: str,
) -> None:
    """The ride's panel (its five columns) on a finished four-player game's first ride."""
    done = seeded(
        server.database_url,
        "apokalypse",
        ["human", "medium", "medium", "medium"],
        3,
        lang=lang,
        until=lambda live: False,  # to the end
    )
    assert done.live.state.is_over
    store = Store.open(server.database_url)
    try:
        record = store.load(done.id)
    finally:
        store.engine.dispose()
    first = next(  # the step (after that many actions) on which the first horseman rides
        step
        for step, events in enumerate(replay(record).events, start=1)
        if any(event.kind == "ride" for event in events)
    )
    page = person(people, browser, viewport)
    page.goto(f"{server.http}/games/{done.id}/replay?viewer=1&step={first - 1}")
    expect(page.locator("body")).to_have_attribute("data-step", str(first - 1))
    page.keyboard.press("ArrowRight")
    expect(page.locator("#ride-panel[open]")).to_be_visible()
    screenshot(page, tmp_path, f"fit-ride-{viewport['width']}-{lang}", full_page=False)
    assert cut(page) == []
    reward = page.locator("#ride-panel thead th").last
    expect(reward).to_be_in_viewport()


def asks(phone: Page, other: Page, after: int) -> Page:
    """Which of the two people is asked next: the phone, or the other after move ``after``
    (polled with a deadline, the two pages being two browsers)."""
    deciding = "document.body.dataset.deciding === 'yes'"
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if phone.evaluate(deciding):
            return phone
        if other.evaluate(f"{deciding} && Number(document.body.dataset.move) > {after}"):
            return other
        phone.wait_for_timeout(50)
    raise AssertionError(f"neither person was asked within {WAIT} s")


def my_turn_after_seat_two(live: LiveGame) -> bool:
    """The second person (seat 2) decides, and the first (seat 1) is next of the people."""
    return asked(live) and live.state.observation(None)["to_act"] == 1


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_first_lit_place_comes_into_view(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path, lang: str
) -> None:
    """A phone scrolled down to the log while the others play: when its decision comes, what
    it may do is brought into sight."""
    table = seeded(
        server.database_url,
        "apokalypse",
        ["human", "human", "medium"],
        17,
        lang=lang,
        until=my_turn_after_seat_two,
    )
    phone = person(people, browser, PHONE)
    phone.goto(seat_url(server, table.created, 0))
    phone.wait_for_selector("body[data-deciding='no']")
    phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    expect(phone.locator("#log")).to_be_in_viewport()
    lit = ".cell.target, .hand-card.target, button.player-row.target, #choices button.choice"
    assert phone.locator(lit).count() == 0  # nothing lit while the others decide

    other = person(people, browser)
    other.goto(seat_url(server, table.created, 1))
    last = -1
    for _ in range(MOST):  # the other person decides until it is the phone's turn
        if asks(phone, other, last) is phone:
            break
        last = playing.move(other)
        playing.click_decision(other)
    else:
        pytest.fail("the phone was never asked")
    ready(phone)
    expect(phone.locator(lit).first).to_be_in_viewport()
    screenshot(phone, tmp_path, f"lit-in-view-{lang}", full_page=False)


@pytest.mark.long(26)
def test_a_long_unread_log_is_counted_to_99_plus(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    """On a phone the log waits behind its button with the count of new lines: past 99 the badge
    says 99+ (it counted to 316 in a whole game), its label the exact number; of the notes of
    what touched the seat only the newest shows (a stack of them covered the table)."""
    table = seeded(server.database_url, "apokalypse", ["human", *["random"] * 5], 23)
    phone = person(people, browser, PHONE)
    phone.goto(seat_url(server, table.created, 0))
    badge = phone.locator("#log-unread")
    unread = most = 0
    for _ in range(UNREAD_DECISIONS):
        playing.play(phone, 1)
        if playing.over(phone):
            break
        # the notes of what touched this seat: a phone shows the newest alone
        most = max(most, phone.locator("#toasts .toast").count())
        assert phone.locator("#toasts .toast:visible").count() <= 1
        if badge.count():
            unread = int(re.sub(r"\D", "", badge.get_attribute("aria-label") or ""))
            if unread > 99:
                break
    assert unread > 99, f"only {unread} new lines: the game is too short for the test"
    assert most >= 2, most  # several notes at once: the phone showed only one of them
    expect(badge).to_have_text("99+")
    expect(phone.locator("#log-button")).to_be_in_viewport()
    screenshot(phone, tmp_path, "log-badge-99-plus", full_page=False)
