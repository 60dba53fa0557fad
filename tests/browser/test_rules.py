"""The rules help in a real browser: the rules of the game the page shows, as sections with
headings, lists and the game's icons, a table of contents, a search over the sections and every
card (in both languages, with a message when nothing matches), and one card's help with its
picture, where it may go and what fends it off, opened from the card list and from the card help
bar under the hand. Desktop and phone; every wait is on the page's state."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.playing import (
    PHONE,
    Person,
    person,
    ready,
    screenshot,
    seat_url,
)
from tests.helpers import create
from tests.server.served import Server

TIMEOUT = 10.0


def open_rules(page: Page) -> None:
    page.click("#rules-button")
    expect(page.locator("#rules .rules-book")).to_have_attribute("data-loaded", "yes")


def search(page: Page, words: str) -> None:
    page.fill("#rules-search", words)


def section(page: Page, key: str) -> Locator:
    return page.locator(f"#rules .rules-section[data-section='{key}']")


def sections_shown(page: Page) -> list[str]:
    shown = page.locator("#rules .rules-section").all()
    return [s.get_attribute("data-section") or "" for s in shown]


def test_the_rules_read_well_are_searched_and_explain_each_card(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    rules = httpx.get(f"{server.http}/api/rules/apokalypse", timeout=TIMEOUT).json()
    created = create(server)
    page = person(people, browser)
    page.goto(seat_url(server, created, 0))
    ready(page)
    open_rules(page)

    # Sections with their headings, a table of contents, lists, the game's icons, rule ids.
    ids = [s["id"] for s in rules["sections"]]
    assert sections_shown(page) == [*ids, "cards"]
    titles = page.locator("#rules .rules-section h3").all_inner_texts()
    assert titles[: len(ids)] == [s["title"] for s in rules["sections"]]
    expect(page.locator("#rules .rules-toc button")).to_have_count(len(ids) + 1)
    expect(page.locator("#rules .rules-section li").first).to_be_visible()
    for icon in ("mask", "helmet", "pig"):
        expect(page.locator(f"#rules .rules-icon[data-icon='{icon}'] svg").first).to_be_visible()
    expect(section(page, "horsemen").locator(".rule-id", has_text="R-DEAL-5")).to_be_visible()
    expect(page.locator("#rules")).not_to_contain_text("rules CARD")  # the terminal's hint only
    expect(page.locator("#rules .rules-card")).to_have_count(len(rules["cards"]))
    page.click("#rules .rules-toc button[data-section='end']")
    expect(section(page, "end")).to_be_in_viewport()
    screenshot(page, tmp_path, "rules-desktop", full_page=False)

    # The search keeps the sections and cards that mention it, and marks it.
    search(page, "Heavy Metal")
    expect(section(page, "goal")).to_have_count(0)
    shown = sections_shown(page)
    assert "music" in shown and "display" in shown and "cards" in shown, shown
    expect(page.locator("#rules .rules-card[data-card='metal']")).to_be_visible()
    expect(page.locator("#rules .rules-card[data-card='violence']")).to_have_count(0)
    for each in page.locator("#rules .rules-section").all():
        expect(each.locator("mark").first).to_have_text("Heavy Metal", ignore_case=True)
    screenshot(page, tmp_path, "rules-search", full_page=False)
    search(page, "xyzzy quux")
    expect(page.locator("#rules .rules-no-match")).to_contain_text("Nothing in the rules matches")
    expect(page.locator("#rules .rules-no-match")).to_contain_text("xyzzy quux")
    expect(page.locator("#rules .rules-section")).to_have_count(0)

    # One card's help, from the card list: picture, where it goes, what it does, defences.
    search(page, "violence")
    page.click("#rules .rules-card[data-card='violence']")
    help_ = page.locator("#rules .card-help-view[data-code='violence']")
    expect(help_).to_be_visible()
    expect(page.locator("#rules-title")).to_have_text("Rules: Violence")
    expect(help_.locator(".card-help-picture .card[data-code='violence']")).to_be_visible()
    expect(help_.locator(".uses li[data-use='attack']")).to_contain_text("R-ATTACK-1")
    expect(help_.locator(".does")).to_contain_text("R-ATTACK-2")
    for code in ("metal", "church", "ethos"):
        expect(help_.locator(f".defended-by button[data-card='{code}']")).to_be_visible()
    expect(help_.locator(".defends button[data-card='ethos']")).to_be_visible()
    screenshot(page, tmp_path, "rules-card-desktop", full_page=False)
    help_.locator(".defended-by button[data-card='metal']").click()  # from card to card
    metal = page.locator("#rules .card-help-view[data-code='metal']")
    expect(metal.locator(".uses li[data-use='nether']")).to_contain_text("R-PLAY-13")
    expect(metal.locator(".defends button[data-card='violence']")).to_be_visible()
    page.click("#rules .rules-back")
    expect(page.locator("#rules #rules-search")).to_have_value("violence")  # the search is kept
    page.keyboard.press("Escape")
    expect(page.locator("#rules")).to_have_count(0)

    # From the card help bar under the hand: that card's help at once.
    card = page.locator("#hand .hand-card").first
    code = card.get_attribute("data-code") or ""
    card.hover()
    expect(page.locator("#card-help")).to_have_attribute("data-code", code)
    page.locator("#card-help button").click()
    expect(page.locator("#rules .rules-book")).to_have_attribute("data-loaded", "yes")
    bar = page.locator(f"#rules .card-help-view[data-code='{code}']")
    expect(bar.locator(f".card-help-picture [data-code='{code}']")).to_be_visible()
    expect(bar.locator(".does p").first).to_be_visible()


def test_german_rules_on_a_phone(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = create(server, lang="de")
    page = person(people, browser, PHONE)
    page.goto(seat_url(server, created, 0))
    ready(page)
    open_rules(page)
    expect(page.locator("#rules-title")).to_have_text("Die Regeln in Kürze")
    expect(section(page, "deeds")).to_contain_text("muss einem Mitspieler")
    screenshot(page, tmp_path, "rules-phone-de", full_page=False)

    search(page, "Heavy Metal")  # the German name is written "Heavy-Metal"
    expect(section(page, "goal")).to_have_count(0)
    expect(section(page, "music").locator("mark").first).to_have_text("Heavy-Metal")
    expect(page.locator("#rules .rules-card[data-card='metal']")).to_be_visible()
    search(page, "HOLLENEBENE")  # accents and case do not matter
    display = section(page, "display")
    expect(display.locator("mark").first).to_have_text("Höllenebene")
    search(page, "Quatschwort")
    expect(page.locator("#rules .rules-no-match")).to_contain_text("Nichts in den Regeln passt")

    search(page, "")
    page.click("#rules .rules-card[data-card='seal']")
    seal = page.locator("#rules .card-help-view[data-code='seal']")
    expect(seal.locator(".uses h3")).to_have_text("Wohin sie darf")
    expect(seal.locator(".uses li[data-use='neutralise']")).to_contain_text("R-REWARD-3")
    expect(seal.locator(".does")).to_contain_text("Vorrat")
    expect(seal.locator(".card-help-picture .card[data-code='seal']")).to_be_visible()
    expect(seal.locator(".defends")).to_have_count(0)  # a seal never reaches a hand
    screenshot(page, tmp_path, "rules-card-phone-de", full_page=False)
    width = page.evaluate("document.querySelector('#rules').getBoundingClientRect().right")
    assert width <= PHONE["width"], "the dialog fits the phone"


def test_apokerlypse_rules_in_german(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = create(server, game="apokerlypse", lang="de")
    page = person(people, browser)
    page.goto(seat_url(server, created, 0))
    ready(page)
    open_rules(page)
    expect(section(page, "short").locator("h3")).to_have_text("Ressourcenmangel")
    expect(page.locator("#rules")).not_to_contain_text("Schlusswertung")
    expect(page.locator("#rules .rules-card")).to_have_count(52)
    search(page, "10♥")
    expect(page.locator("#rules .rules-card")).to_have_count(1)
    page.click("#rules .rules-card[data-card='Th']")
    ten = page.locator("#rules .card-help-view[data-code='Th']")
    expect(ten.locator(".card-help-picture .playing-card")).to_be_visible()
    expect(ten.locator(".does")).to_contain_text("Kartenbonus: 1 Punkt")
    screenshot(page, tmp_path, "rules-apokerlypse-de", full_page=False)
