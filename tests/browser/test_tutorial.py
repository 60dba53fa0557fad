"""The guided first games ("Learn to play") in a real browser against the real server: started
from the lobby, played to their end by following the coach's suggestions (the lit move on the
table), in English and in German; every lesson appears once, in the order its topic came up, in the
game's language, "who wins" last with the summary and "Play a real game"; a learner who leaves in
the middle and comes back (a reload, the lobby's "Continue learning") goes on without a lesson
repeated; Apokerlypse's shorter guided game; a phone, where the coach never covers a control.
Every wait is on the page's state, never a sleep."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from apokalypse.server.tutorial import APOKALYPSE_TOPICS, APOKERLYPSE_TOPICS
from tests.browser.playing import DESKTOP, PHONE, close_ride, person, ready, screenshot
from tests.server.served import Server

TITLES = {  # the first and the last lesson's title, per language
    "en": ("Your ethos: good", "Who wins"),
    "de": ("Deine Gesinnung: gut", "Wer gewinnt"),
}
POKER_TITLES = {"en": ("Chips decide", "The end"), "de": ("Chips entscheiden", "Das Ende")}
STEP = "Number(document.body.dataset.move) > {move} || document.body.dataset.over === 'yes'"


def start(page: Page, server: Server, game: str, lang: str) -> str:
    """Open the lobby in ``lang`` and start the guided game of ``game``: its page's address."""
    page.add_init_script(f"window.localStorage.setItem('apokalypse.lang', '{lang}')")
    page.goto(server.http)
    page.click(f"#learn-{game}")
    page.wait_for_url("**/games/**")
    ready(page)
    expect(page.locator("#tutor")).to_be_visible()
    return page.url


def shown(page: Page, game_id: str) -> list[str]:
    """The lessons the coach has shown in this game, in order (as the browser remembers them)."""
    found: list[str] = page.evaluate(
        f"JSON.parse(localStorage.getItem('apokalypse.tutorial.{game_id}') || '[]')"
    )
    return found


def follow(
    page: Page,
    seen: list[str],
    steps: int | None = None,
    shots: Any = None,
    rides: list[int] | None = None,
) -> bool:
    """Follow the coach: take each decision by clicking its suggested move where it is lit (the
    choice the coach names), for ``steps`` decisions or to the end; each lesson the panel shows
    is added to ``seen`` as it appears, each ride panel closed is added to ``rides``. Whether
    the game is over."""
    rides = rides if rides is not None else []
    done = 0
    while steps is None or done < steps:
        ready(page)
        rode = close_ride(page)
        if rode is not None:
            rides.append(rode)
        note(page, seen, shots)
        if page.locator("body").get_attribute("data-over") == "yes":
            return True
        move = int(page.locator("body").get_attribute("data-move") or "-1")
        suggestion = page.locator("#tutor-suggestion[data-action]")
        if suggestion.count() == 0:  # a question answered for the learner by the server
            page.wait_for_function(f"() => {STEP.format(move=move)}")
            continue
        action = suggestion.get_attribute("data-action")
        lit = page.locator(f'#choices button.choice.tutor-suggested[data-action="{action}"]')
        expect(lit).to_have_count(1)  # the suggested move is lit, and it is a legal one
        click_past_rides(page, lit, rides)
        page.wait_for_function(f"() => {STEP.format(move=move)}")
        done += 1
    return page.locator("body").get_attribute("data-over") == "yes"


def click_past_rides(page: Page, target: Locator, rides: list[int]) -> None:
    """Click ``target``; a ride panel that opened after the last look (the ride's events can
    arrive just behind the state that asks the learner) is closed first, as a person would."""
    for attempt in range(3):
        rode = close_ride(page)
        if rode is not None:
            rides.append(rode)
        try:
            target.click(timeout=4_000)
            return
        except PlaywrightTimeoutError:
            if attempt == 2 or page.locator("#ride-panel[open]").count() == 0:
                raise


def note(page: Page, seen: list[str], shots: Any) -> None:
    lesson = page.locator("#tutor").get_attribute("data-lesson") or ""
    if lesson and (not seen or seen[-1] != lesson):
        seen.append(lesson)
        if shots is not None:
            shots(lesson)


