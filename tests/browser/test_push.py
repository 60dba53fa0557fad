"""A turn-based game between two browsers, played over (test-controlled) hours with both tabs
closed between moves, each move prompted by a push: the server pushes to a push service of the
test's own (``tests/server/push_service.py``: VAPID checked, payload decrypted with the
subscription's keys), which hands each push to its browser's service worker as a push service
would (``ServiceWorker.deliverPushMessage``); the worker shows the notification, and its
address (``/games/ID?seat=N``, what a click opens) opens that person's seat from "my games".

A browser's own subscription needs its vendor's push service, out of reach here; each person's
subscription is the push service's, sent to the server as the page sends one."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect

from apokalypse.server.settings import Settings
from tests.helpers import create
from tests.server.inprocess import AheadClock, Running, serving
from tests.server.push_service import PushService, push_service

from .playing import DESKTOP, PHONE, click_decision, close_ride, move, screenshot, seat_url

WAIT = 30.0
AGAIN = 5.0  # seconds before a push not shown is delivered again
NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const shown = await registration.getNotifications();
  return shown.map((n) => ({title: n.title, body: n.body, data: n.data, tag: n.tag}));
}"""
CLOSE_NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  for (const shown of await registration.getNotifications()) shown.close();
}"""


class Browsing:
    """One person's browser: a context with notifications allowed, and its service worker."""

    def __init__(self, browser: Browser, running: Running, name: str, phone: bool) -> None:
        self.running, self.name = running, name
        self.context: BrowserContext = browser.new_context(viewport=PHONE if phone else DESKTOP)
        self.context.grant_permissions(["notifications"], origin=running.http)
        self.page: Page = self.context.new_page()

    def open(self, url: str) -> Page:
        if self.page.is_closed():
            self.page = self.context.new_page()
        self.page.goto(url)
        expect(self.page.locator("body[data-move]")).to_be_attached()
        self.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        return self.page

    def deliver(self, page: Page, message: dict[str, Any]) -> None:
        """What the push service received for this person, handed to its service worker (the
        DevTools protocol, through ``page``, names the worker by its registration) once a
        version of that worker is activated: a push handed to a registration still installing
        is dropped, as a push service would redeliver it."""
        cdp: CDPSession = self.context.new_cdp_session(page)
        active: list[str] = []
        cdp.on(
            "ServiceWorker.workerVersionUpdated",
            lambda event: active.extend(
                v["registrationId"] for v in event["versions"] if v["status"] == "activated"
            ),
        )
        cdp.send("ServiceWorker.enable")
        deadline = time.monotonic() + WAIT
        while not active:
            assert time.monotonic() < deadline, "no activated service worker"
            page.wait_for_timeout(50)
        data = json.dumps(message)
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": self.running.http, "registrationId": active[-1], "data": data},
        )
        cdp.detach()

    def shown(self, page: Page, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The notifications the worker shows once ``message`` was delivered. A delivery the
        browser drops (a worker stopped while it was handed over) is made again after
        :data:`AGAIN` seconds, as a push service retries one not acknowledged; the same tag
        makes a second delivery replace the first, never add to it. Those shown before are
        closed first, so that what is found was shown for this message."""
        page.evaluate(CLOSE_NOTIFICATIONS)
        deadline = time.monotonic() + WAIT
        while True:
            self.deliver(page, message)
            again = time.monotonic() + AGAIN
            while time.monotonic() < min(again, deadline):
                if shown := self.notifications(page):
                    return shown
                page.wait_for_timeout(50)
            assert time.monotonic() < deadline, "no notification shown"

    def notifications(self, page: Page) -> list[dict[str, Any]]:
        shown: list[dict[str, Any]] = page.evaluate(NOTIFICATIONS)
        return shown


def next_push(
    service: PushService, names: list[str], told: list[int]
) -> tuple[int, dict[str, Any]]:
    """The next push to any of ``names`` (``told``: how many each had; counted on), and whose."""
    deadline = time.monotonic() + WAIT
    while True:
        for seat, name in enumerate(names):
            messages = service.told(name)
            if len(messages) > told[seat]:
                told[seat] += 1
                return seat, messages[told[seat] - 1]
        assert time.monotonic() < deadline, f"no push within {WAIT} s: {told}"
        time.sleep(0.1)


def play_turn(page: Page) -> None:
    """Decide (on the table, as a person) until it is the other person's turn; close the tab."""
    while page.locator("body").get_attribute("data-deciding") == "yes":
        close_ride(page)
        before = move(page)
        click_decision(page)
        page.wait_for_function(f"() => Number(document.body.dataset.move) > {before}")
    page.close()


@pytest.mark.long(40)
def test_a_game_over_hours_is_played_from_pushes_with_the_tabs_closed(
    browser: Browser, tmp_path: Path
) -> None:
    with push_service() as service:
        settings = replace(Settings(), push_services=(service.origin,), push_grace=0.0)
        with serving(f"sqlite:///{tmp_path / 'games.sqlite3'}", settings) as running:
            clock = AheadClock()
            running.call(lambda: setattr(running.hub, "now", clock))
            body = {"players": 2, "seats": ["human", "human"], "turn_based": {"hours": 12}}
            created = create(running, **body)
            game_id = created["id"]
            people = [
                Browsing(browser, running, name, phone)
                for name, phone in (("ann", False), ("bob", True))
            ]
            try:
                for seat, person in enumerate(people):
                    person.open(seat_url(running, created, seat))  # "my games" keeps the seat
                    subscription = service.subscriber(person.name).subscription(service.origin)
                    answer = httpx.post(
                        f"{running.http}/api/push/subscribe",
                        json={
                            "id": game_id,
                            "token": created["seats"][seat]["token"],
                            "subscription": subscription,
                        },
                        timeout=10,
                    )
                    assert answer.json() == {"devices": 1}, answer.text
                pages = [person.page for person in people]
                mover = next(
                    i
                    for i, p in enumerate(pages)
                    if p.locator("body").get_attribute("data-deciding") == "yes"
                )
                for page in pages:
                    page.close()
                told = [0, 0]
                for step in range(4):  # four turns, hours apart, each prompted by a push
                    person = people[mover]
                    page = person.open(f"{running.http}/games/{game_id}?seat={mover}")
                    if step == 0:  # the seat's own control (its click needs a vendor's service)
                        expect(page.locator("#notify-start")).to_have_text(
                            "Notify me with this game closed"
                        )
                        screenshot(page, tmp_path, "push-notify-me", full_page=False)
                    play_turn(page)
                    clock.ahead += timedelta(hours=3)
                    # whoever is awaited now is pushed (mostly the other person; after a
                    # window's question the server answered for them, the same one again)
                    mover, message = next_push(service, [p.name for p in people], told)
                    assert (message["kind"], message["seat"]) == ("turn", mover), message
                    # the push service hands it on; the worker shows it
                    waiting = people[mover].context.new_page()
                    waiting.goto(f"{running.http}/")
                    shown = people[mover].shown(waiting, message)
                    assert (
                        shown[-1]["body"] == message["body"] and shown[-1]["data"]["seat"] == mover
                    )
                    if step == 0:
                        screenshot(waiting, tmp_path, "push-received")
                    waiting.close()
                    people[mover].page = people[mover].context.new_page()
                    # what a click opens: the seat, found in "my games" (the address has no key)
                    page = people[mover].open(
                        f"{running.http}/games/{shown[-1]['data']['game']}?seat={shown[-1]['data']['seat']}"
                    )
                    assert f"token={created['seats'][mover]['token']}" in page.url
                    expect(page.locator(f"body[data-seat='{mover}']")).to_be_attached()
                    page.close()
                # a seat's page tells whether it is pushed to, and "Stop" removes its own
                bob = people[1]
                endpoint = service.subscribers[bob.name].subscription(service.origin)["endpoint"]
                token = created["seats"][1]["token"]
                page = bob.context.new_page()
                page.goto(f"{running.http}/")
                page.evaluate(
                    "([key, endpoint]) => localStorage.setItem(key, endpoint)",
                    [f"apokalypse.push.{game_id}.{token[:8]}", endpoint],
                )
                bob.page = page
                bob.open(seat_url(running, created, 1))
                expect(page.locator("#notify-devices")).to_have_attribute("data-devices", "1")
                expect(page.locator("#notify-devices")).to_have_text(
                    "Notifications on for this seat."
                )
                page.locator("#notify-stop").click()
                expect(page.locator("#notify-start")).to_be_visible()
                left = httpx.post(
                    f"{running.http}/api/push/devices",
                    json={"id": game_id, "token": token},
                    timeout=10,
                )
                assert left.json() == {"devices": 0}
                assert service.refused == []
                others = {person.name: service.told(person.name) for person in people}
                for seat, person in enumerate(people):  # each was told of its own seat only
                    assert all(
                        m["seat"] == seat and m["game"] == game_id for m in others[person.name]
                    )
            finally:
                for person in people:
                    person.context.close()
