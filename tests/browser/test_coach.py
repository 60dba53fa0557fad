"""The coach in a real browser (Debian's Chromium, Playwright, the real ``apokalypse serve`` at
the product's expert budget): against computers, "What would the expert do?" thinks, shows the
expert's candidates worded as the choices are, with the share of its search and a reason, lights
the candidate's place on the table, and the learner still moves; German Apokerlypse on a phone
too. At a table of two people nobody agreed to, there is no coach; a game made with "Coach for
everyone" in the lobby asks each person to agree, and the coach appears once both did."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.helpers import create
from tests.server.served import Server

from .playing import PHONE, Person, click_decision, move, person, ready, screenshot, seat_url


def ask(page: Page) -> None:
    """Ask the coach and wait for its candidates (a question worth asking: several choices)."""
    page.click("#coach-ask")
    # The search stops by its seconds (5), but waits its turn on the pool the computer players
    # of every game on this server share: on a machine loaded by other work, well past a
    # page's usual wait.
    expect(page.locator("#coach")).to_have_attribute("data-state", "advised", timeout=120_000)


def later(page: Page) -> None:
    page.locator("#name-prompt button", has_text="Later").or_(
        page.locator("#name-prompt button", has_text="Später")
    ).first.click()


def several_choices(page: Page) -> None:
    """Play on (as the learner would) until this seat's decision has more than one choice."""
    ready(page)
    while page.evaluate("() => window.apokalypse.state().legal.length") < 2:
        before = move(page)
        click_decision(page)
        page.wait_for_function(f"() => Number(document.body.dataset.move) > {before}")
        ready(page)


def test_the_coach_shows_the_experts_candidates_against_computers(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = create(server, players=3, seats=["human", "medium", "hard"])
    page = person(people, browser)
    page.goto(seat_url(server, created, 0))
    several_choices(page)
    expect(page.locator("#coach-agreement")).to_have_count(0)  # nobody to agree with
    expect(page.locator("#coach-ask")).to_have_text("What would the expert do?")
    ask(page)
    candidates = page.locator(".coach-candidate")
    count = candidates.count()
    assert 1 <= count <= 3
    choices = page.locator("#choices button.choice")
    legal = page.evaluate("() => window.apokalypse.state().legal.map((a) => a.text)")
    worded = page.evaluate("() => window.apokalypse.state().text.choices")
    for i in range(count):
        action = candidates.nth(i).get_attribute("data-coach-action") or ""
        assert action in legal, (action, legal)
        # worded as the seat's own choices are, with its share of the search and a reason
        expect(candidates.nth(i).locator(".coach-choice")).to_have_text(worded[legal.index(action)])
        expect(candidates.nth(i).locator(".coach-share-text")).to_contain_text("% of its search")
        expect(candidates.nth(i).locator(".coach-reason")).to_contain_text("your chances look")
    # In the search's order, the most tried first, and the page says so.
    shares = [int(t.split(" %")[0]) for t in page.locator(".coach-share-text").all_inner_texts()]
    assert shares == sorted(shares, reverse=True), shares
    expect(page.locator("#coach-order")).to_contain_text("Most tried first")
    # The first candidate is lit on the table: the places (or hand card, or choice) making it.
    first = candidates.nth(0).get_attribute("data-coach-action") or ""
    marked = page.locator(".coach-mark")
    expect(marked.first).to_be_visible()
    for i in range(marked.count()):
        one = marked.nth(i).get_attribute("data-action")
        many = (marked.nth(i).get_attribute("data-actions") or "").split("|")
        assert one == first or first in many, (one, many, first)
    screenshot(page, tmp_path, "coach-desktop-en", full_page=False)
    if count > 1:  # another candidate, lit instead
        second = candidates.nth(1).get_attribute("data-coach-action") or ""
        candidates.nth(1).locator(".coach-pick").click()
        expect(candidates.nth(1)).to_have_class("coach-candidate shown")
        lit = page.locator(".coach-mark").first
        expect(lit).to_be_visible()
        assert second in (
            lit.get_attribute("data-action"),
            *(lit.get_attribute("data-actions") or "").split("|"),
        )
    assert choices.count() >= 1
    # The learner makes the move: the advice goes with the decision it was for.
    before = move(page)
    click_decision(page)
    page.wait_for_function(f"() => Number(document.body.dataset.move) > {before}")
    expect(page.locator(".coach-candidate")).to_have_count(0)
    expect(page.locator(".coach-mark")).to_have_count(0)


def test_german_apokerlypse_on_a_phone(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = create(
        server, game="apokerlypse", players=3, seats=["human", "medium", "medium"], lang="de"
    )
    page = person(people, browser, PHONE)
    page.goto(seat_url(server, created, 0))
    several_choices(page)
    later(page)
    expect(page.locator("#coach-ask")).to_have_text("Was würde der Experte tun?")
    ask(page)
    expect(page.locator(".coach-candidate").first.locator(".coach-reason")).to_contain_text("Chips")
    expect(page.locator(".coach-share-text").first).to_contain_text("% seiner Suche")
    box = page.locator("#coach").bounding_box()
    assert box is not None and box["width"] <= PHONE["width"], box  # fits the phone
    screenshot(page, tmp_path, "coach-phone-de-apokerlypse", full_page=False)


def test_no_coach_at_a_table_of_people_until_everybody_agreed(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    # Two people, no agreement: no coach, nothing to agree to.
    created = create(server, players=2, seats=["human", "human"])
    ann, bob = person(people, browser), person(people, browser)
    ann.goto(seat_url(server, created, 0))
    bob.goto(seat_url(server, created, 1))
    for page in (ann, bob):
        page.wait_for_selector("body[data-move]")
    deciding = ann if ann.evaluate("() => window.apokalypse.state().legal.length") else bob
    ready(deciding)
    for page in (ann, bob):
        expect(page.locator("#coach")).to_have_count(0)
        expect(page.locator("#coach-agreement")).to_have_count(0)
        assert page.evaluate("() => window.apokalypse.state().coach.available") is False

    # The lobby's "Coach for everyone": each person agrees at their seat, then it is there.
    ann.goto(f"{server.http}/")
    ann.select_option("#players", "2")
    expect(ann.locator("#coach-for-everyone")).to_have_count(0)  # one person: nothing to offer
    ann.select_option("#seats select[data-seat='1']", "human")
    ann.check("#coach-for-everyone input")
    screenshot(ann, tmp_path, "coach-lobby-en")
    ann.click("#create-button")
    links = ann.locator("a.seat-link")
    expect(links).to_have_count(2)
    bob.goto(links.nth(1).get_attribute("href") or "")
    ann.click("#open-seat")
    for page in (ann, bob):
        page.wait_for_selector("body[data-move]")
        expect(page.locator("#coach-agreement")).to_contain_text("offers the coach")
        expect(page.locator("#coach")).to_have_count(0)
    ann.click("#coach-agree")
    expect(ann.locator("#coach-agreement")).to_contain_text(
        "Another person at this table has not agreed to the coach."
    )
    screenshot(ann, tmp_path, "coach-agreed-waiting-en", full_page=False)
    expect(bob.locator("#coach")).to_have_count(0)
    bob.click("#coach-agree")
    deciding = ann if ann.evaluate("() => window.apokalypse.state().legal.length") else bob
    several_choices(deciding)
    ask(deciding)
    expect(deciding.locator(".coach-candidate").first).to_be_visible()
    screenshot(deciding, tmp_path, "coach-agreed-advice-en", full_page=False)
