"""People's time in the browser, against the app served in-process (its hub at hand, so the test
can move the server's clock): a game played over days, created in the lobby, a move played, the
clock moved to the next day, the page reopened showing whose turn it is and the time left in
hours, and "my games" listing it first as awaiting me; and a person asked a defence question they
cannot but decline is not asked to click: the page says the server answers for them, and it
does. Screenshots on a desktop and a phone, in English and German."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from apokalypse.server.games import LiveGame
from apokalypse.server.settings import Settings
from tests.browser.playing import (
    DESKTOP,
    PHONE,
    Person,
    person,
    ready,
    screenshot,
)
from tests.server.inprocess import Running, serving, wait_until
from tests.server.seeded import seeded

TIMEOUT = 10.0
ANSWER_DELAY = (4.0, 4.5)  # long enough to open the page and see it say so
FORCED_SEED = 1  # a deal where I am asked such a question after four decisions of mine


class Clock:
    """The server's clock in these tests: the real time, moved forward at will."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    database = tmp_path_factory.mktemp("days") / "db.sqlite3"
    settings = Settings(answer_delay=ANSWER_DELAY)
    with serving(f"sqlite:///{database}", settings) as server:
        yield server


def lobby_in(page: Page, running: Running, lang: str) -> None:
    page.goto(f"{running.http}/")
    page.locator(".lang-switch button", has_text=lang.upper()).click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


@pytest.mark.parametrize(
    ("lang", "viewport", "label"),
    [("en", DESKTOP, "desktop-en"), ("de", PHONE, "phone-de")],
)
def test_a_game_over_days_from_the_lobby_to_the_next_day(
    running: Running,
    browser: Browser,
    people: list[Person],
    tmp_path: Path,
    lang: str,
    viewport: Any,
    label: str,
) -> None:
    clock = Clock()
    running.call(lambda: setattr(running.hub, "now", clock))
    page = person(people, browser, viewport)
    lobby_in(page, running, lang)
    page.locator("label.game-option", has_text="Apokalypse").click()
    page.select_option("#players", "2")
    page.select_option("#seats select[data-seat='0']", "human")
    page.select_option("#seats select[data-seat='1']", "heuristic")
    page.check("#timer-days")
    page.fill("#timer-amount", "2")
    page.select_option("#timer-unit", "days")
    screenshot(page, tmp_path, f"days-create-{label}")
    page.click("#create-button")
    expect(page.locator("a.seat-link")).to_have_count(1)
    seat_link = page.locator("a.seat-link").get_attribute("href") or ""
    game_id = seat_link.split("/games/")[1].split("?")[0]

    # A move of mine; then the computer's, and my next decision has two days.
    page.click("#open-seat")
    ready(page)
    expect(page.locator("#clock")).to_have_attribute("data-seat", "0")
    expect(page.locator("#clock .time")).to_contain_text("1 ")  # 1 d 23 h: days, not seconds
    first = int(page.locator("body").get_attribute("data-move") or "0")
    page.locator("#choices button").first.click()
    page.wait_for_function(
        f"() => Number(document.body.dataset.move) > {first}"
        " && document.body.dataset.deciding === 'yes'"
    )

    # The next day: the page reopened shows my turn and a day left, in hours.
    clock.ahead = timedelta(days=1)
    page.reload()
    ready(page)
    expect(page.locator("#decision")).to_have_attribute("data-deciding", "yes")
    expect(page.locator("#clock .time")).to_have_text(re.compile(r"^23 "))  # hours, minutes
    screenshot(page, tmp_path, f"days-game-{label}", full_page=False)

    # "My games" lists it first, as awaiting me, with the time left.
    page.goto(f"{running.http}/")
    mine = page.locator("#my-games li.game-item").first
    expect(mine).to_have_attribute("data-id", game_id)
    expect(mine).to_have_attribute("data-awaited", "yes")
    expect(mine.locator(".your-turn")).to_contain_text("Your turn" if lang == "en" else "dran")
    expect(mine.locator(".your-turn")).to_contain_text("23 ")
    screenshot(page, tmp_path, f"days-my-games-{label}")


def forced_question(running: Running, lang: str) -> tuple[str, str, int, str]:
    """A game of two computer players and me, played from a seeded deal (as the server plays
    it, ``tests/server/seeded.py``; I click as ``click_decision`` does) up to a defence question
    I cannot but decline: its id, my key, the move it is asked at and its one answer."""
    game = seeded(
        running.hub.store,
        "apokalypse",
        ["random", "random", "human"],
        FORCED_SEED,
        lang=lang,
        until=cannot_defend,
    )
    answer = game.live.forced_answer()
    assert answer is not None and str(answer) == "decline"
    return game.id, game.tokens[2], game.live.state.observation(2)["move"], str(answer)


def cannot_defend(live: LiveGame) -> bool:
    """Whether I am asked a defence question I cannot but decline (the server answers it)."""
    answer = live.forced_answer()
    return answer is not None and str(answer) == "decline"


@pytest.mark.parametrize(
    ("lang", "viewport", "label", "words"),
    [
        ("en", DESKTOP, "desktop-en", "answering for you"),
        ("de", PHONE, "phone-de", "für dich geantwortet"),
    ],
)
def test_a_person_who_cannot_defend_is_not_asked_to_click(
    running: Running,
    browser: Browser,
    people: list[Person],
    tmp_path: Path,
    lang: str,
    viewport: Any,
    label: str,
    words: str,
) -> None:
    """R-ATTACK-4: asked whether to defend with nothing to defend with, the page says the server
    answers for me (not "click a card"), and the server does, a moment later."""
    game_id, token, asked, answer = forced_question(running, lang)
    page = person(people, browser, viewport)
    page.goto(f"{running.http}/games/{game_id}?token={token}")
    hint = page.locator("#answering")
    expect(hint).to_contain_text(words)
    expect(page.locator("#decision .hint:not(#answering)")).to_have_count(0)
    expect(page.locator("#auto-answer-on")).to_be_checked()
    screenshot(page, tmp_path, f"answering-{label}", full_page=False)
    # Answered for me, a moment later: stored as my answer, and the page moves on.
    store = running.hub.store
    wait_until(lambda: len(store.load(game_id).actions) > asked, "answered", TIMEOUT)
    assert store.load(game_id).actions[asked] == answer
    page.wait_for_function(
        f"() => document.body.dataset.move !== '{asked}' || document.body.dataset.deciding === 'no'"
    )
