"""A phone, used by touch alone: the page's hints say "Tap …" where a desktop's say "Point at …"
or "Click …", and a computer seat's whole name is shown ("Medium (computer) (p2)", not cut to
"Medium (compute…")."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.helpers import create
from tests.server.served import Server

from .playing import DESKTOP, PHONE, WAIT_MS, Person, person, ready, seat_url


def test_a_phone_says_tap_and_shows_whole_computer_names(
    server: Server, browser: Browser, people: list[Person]
) -> None:
    created = create(server, players=3, seats=["human", "medium", "medium"])
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    phone.set_default_timeout(WAIT_MS)
    try:
        page = phone.new_page()
        page.goto(seat_url(server, created, 0))
        ready(page)
        expect(page.locator("#card-help")).to_have_text("Tap a card to read what it does.")
        expect(page.locator("#decision .hint")).to_have_text(
            "Tap a card in your hand, a lit place on a display, or a choice below."
        )
        names = page.locator(".player-name")
        expect(names.nth(1)).to_have_text("Medium (computer) (p2)")
        cut = names.evaluate_all("l => l.filter(e => e.scrollWidth > e.clientWidth).length")
        assert cut == 0
    finally:
        phone.close()
    desktop = person(people, browser, DESKTOP)
    desktop.goto(seat_url(server, created, 0))
    ready(desktop)
    expect(desktop.locator("#card-help")).to_have_text(
        "Point at a card, or focus it, to read what it does."
    )
