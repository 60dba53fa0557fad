"""Names and table talk in a real browser (Debian's Chromium, Playwright, the real ``apokalypse
serve``): two friends in two browsers name themselves (one with a name that looks like markup and
must show as text), talk, use a quick phrase and mute each other; a spectator talks in the
spectators' channel, which the players never see while the game runs; German, and a 390-px phone
where the talk is a drawer behind a tab with an unread count and the board stays in view."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.helpers import create
from tests.server.served import Server

from .playing import MARKUP, PHONE, Person, line, name_myself, person, say, screenshot, seat_url


def test_friends_name_themselves_talk_and_mute_and_a_spectator_whispers_to_spectators_only(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = create(server, players=3, seats=["human", "human", "medium"])
    game_id = created["id"]
    ann, friend = person(people, browser), person(people, browser)
    ann.goto(seat_url(server, created, 0))
    friend.goto(seat_url(server, created, 1))
    for page in (ann, friend):
        page.wait_for_selector("body[data-move]")
        expect(page.locator("#name-prompt")).to_be_visible()  # first opening: asked, not blocked
    name_myself(ann, "  Ann ")
    name_myself(friend, MARKUP)

    # Everybody's board, the players and the log use the chosen names; markup stays text.
    expect(ann.locator(".player[data-seat='0'] .player-name")).to_contain_text("Ann (you)")
    expect(friend.locator(".player[data-seat='0'] .player-name")).to_contain_text("Ann")
    expect(ann.locator(".player[data-seat='1'] .player-name")).to_contain_text(MARKUP)
    expect(ann.locator(".player[data-seat='2'] .player-name")).to_contain_text("Medium (computer)")
    expect(ann.locator(".display.own .owner")).to_have_text("Your display")
    expect(ann.locator(".display[data-seat='1'] .owner")).to_contain_text(MARKUP)
    for page in (ann, friend):
        expect(page.locator("img")).to_have_count(0)  # no element was made of the name

    say(ann, "Hello <b>friends</b>")
    expect(line(friend, "Hello <b>friends</b>")).to_have_count(1)
    expect(friend.locator(".talk-line b")).to_have_count(0)
    friend.click(".talk-phrase[data-phrase='phraseWellPlayed']")
    expect(line(ann, "Well played").locator(".talk-name")).to_have_text(MARKUP)

    # A spectator is asked for a name too, names themselves and talks to the spectators only.
    watcher = person(people, browser)
    watcher.goto(f"{server.http}/games/{game_id}")
    watcher.wait_for_selector("body[data-move]")
    expect(line(watcher, "Well played")).to_have_count(1)  # the history, on joining
    expect(watcher.locator("#name-prompt")).to_contain_text("What should the table call you?")
    name_myself(watcher, "Eve")
    say(watcher, "Ann holds the fourth horseman")
    expect(watcher.locator(".talk-line.channel-spectators .talk-name")).to_have_text("Eve")
    say(friend, "Who attacked me?")  # said after the whisper: arrives after it, if at all
    for page in (ann, watcher):
        expect(line(page, "Who attacked me?")).to_have_count(1)
    for page in (ann, friend):
        expect(page.locator(".talk-line.channel-spectators")).to_have_count(0)
        expect(line(page, "fourth horseman")).to_have_count(0)
    screenshot(ann, tmp_path, "talk-desktop-en", full_page=False)
    screenshot(watcher, tmp_path, "talk-desktop-spectator-en", full_page=False)

    # Ann mutes her friend: their lines go, a count stays; remembered over a reload.
    line(ann, "Well played").locator(".talk-mute").click()
    expect(line(ann, "Well played")).to_have_count(0)
    expect(ann.locator("#talk-muted")).to_contain_text("2 muted lines")
    ann.reload()
    ann.wait_for_selector("body[data-move]")
    expect(line(ann, "Hello <b>friends</b>")).to_have_count(1)
    expect(ann.locator("#talk-muted")).to_contain_text("2 muted lines")
    expect(ann.locator("#name-prompt")).to_have_count(0)  # the name is known now
    ann.click("#talk-muted .link-button")
    expect(line(ann, "Who attacked me?")).to_have_count(1)

    # "My games" in the lobby names the people.
    ann.goto(f"{server.http}/")
    expect(ann.locator(f"#my-games li[data-id='{game_id}']")).to_contain_text(f"Ann, {MARKUP}")


def test_german_talk_on_a_phone_is_a_drawer_with_an_unread_count(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = create(server, players=2, seats=["human", "human"], lang="de")
    phone, friend = person(people, browser, PHONE), person(people, browser)
    phone.goto(seat_url(server, created, 0))
    phone.wait_for_selector("body[data-move]")
    # The phone takes the seat that waits: the seat on turn lists its choices above the board,
    # as many as the deal gives (up to a screenful), and the board's place is the test's point.
    waits = 1 if phone.evaluate("() => window.apokalypse.state().legal.length") else 0
    phone.goto(seat_url(server, created, waits))
    friend.goto(seat_url(server, created, 1 - waits))
    phone.wait_for_selector("body[data-move]")
    friend.wait_for_selector("body[data-move]")
    assert phone.evaluate("() => window.apokalypse.state().legal.length") == 0
    expect(phone.locator("#name-prompt")).to_contain_text("Wie soll der Tisch dich nennen?")
    screenshot(phone, tmp_path, "talk-phone-de-prompt", full_page=False)
    name_myself(phone, "Jörg")
    name_myself(friend, "Zoë")
    expect(phone.locator(".display.own .owner")).to_have_text("Deine Auslage")

    # The talk waits behind a tab; the board is in view.
    expect(phone.locator("#talk")).to_be_hidden()
    expect(phone.locator("#talk-tab")).to_be_visible()
    board = phone.locator("#displays").bounding_box()
    assert board is not None and board["y"] < PHONE["height"], board
    friend.click(".talk-phrase[data-phrase='phraseGoodGame']")
    expect(line(friend, "Gutes Spiel")).to_have_count(1)  # in the sender's language
    expect(phone.locator("#talk-unread")).to_have_text("1")
    screenshot(phone, tmp_path, "talk-phone-de-tab", full_page=False)
    phone.click("#talk-tab")
    expect(phone.locator("#talk")).to_be_visible()
    expect(line(phone, "Gutes Spiel").locator(".talk-name")).to_have_text("Zoë")
    expect(phone.locator("#talk-unread")).to_have_count(0)
    say(phone, "Danke, gleichfalls")
    expect(line(friend, "Danke, gleichfalls")).to_have_count(1)
    screenshot(phone, tmp_path, "talk-phone-de-open", full_page=False)
    screenshot(friend, tmp_path, "talk-desktop-de", full_page=False)
    expect(phone.locator("#talk-tab")).to_have_count(0)  # nothing floats over the board
    expect(phone.locator("#talk-close")).to_have_text("Zurück zum Tisch ✕")
    phone.click("#talk-close")
    expect(phone.locator("#talk")).to_be_hidden()
