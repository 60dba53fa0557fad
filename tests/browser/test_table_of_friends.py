"""Two friends at one table, each in their own browser (a laptop and a phone), with a computer
player: they name themselves, talk, play a whole game to the final reveal by clicking on the
table, always see what the computer did (its moves marked and in the log, under its level's
name) and whose turn it is (the tab's title), are never made to click an answer they cannot but
give (the server answers for them), and watch the replay afterwards.

This is Apokalypse's one whole game in English clicked through in the browser, on a seeded deal
(``tests/server/seeded.py``): the same game, as long, on every run."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.server.seeded import seeded
from tests.server.served import Server

from .playing import (
    DESKTOP,
    PHONE,
    Person,
    click_decision,
    close_ride,
    line,
    move,
    name_myself,
    over,
    person,
    ready,
    say,
    screenshot,
    seat_url,
)

# The deal: the friends clicking as ``click_decision`` does (and the computer's choices, seeded
# from it too) end the game after 98 of their decisions, a short three-player game (most take
# 150 to 300); the game is the same on every run, move for move (tests/server/seeded.py).
SEED = 235
MOST_DECISIONS = 150
WAIT_S = 20.0  # the longest the computer and the server's answers may keep both friends waiting
POLL_MS = 40
# What a seat's page asks of its person now: to click, nothing (the server answers), or neither.
# What a seat's page asks of its person now, read at once with the tab's title: to click (its
# state offers choices, and the page has drawn that state), nothing (its one answer is given by
# the server, which the page says), or neither (or the page is still drawing a new state).
ASKED = """() => {
  const state = window.apokalypse.state();
  const legal = state ? state.legal : [];
  const drawn = state !== null && document.body.dataset.move === String(state.observation.move)
    && document.body.dataset.deciding === (legal.length > 0 ? 'yes' : 'no');
  const forced = legal.length === 1 && ['decline', 'allow'].includes(legal[0].verb) && state.auto;
  return {
    asked: !drawn || legal.length === 0 ? 'no' : forced ? 'answered' : 'click',
    hint: document.getElementById('answering') !== null,
    title: document.title,
  };
}"""


def speak(page: Page, text: str) -> None:
    """Say a line, opening the talk's drawer first where it is one (a phone), and closing it."""
    drawer = page.locator("#talk").is_hidden()
    if drawer:
        page.click("#talk-tab")
    say(page, text)
    if drawer:
        page.click("#talk-close")
        expect(page.locator("#talk")).to_be_hidden()


def next_to_decide(pages: dict[int, Page], answered_for: set[tuple[int, int]]) -> int | None:
    """The seat whose friend must click now (None: the game is over for both), polled with a
    deadline. A friend asked a question they cannot but decline is not: the server answers it
    (noted in ``answered_for``), and nothing asks them to click."""
    deadline = time.monotonic() + WAIT_S
    while True:
        if all(over(page) for page in pages.values()):
            return None
        for seat, page in pages.items():
            shown = page.evaluate(ASKED)
            if shown["asked"] == "click":
                # My turn is told outside the page too: in the tab's title.
                assert shown["title"].startswith("●") and not shown["hint"], shown
                return seat
            if shown["asked"] == "answered":  # nothing to click, and the page says so
                answered_for.add((seat, move(page)))
                assert shown["hint"] and shown["title"].startswith("●"), shown
        assert time.monotonic() < deadline, f"nobody asked to decide for {WAIT_S} s"
        pages[0].wait_for_timeout(POLL_MS)


def decide(page: Page, before: int) -> None:
    """Take this seat's decision by clicking, and wait until the game went on. A click that
    lands in the moment the page settles after a change is dropped by design (no accidental
    second click reaches the next step), so, as a person would, the friend clicks again while
    the same decision is still asked."""
    moved = (
        f"() => Number(document.body.dataset.move) > {before}"
        " || document.body.dataset.over === 'yes'"
    )
    for attempt in range(3):
        click_decision(page)
        try:
            page.wait_for_function(moved, timeout=5_000)
            return
        except PlaywrightTimeoutError:
            if attempt == 2 or move(page) != before:
                raise
            if page.locator("#cancel-pick").count():  # a card picked, its use not taken: again
                page.click("#cancel-pick")
                expect(page.locator("#cancel-pick")).to_have_count(0)
            ready(page)


@pytest.mark.long(196)
def test_two_friends_play_a_whole_game_with_names_and_talk_and_watch_its_replay(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = seeded(
        server.database_url, "apokalypse", ["human", "human", "heuristic"], SEED
    ).created
    ann, bob = person(people, browser, DESKTOP), person(people, browser, PHONE)
    ann.goto(seat_url(server, created, 0))
    bob.goto(seat_url(server, created, 1))
    name_myself(ann, "Ann")
    name_myself(bob, "Bob")
    # Each sees the other by name, and the computer by its level.
    expect(ann.locator(".player[data-seat='1']")).to_contain_text("Bob")
    expect(bob.locator(".player[data-seat='0']")).to_contain_text("Ann")
    expect(ann.locator(".player[data-seat='2']")).to_contain_text("Heuristic")
    speak(ann, "Good luck, Bob!")
    expect(line(bob, "Good luck, Bob!")).to_have_count(1)

    pages = {0: ann, 1: bob}
    decided = {0: 0, 1: 0}
    answered_for: set[tuple[int, int]] = set()  # (seat, move): answered by the server
    marked = 0  # decisions at which the friend saw what had just changed marked on the table
    for _ in range(MOST_DECISIONS):
        seat = next_to_decide(pages, answered_for)
        if seat is None:
            break
        page = pages[seat]
        before = move(page)
        close_ride(page)
        marked += page.locator("[data-fresh]").count() > 0
        decide(page, before)
        decided[seat] += 1
        if decided[seat] == 5:  # a word in the middle of the game
            speak(page, "Who attacked me?" if seat == 1 else "Well played")
    assert over(ann) and over(bob), f"not over after {MOST_DECISIONS} decisions: {decided}"
    # (Not every game has an attack a friend cannot answer: where one had, nobody clicked.)
    assert min(decided.values()) >= 5, (decided, answered_for)
    assert marked > 0, "nothing that changed was ever marked"

    for page in (ann, bob):
        close_ride(page)  # the last horseman's ride, if the game ended with it
        expect(page.locator("#final-reveal")).to_be_visible()
        expect(page.locator("#final-reveal")).to_contain_text("Ann")
        expect(page.locator("#final-reveal")).to_contain_text("Bob")
        assert not page.title().startswith("●")
    expect(line(ann, "Who attacked me?")).to_have_count(1)
    expect(line(bob, "Well played")).to_have_count(1)
    log = ann.locator("#log")
    expect(log).to_contain_text("Heuristic (computer)")  # the computer's moves, by name
    expect(log).to_contain_text("Bob")
    screenshot(ann, tmp_path, "friends-final-ann")
    screenshot(bob, tmp_path, "friends-final-bob", full_page=False)

    # The replay, from the final reveal: stepped to its end, names and all.
    ann.click("#replay-link")
    ann.wait_for_url("**/replay?**")
    expect(ann.locator("#viewer")).to_contain_text("Bob")
    ann.keyboard.press("End")
    expect(ann.locator("#final-reveal")).to_be_visible()
    expect(ann.locator("#final-reveal")).to_contain_text("Ann")
    screenshot(ann, tmp_path, "friends-replay")
