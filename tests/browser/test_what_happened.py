"""Seeing what just happened and knowing it is my turn, in a real browser against the real
server: a card stolen from me is marked, named in a toast and in a log line that a phone reaches
and that points at what it moved; the tab's title and favicon say when it is my turn and stop
saying it after; notification permission is asked only when the person asks for notifications;
reduced motion stops the animations; a double click sends one action; Leave asks first; the
focus stays on a control after an action; a spectator gets the rematch's link. Every wait is on
the page's state, never a sleep."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.playing import (
    DESKTOP,
    PHONE,
    Person,
    move,
    over,
    person,
    ready,
    screenshot,
    seat_url,
)
from tests.helpers import create
from tests.server.seeded import Passes, horseman_near, seeded
from tests.server.served import Server

# Counts what the page sends and whether it asks for notification permission.
WATCH = """
window.__sent = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  window.__sent.push(String(data));
  return send.call(this, data);
};
window.__asked = 0;
if (window.Notification) {
  Notification.requestPermission = () => {
    window.__asked += 1;
    return Promise.resolve("granted");
  };
}
"""
STOLE = {"en": "stole", "de": "gestohlen"}  # the toast
STEALS = {"en": "steals", "de": "stiehlt"}  # the log line (the server's sentence)
TURN = {"en": "● Your turn — ", "de": "● Du bist dran — "}
LEAVE_SEED = 0


def watched(people: list[Person], browser: Browser, viewport: ViewportSize) -> Page:
    page = person(people, browser, viewport)
    page.add_init_script(WATCH)
    return page


def actions_sent(page: Page) -> list[str]:
    sent: list[str] = page.evaluate("window.__sent")
    return [s for s in sent if '"type":"action"' in s.replace(" ", "")]


def deciding(page: Page) -> None:
    page.wait_for_function("() => document.body.dataset.deciding === 'yes'")


def favicon(page: Page) -> str:
    return page.evaluate("document.querySelector('link[rel=icon]').href") or ""


@pytest.mark.parametrize(("lang", "victim_view"), [("en", PHONE), ("de", DESKTOP)])
def test_a_stolen_card_is_seen_and_my_turn_is_told(
    server: Server,
    browser: Browser,
    people: list[Person],
    tmp_path: Any,
    lang: str,
    victim_view: ViewportSize,
) -> None:
    created = create(server, players=2, seats=["human", "human"], lang=lang)
    game_id = created["id"]
    pages = {q: watched(people, browser, victim_view) for q in (0, 1)}
    for q, page in pages.items():
        page.goto(seat_url(server, created, q))
        page.wait_for_selector("body[data-move]")
    pages[0].wait_for_function("() => document.body.dataset.toAct !== ''")
    thief_seat = int(pages[0].locator("body").get_attribute("data-to-act") or "0")
    victim_seat = 1 - thief_seat
    thief, victim = pages[thief_seat], pages[victim_seat]
    thief.set_viewport_size(DESKTOP if victim_view == PHONE else PHONE)
    plain = f"Apokalypse · {game_id}"

    # Nothing asked on load; the deciding seat's tab says so, the other's does not.
    deciding(thief)
    assert thief.evaluate("window.__asked") == 0 and victim.evaluate("window.__asked") == 0
    expect(thief).to_have_title(TURN[lang] + plain)
    expect(victim).to_have_title(plain)
    idle_icon, turn_icon = favicon(victim), favicon(thief)
    assert idle_icon.startswith("data:image/svg+xml") and turn_icon != idle_icon

    # The thief lays a populace on an evil side (a card, its use, a display), then steals.
    state = thief.evaluate("window.apokalypse.state()")
    evil = next(a for a in state["legal"] if a.get("use") == "evil")
    populace = thief.locator(f'#hand .hand-card[data-code="{evil["card"]}"]').first
    populace.click()
    if "|" in (populace.get_attribute("data-actions") or ""):  # its uses: pick the evil one
        thief.click(f'#choices button.choice[data-action="{evil["text"]}"]')
    thief.wait_for_function("() => document.body.dataset.decision === 'choose-target'")
    thief.locator("#choices button.choice").first.click()  # whose display it joins
    thief.wait_for_function("() => document.body.dataset.decision === 'choose-victim'")
    thief.click(f'#choices button.choice[data-action="steal p{victim_seat + 1}"]')

    # The victim: a toast names the card, the thief's row is marked, it is the victim's turn.
    toast = victim.locator("#toasts .toast").first
    expect(toast).to_contain_text(STOLE[lang])
    events = victim.evaluate("window.apokalypse.state()")
    steal = next(e for e in events["events"] if e["kind"] == "steal")
    code = steal["args"]["card"]
    facts_name = thief.locator(f'#hand .hand-card[data-code="{code}"]').first.get_attribute(
        "aria-label"
    )  # the card's name, from the card facts
    assert facts_name
    expect(toast).to_contain_text(facts_name.split(" — ")[0])
    expect(victim.locator("#toasts")).to_have_attribute("aria-live", "polite")
    expect(victim.locator(f'.player[data-seat="{thief_seat}"][data-fresh]')).to_have_count(1)
    # the thief sees the card arrive in its hand
    in_hand = f'#hand .hand-card[data-code="{code}"]'
    expect(thief.locator(f"{in_hand}[data-fresh]").first).to_be_attached()
    deciding(victim)
    expect(victim).to_have_title(TURN[lang] + plain)
    assert favicon(victim) == turn_icon
    expect(thief).to_have_title(plain)
    screenshot(victim, tmp_path, f"stolen-{lang}-victim", full_page=False)
    screenshot(thief, tmp_path, f"stolen-{lang}-thief", full_page=False)

    # The log line of the theft: on a phone behind the Log button (with its unread count), on a
    # desktop in view; pointing at it marks what it moved.
    phone = victim if victim_view == PHONE else thief
    desk = thief if phone is victim else victim
    expect(phone.locator("#log-unread")).to_be_visible()
    phone.click("#log-button")
    expect(phone.locator("#log-panel.open")).to_be_visible()
    expect(phone.locator("#log-unread")).to_have_count(0)
    line = phone.locator("#log li", has_text=STEALS[lang]).last
    expect(line).to_be_in_viewport()
    line.click()
    expect(phone.locator("[data-pointed]").first).to_be_attached()
    screenshot(phone, tmp_path, f"log-phone-{lang}", full_page=False)
    phone.click("#log-close")
    expect(desk.locator("#log-button")).to_be_hidden()
    desk_line = desk.locator("#log li", has_text=STEALS[lang]).last
    expect(desk_line).to_be_in_viewport()
    thief_line = thief.locator("#log li", has_text=STEALS[lang]).last
    thief_line.hover() if thief is desk else thief_line.click()
    expect(thief.locator(f"{in_hand}[data-pointed]").first).to_be_attached()

    # Reduced motion: the marks stay, the animation goes.
    victim.emulate_media(reduced_motion="reduce")
    thief.emulate_media(reduced_motion="no-preference")
    # A double click on the victim's choice sends one action; its turn ends and the tab says so.
    before = len(actions_sent(victim))
    shown = move(victim)
    victim.locator("#choices button.choice").first.dblclick()
    victim.wait_for_function(f"() => Number(document.body.dataset.move) > {shown}")
    assert len(actions_sent(victim)) == before + 1, actions_sent(victim)[before:]
    expect(victim.locator("#refusal")).to_have_count(0)
    if victim.locator("body").get_attribute("data-deciding") != "yes":
        expect(victim).to_have_title(plain)
        assert favicon(victim) == idle_icon
    fresh = victim.locator("[data-fresh]")
    if fresh.count():
        assert fresh.first.evaluate("e => getComputedStyle(e).animationName") == "none"
    # Whatever the victim did lands on the thief's page with its mark, animated there.
    thief.wait_for_function(f"() => Number(document.body.dataset.move) > {shown}")
    marked = thief.locator("[data-fresh]")
    if marked.count():
        assert marked.first.evaluate("e => getComputedStyle(e).animationName") != "none"

    # Notifications: asked for only when the person turns them on.
    assert victim.evaluate("window.__asked") == 0
    victim.click("#turn-notify")
    victim.wait_for_function("() => window.__asked === 1")
    expect(victim.locator("#turn-notify")).to_be_checked()


def test_leave_asks_focus_stays_and_a_spectator_gets_the_rematch(
    server: Server, browser: Browser, people: list[Person], tmp_path: Any
) -> None:
    # Me against the heuristic, on a seeded deal, put where Death is the next horseman to ride
    # (the seat's computer then plays it to the end in a few moves).
    created = seeded(
        server.database_url,
        "apokalypse",
        ["human", "heuristic"],
        LEAVE_SEED,
        people=Passes(),
        until=horseman_near(4, 40),
    ).created
    page = watched(people, browser, DESKTOP)
    page.goto(seat_url(server, created, 0))
    ready(page)

    # By keyboard: after the action, the focus is on a control again (not dropped to the page).
    for _ in range(3):
        if over(page):
            break
        before = move(page)
        page.locator("#choices button.choice").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => Number(document.body.dataset.move) > {before}"
            " && document.body.dataset.deciding === 'yes'"
        )
        page.wait_for_function(
            "() => document.activeElement && document.activeElement !== document.body"
            " && document.activeElement.matches('#choices button, #hand .hand-card, .target')"
        )

    # Leave asks first: staying keeps the seat, leaving hands it to a computer.
    page.click("#leave")
    dialog = page.locator("#leave-dialog")
    expect(dialog).to_be_visible()
    screenshot(page, tmp_path, "leave-dialog", full_page=False)
    page.click("#leave-stay")
    expect(dialog).to_have_count(0)
    me = page.locator(".player[data-seat='0'] .seat-dot")
    expect(me).to_have_attribute("data-state", "connected")
    spectator = person(people, browser, PHONE)
    spectator.goto(f"{server.http}/games/{created['id']}")
    spectator.wait_for_selector("body[data-move]")
    page.click("#leave")
    page.click("#leave-confirm")
    expect(me).to_have_attribute("data-state", "away")

    # The computer plays my seat to the end; I ask for the rematch, the spectator gets its link.
    page.wait_for_function("() => document.body.dataset.over === 'yes'")
    page.wait_for_selector("#ride-panel[open]")  # Death's ride ends the game
    page.click("#ride-continue")
    page.click("#rematch")
    link = spectator.locator("#rematch-link")
    expect(link).to_be_visible()
    href = link.get_attribute("href") or ""
    assert href.startswith("/games/") and "token" not in href and created["id"] not in href
    screenshot(spectator, tmp_path, "spectator-rematch")


def test_a_fatal_link_is_not_connected_and_the_lobby_shows_the_id_as_it_is(
    server: Server, browser: Browser, people: list[Person]
) -> None:
    page = person(people, browser, PHONE)
    game_id = create(server)["id"]
    page.goto(f"{server.http}/games/{game_id}?token=not-a-seat")
    expect(page.locator("#fatal")).to_be_visible()
    expect(page.locator("#connection")).not_to_have_attribute("data-state", "connected")

    page.goto(f"{server.http}/")
    page.locator("label.game-option", has_text="Apokalypse").click()
    page.click("#create-button")
    shown = page.locator("#game-id")
    expect(shown).to_be_visible()
    created_id = shown.text_content() or ""
    assert shown.inner_text() == created_id  # no text-transform: the id as it is
    expect(page.locator("#open-seat")).to_be_in_viewport()  # a phone shows it without scrolling
