"""Apokerlypse's card effects in a real browser, in German: each card of the hand shows its effect
(label, timing, what it does, as the default content gives it, KD-SETUP-1), the faction ability
is explained with its action chip coming back (KD-SCORE-2), and a card's effect under the hand
opens that card's help, which says the same. Every wait is on the page's state."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from apokalypse.games.apokerlypse.cards import CODES
from apokalypse.games.apokerlypse.content import DEFAULT_CONTENT, load_content
from apokalypse.i18n.apokerlypse.render import describe_effect
from tests.browser.playing import Person, person, ready, screenshot, seat_url
from tests.helpers import create
from tests.server.served import Server


def test_kd_setup_1_hand_cards_show_their_effect_and_open_their_help_in_german(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    content = load_content(DEFAULT_CONTENT)  # the default: every card has an effect
    created = create(server, game="apokerlypse", seats=["human", "random"], lang="de")
    page = person(people, browser)
    page.goto(seat_url(server, created, 0))
    ready(page)
    codes = [
        c for c in page.locator("#hand .hand-card").evaluate_all("l => l.map(b => b.dataset.code)")
    ]
    assert codes, "a hand to look at"
    for code in codes:
        effect = content.effects[CODES.index(code)]
        assert effect is not None
        expect(page.locator(f"#hand .pc-effect[data-code='{code}']")).to_have_text(
            describe_effect(effect, "de")
        )
    ability = page.locator("#faction-ability")
    expect(ability).to_contain_text("Einmal pro Runde")
    expect(ability).to_contain_text("KD-SCORE-2")
    screenshot(page, tmp_path, "apokerlypse-effects-hand-de", full_page=False)

    code = codes[0]
    page.click(f"#hand .pc-effect[data-code='{code}']")
    help_ = page.locator(f"#rules .card-help-view[data-code='{code}']")
    effect = content.effects[CODES.index(code)]
    assert effect is not None
    expect(help_).to_contain_text(f"Effekt: {describe_effect(effect, 'de')}")
    screenshot(page, tmp_path, "apokerlypse-effects-help-de", full_page=False)