def finish(page: Page, final: str) -> None:
    """At the end the coach opens what is left, one "Got it" at a time, the final lesson last."""
    for _ in range(12):
        if page.locator("#tutor").get_attribute("data-lesson") == final:
            return
        page.click("#tutor-next")
    raise AssertionError(f"the final lesson {final!r} never showed")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_guided_apokalypse_game(
    lang: str, server: Server, browser: Browser, people: list[Any], tmp_path: Path
) -> None:
    page = person(people, browser, DESKTOP)
    url = start(page, server, "apokalypse", lang)
    game_id = url.split("/games/")[1].split("?")[0]
    first, last = TITLES[lang]
    expect(page.locator("#tutor-title")).to_have_text(first)
    expect(page.locator("#tutor")).to_have_attribute("lang", lang)
    screenshot(page, tmp_path, f"tutorial-{lang}-ethos", full_page=False)
    seen: list[str] = []

    def shot(lesson: str) -> None:
        if lesson in ("protection", "ride", "attack"):
            screenshot(page, tmp_path, f"tutorial-{lang}-{lesson}", full_page=False)

    rides: list[int] = []
    assert follow(page, seen, shots=shot, rides=rides)
    if 4 not in rides:  # Death's panel opens just after the end shows: closed to go on
        page.wait_for_selector('#ride-panel[open][data-horseman="4"]')
        close_ride(page)
    # the game the deal was chosen for (server/tutorial/'s walk): the learner wins
    expect(page.locator('#final-reveal .reveal[data-seat="0"]')).to_have_attribute(
        "data-winner", "yes"
    )
    finish(page, "win")
    note(page, seen, None)
    expect(page.locator("#tutor-title")).to_have_text(last)
    expect(page.locator("#tutor-summary li")).to_have_count(len(APOKALYPSE_TOPICS))
    real = page.locator("#tutor-play-real")
    assert real.get_attribute("href") == "/?game=apokalypse"
    screenshot(page, tmp_path, f"tutorial-{lang}-win")
    order = shown(page, game_id)
    assert sorted(order) == sorted(APOKALYPSE_TOPICS), order  # each lesson once
    assert order[0] == "ethos" and order[-1] == "win", order
    assert seen == order, (seen, order)  # what the panel showed, in that order
    real.click()  # a real game: the lobby with the game chosen
    page.wait_for_selector("#create")
    expect(page.locator('input[name="game"][value="apokalypse"]')).to_be_checked()
    expect(page.locator("#continue-apokalypse")).to_have_count(0)  # finished
    expect(page.locator("#learn-apokalypse")).to_be_visible()
    screenshot(page, tmp_path, f"tutorial-{lang}-lobby", full_page=False)


def test_leaving_and_resuming_goes_on_without_repeating_a_lesson(
    server: Server, browser: Browser, people: list[Any]
) -> None:
    page = person(people, browser, DESKTOP)
    url = start(page, server, "apokalypse", "en")
    game_id = url.split("/games/")[1].split("?")[0]
    seen: list[str] = []
    follow(page, seen, steps=8)
    before = shown(page, game_id)
    assert len(before) >= 3, before
    page.reload()  # left and back at once
    ready(page)
    expect(page.locator("#tutor")).to_be_visible()
    follow(page, seen, steps=6)
    page.goto(server.http)  # to the lobby, and back by "Continue learning"
    page.click("#continue-apokalypse")
    page.wait_for_url("**/games/**")
    ready(page)
    follow(page, seen, steps=6)
    after = shown(page, game_id)
    assert after[: len(before)] == before and len(after) == len(set(after)), (before, after)
    assert len(after) > len(before), after  # and it went on teaching
    page.select_option("#tutor-lessons", "ethos")  # back to a lesson, and on again
    expect(page.locator("#tutor-title")).to_have_text("Your ethos: good")
    page.click("#tutor-resume")
    expect(page.locator("#tutor")).to_have_attribute("data-showing", after[-1])


def test_the_guided_apokerlypse_game(
    server: Server, browser: Browser, people: list[Any], tmp_path: Path
) -> None:
    page = person(people, browser, DESKTOP)
    url = start(page, server, "apokerlypse", "de")
    game_id = url.split("/games/")[1].split("?")[0]
    expect(page.locator("#tutor-title")).to_have_text(POKER_TITLES["de"][0])
    seen: list[str] = []

    def shot(lesson: str) -> None:
        if lesson in ("discard", "scoring"):
            screenshot(page, tmp_path, f"tutorial-poker-de-{lesson}", full_page=False)

    assert follow(page, seen, shots=shot)
    expect(page.locator('#final-reveal .reveal[data-seat="0"]')).to_have_attribute(
        "data-winner", "yes"
    )
    finish(page, "end")
    expect(page.locator("#tutor-title")).to_have_text(POKER_TITLES["de"][1])
    order = shown(page, game_id)
    assert sorted(order) == sorted(APOKERLYPSE_TOPICS), order
    assert order[0] == "chips" and order[-1] == "end", order
    screenshot(page, tmp_path, "tutorial-poker-de-end")


def test_on_a_phone_the_coach_covers_no_control(
    server: Server, browser: Browser, people: list[Any], tmp_path: Path
) -> None:
    phone: ViewportSize = PHONE
    page = person(people, browser, phone)
    start(page, server, "apokalypse", "de")
    seen: list[str] = []
    for step in range(4):
        follow(page, seen, steps=3)
        coach = page.locator("#tutor").bounding_box()
        assert coach is not None and coach["width"] <= phone["width"], coach
        # the page is not wider than the phone, and nothing the learner clicks lies under the coach
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= phone["width"], width
        covered = page.evaluate(
            """() => {
              const box = document.querySelector('#tutor').getBoundingClientRect();
              return [...document.querySelectorAll('#choices button, .target, #hand button')]
                .filter((b) => { const r = b.getBoundingClientRect();
                  return r.width > 0 && r.top < box.bottom && r.bottom > box.top
                    && r.left < box.right && r.right > box.left; })
                .map((b) => b.dataset.action || b.dataset.code || b.textContent);
            }"""
        )
        assert covered == [], covered
        screenshot(page, tmp_path, f"tutorial-phone-de-{step}", full_page=False)
    page.click("#tutor-collapse")  # folded to one line with the suggestion
    expect(page.locator("#tutor.collapsed")).to_be_visible()
    expect(page.locator("#tutor-expand")).to_be_visible()
    screenshot(page, tmp_path, "tutorial-phone-de-collapsed", full_page=False)
