"""The browser pages in a real browser: Debian's Chromium driven by Playwright against the real
``apokalypse serve`` process, playing as a person would: the lobby creates games, cards are played
by clicking them and the places that light up on the displays, a horseman's ride shows its panel,
the page survives a reload, a friend joins by invite link, a spectator sees no hand, refusals show
their rule, a phone-sized screen and the keyboard alone can play, and both games end in their
final reveal. Every wait is on the page's state (``data-move`` and friends), never a sleep.

The games the lobby creates are random deals; the long parts (to a ride, to the final reveal,
Apokerlypse's whole game) are played on seeded deals of the same tables
(``tests/server/seeded.py``): the same game, as long, on every run."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, expect

from apokalypse.server import pages
from tests.helpers import create
from tests.server.seeded import Passes, horseman_near, seeded
from tests.server.served import Server

from .playing import (
    PHONE,
    Person,
    after,
    click_decision,
    close_ride,
    move,
    over,
    person,
    play,
    ready,
    screenshot,
    seat_url,
)

# Me against the heuristic, passing (as ``play(..., prefer_pass=True)`` does): the seeded deal on
# which the horsemen ride after the lobby's game, put just before the first rides and just
# before Death rides (a couple of decisions each).
SEED = 2
# Apokerlypse, me clicking (``click_decision``) against the random player: the whole game, 32 of
# my decisions to its end (somebody runs out of chips).
POKER_SEED = 1
POKER_MOST = 60


@pytest.mark.long(28)
def test_a_game_from_the_lobby_to_the_final_reveal(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    page = person(people, browser)
    page.goto(f"{server.http}/")
    page.locator("label.game-option", has_text="Apokalypse").click()
    page.select_option("#players", "2")
    expect(page.locator("#seats select")).to_have_count(2)
    page.select_option("#seats select[data-seat='0']", "human")
    page.select_option("#seats select[data-seat='1']", "heuristic")
    page.click("#create-button")
    expect(page.locator("a.seat-link")).to_have_count(1)  # one human seat: one invite link
    seat_link = page.locator("a.seat-link").get_attribute("href") or ""
    spectator_link = page.locator("#spectator-link").get_attribute("href") or ""
    game_id = seat_link.split("/games/")[1].split("?")[0]
    assert "?token=" in seat_link and spectator_link.endswith(f"/games/{game_id}")
    expect(page.locator(f"#my-games li[data-id='{game_id}']")).to_contain_text("running")
    screenshot(page, tmp_path, "lobby")
    token = seat_link.split("token=")[1]

    page.click("#open-seat")
    ready(page)
    expect(page.locator(".display")).to_have_count(2)
    for seat in range(2):  # three rows, good left, evil right, the sides named
        bands = page.locator(f".display[data-seat='{seat}'] .plane-band")
        assert [b.get_attribute("data-plane") for b in bands.all()] == ["heaven", "earth", "nether"]
    expect(page.locator(".display .side-label.good").first).to_contain_text("Good")
    expect(page.locator(".display .side-label.evil").first).to_contain_text("Evil")
    expect(page.locator("#ethos")).to_be_visible()
    card = page.locator("#hand .hand-card").first  # named from the card facts, not by its code
    assert card.inner_text().strip() not in ("", card.get_attribute("data-code"))
    card.hover()  # the card's help: its name and what it does
    code = card.get_attribute("data-code") or ""
    expect(page.locator("#card-help")).to_have_attribute("data-code", code)
    expect(page.locator(".deck-above").first).to_be_visible()  # cards until the horseman
    assert token not in page.content()  # the token stays in the address, not in the page

    # A card from the hand, then a place that lit up on a display.
    first = move(page)
    play(page, 6, shots=tmp_path)
    assert move(page) > first + 6, "the computer player answered"
    bot = page.locator("#log li", has_text="Heuristic (computer)")  # the bot's sentences
    expect(bot.first).to_be_attached()
    screenshot(page, tmp_path, "game")

    # Pass until a horseman rides: its panel shows every display's protection and reckoning.
    # (The same table on a seeded deal, a few cards before the first horseman.)
    riding = seeded(
        server.database_url,
        "apokalypse",
        ["human", "heuristic"],
        SEED,
        people=Passes(),
        until=horseman_near(1, 3),
    )
    page.goto(seat_url(server, riding.created, 0))
    ready(page)
    rides: list[int] = []
    while not rides:
        assert not over(page)
        rides += play(page, 1, prefer_pass=True, shots=tmp_path)
    assert rides[0] == 1, rides

    # A reload mid-game: the same move, the same seat; the old ride stays behind its button.
    shown = move(page)
    page.reload()
    ready(page)
    assert move(page) == shown
    expect(page.locator("#ride-panel")).to_have_count(0)
    page.click("#last-ride")
    expect(page.locator("#ride-panel")).to_be_visible()
    page.click("#ride-continue")

    # To the end: every ethos turned over, the totals, the winners and why. (The seeded deal
    # again, a few cards before Death, the last horseman.)
    ending = seeded(
        server.database_url,
        "apokalypse",
        ["human", "heuristic"],
        SEED,
        people=Passes(),
        until=horseman_near(4, 3),
    )
    game_id, token = ending.id, ending.tokens[0]
    page.goto(seat_url(server, ending.created, 0))
    ready(page)
    rides = []
    for _ in range(40):
        if over(page):
            break
        rides += play(page, 1, prefer_pass=True)
    if 4 not in rides:  # Death's ride ends the game: its panel opens with the final reveal
        page.wait_for_selector("#ride-panel[open]")
        rides.append(close_ride(page) or 0)
    assert 4 in rides, rides  # Death rode last
    reveal = page.locator("#final-reveal")
    expect(reveal).to_be_visible()
    expect(reveal.locator(".reveal")).to_have_count(2)
    for seat in range(2):
        assert reveal.locator(f".reveal[data-seat='{seat}']").get_attribute("data-ethos") in (
            "good",
            "evil",
        )
    expect(reveal.locator(".verdict")).not_to_be_empty()
    screenshot(page, tmp_path, "final")

    # A rematch: a new game with the same seats, this seat's link opens it.
    page.click("#rematch")
    link = page.locator("#rematch-link")
    expect(link).to_be_visible()
    href = link.get_attribute("href") or ""
    assert "/games/" in href and game_id not in href and f"token={token}" in href
    page.goto(f"{server.http}/")
    expect(page.locator(f"#my-games li[data-id='{game_id}']")).to_contain_text("finished")


def test_a_friend_joins_by_invite_link_and_a_spectator_watches(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = create(server, players=3, seats=["human", "human", "heuristic"])
    me, friend = person(people, browser), person(people, browser)
    me.goto(seat_url(server, created, 0))
    friend.goto(seat_url(server, created, 1))
    me.wait_for_selector("body[data-move]")  # either of them may start
    friend.wait_for_selector("body[data-move]")
    expect(me.locator("#whoami")).to_have_text("Seat 1")
    expect(friend.locator("#whoami")).to_have_text("Seat 2")
    friend_dot = me.locator(".player[data-seat='1'] .seat-dot")  # as the others see the friend
    expect(friend_dot).to_have_attribute("data-state", "connected")

    spectator = person(people, browser)
    spectator.goto(f"{server.http}/games/{created['id']}")
    spectator.wait_for_selector("body[data-move]")
    expect(spectator.locator("#whoami")).to_have_text("Spectator")
    expect(spectator.locator(".display")).to_have_count(3)
    expect(spectator.locator("#hand")).to_have_count(0)
    expect(spectator.locator("#spectator-note")).to_be_visible()
    expect(spectator.locator("#choices")).to_have_count(0)
    watched = move(spectator)

    # Both people play: whoever is asked decides, by clicking on the table.
    decided = {0: 0, 1: 0}
    current = move(me)
    for _ in range(40):
        if min(decided.values()) >= 2:
            break
        # The bot answers at once, so a person decides next: me, or the friend (whose turn I
        # see, or whose defence I do not: a defence window is the asked person's secret).
        me.wait_for_function(
            f"() => Number(document.body.dataset.move) >= {current}"
            " && (document.body.dataset.deciding === 'yes'"
            " || ['', '1'].includes(document.body.dataset.toAct))"
        )
        seat = 0 if me.locator("body").get_attribute("data-deciding") == "yes" else 1
        page = me if seat == 0 else friend
        page.wait_for_function(
            f"() => Number(document.body.dataset.move) >= {current}"
            " && document.body.dataset.deciding === 'yes'"
        )
        close_ride(page)
        current = move(page)
        click_decision(page)
        page.wait_for_function(f"() => Number(document.body.dataset.move) > {current}")
        current = move(page)
        decided[seat] += 1
    assert min(decided.values()) >= 2, decided
    # the spectator follows the game (not move by move: a defence window's answers are secret)
    spectator.wait_for_function(f"() => Number(document.body.dataset.move) > {watched}")
    assert friend.locator("#hand .hand-card").count() + me.locator("#hand .hand-card").count() > 0
    screenshot(friend, tmp_path, "friend")
    screenshot(spectator, tmp_path, "spectator")

    # The friend leaves (and says so in the dialog): a computer plays their seat until they
    # take it back.
    friend.click("#leave")
    friend.click("#leave-confirm")
    expect(friend_dot).to_have_attribute("data-state", "away")
    friend.click("#reclaim")
    expect(friend_dot).to_have_attribute("data-state", "connected")


def test_a_german_game_shows_refusals_with_their_rule(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    created = create(server, lang="de")
    page = person(people, browser)
    page.goto(seat_url(server, created, 0))
    ready(page)
    shown = move(page)
    expect(page.locator(".display .setup.plane-heaven").first).to_have_text("Himmel")
    expect(page.locator("#question")).to_contain_text("du bist am Zug")  # the terminal's question

    page.evaluate("([a, m]) => window.apokalypse.send(a, m)", ["pass", shown + 100])
    expect(page.locator("#refusal")).to_contain_text("Diese Aktion antwortet auf Zug")

    legal = [b.get_attribute("data-action") for b in page.locator("#choices button.choice").all()]
    illegal = next(a for a in ("decline", "steal p2", "give violence") if a not in legal)
    page.evaluate("([a, m]) => window.apokalypse.send(a, m)", [illegal, shown])
    expect(page.locator("#refusal .reason")).to_contain_text("Nicht erlaubt")
    rule = page.locator("#refusal").get_attribute("data-rule") or ""
    assert rule.startswith("R-"), rule
    expect(page.locator("#refusal .rule-id")).to_have_text(rule)
    screenshot(page, tmp_path, "refusal-de")

    page.click("#rules-button")  # the rules in short, from the server, in German
    expect(page.locator("#rules .rules-book")).to_have_attribute("data-loaded", "yes")
    expect(page.locator("#rules .rules-section h3").first).to_have_text("Das Ziel")
    page.keyboard.press("Escape")
    expect(page.locator("#rules")).to_have_count(0)

    play(page, 1)  # nothing changed: the game goes on, and the refusal is gone
    expect(page.locator("#refusal")).to_have_count(0)


def test_a_phone_and_the_keyboard_alone(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    timer = {"turn": 300, "bank": 60}  # a clock on every decision of a person
    created = create(server, players=3, seats=["human", "random", "heuristic"], timer=timer)
    page = person(people, browser, PHONE)
    page.goto(seat_url(server, created, 0))
    ready(page)
    expect(page.locator("#clock")).to_be_visible()
    expect(page.locator("#clock")).to_have_attribute("data-seat", "0")  # the deciding seat: mine
    expect(page.locator("#clock .time")).to_contain_text(":")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"
    screenshot(page, tmp_path, "phone")

    # Tab to something lit (a choice, a hand card, a place) and press Enter or Space.
    decisions = 0
    for key in ("Enter", " ", "Enter", " "):
        ready(page)
        if over(page):
            break
        if close_ride(page, keyboard=True) is not None:
            continue
        before = move(page)
        for _ in range(80):
            page.keyboard.press("Tab")
            focused = page.evaluate(
                "(() => { const e = document.activeElement;"
                " return e && (e.matches('#choices button.choice:not([data-action=pass])')"
                " || e.matches('.cell.target, .hand-card.target, .player-row.target')) })()"
            )
            if focused:
                break
        else:
            pytest.fail("no lit place or choice is reachable with Tab")
        page.keyboard.press(key)
        if page.locator("#cancel-pick").count():  # a card's uses: the first one has the focus
            page.keyboard.press("Enter")
        after(page, before)
        decisions += 1
    assert decisions >= 3, decisions
    screenshot(page, tmp_path, "phone-later")

    page.goto(f"{server.http}/")  # the lobby fits the phone too
    expect(page.locator("#create-button")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, tmp_path, "phone-lobby")


@pytest.mark.long(36)
def test_an_apokerlypse_game_to_the_end(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    page = person(people, browser)
    page.goto(f"{server.http}/")
    page.locator("label.game-option", has_text="Apokerlypse").click()
    expect(page.locator("#players option")).to_have_count(3)  # 2–4 players
    page.select_option("#players", "2")
    page.select_option("#seats select[data-seat='1']", "random")
    page.click("#create-button")
    page.click("#open-seat")
    ready(page)
    labels = page.locator("#hand .hand-card").all_inner_texts()
    # five dealt; the other seat, when it decides first, may have taken one of them already
    assert len(labels) >= 4 and all(label.strip()[-1] in "♠♥♦♣" for label in labels), labels
    expect(page.locator("#pot")).to_contain_text("Pot")
    screenshot(page, tmp_path, "apokerlypse")

    # The whole game, clicked through: the same table on a seeded deal (Apokerlypse's one whole
    # game in English clicked through in the browser).
    game = seeded(server.database_url, "apokerlypse", ["human", "random"], POKER_SEED)
    page.goto(seat_url(server, game.created, 0))
    ready(page)
    for _ in range(POKER_MOST):
        if over(page):
            break
        before = move(page)
        click_decision(page)
        after(page, before)
    expect(page.locator("#final-reveal")).to_be_visible()
    expect(page.locator("#final-reveal .reveal")).to_have_count(2)
    screenshot(page, tmp_path, "apokerlypse-final")


def test_a_wrong_link_says_so(server: Server, browser: Browser, people: list[Person]) -> None:
    page = person(people, browser)
    page.goto(f"{server.http}/games/nothing-here")
    expect(page.locator("#fatal")).to_contain_text("There is no such game.")
    game_id = create(server)["id"]
    page.goto(f"{server.http}/games/{game_id}?token=not-a-seat")
    expect(page.locator("#fatal")).to_contain_text("This link opens no seat of this game.")
    expect(page.locator("button.choice")).to_have_count(0)


def test_without_a_build_the_pages_say_how_to_make_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "DIST", tmp_path / "dist")
    app = FastAPI()
    pages.add_pages(app)

    async def get(path: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://pages") as client:
            return await client.get(path)

    for path in ("/", "/games/abc", "/games/abc/replay", "/replay"):
        # its own thread: this thread's event loop belongs to Playwright's browser
        with ThreadPoolExecutor(1) as pool:
            response = pool.submit(asyncio.run, get(path)).result()
        assert response.status_code == 503
        assert "make web" in response.text
