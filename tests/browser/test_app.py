"""The pages as an installable app (``web/sw/sw.js``, ``web/public/manifest.webmanifest``): in
Chromium the service worker registers and takes the page over, the browser's own installability
check finds nothing missing and the lobby offers to install the app, a page asked for while the
server is down shows the offline page in the browser's language, and no cache the worker keeps
holds a seat's token."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.helpers import create
from tests.server.served import Server, started

from .playing import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, screenshot, seat_url

# Every URL the service worker's caches hold, as the page sees them.
CACHED_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
  }
  return urls;
}"""


def controlled(page: Page) -> None:
    """Wait until the service worker is active and controls ``page`` (it claims open pages)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_the_app_installs_and_shows_the_offline_page_when_the_server_is_down(
    browser: Browser, tmp_path: Path
) -> None:
    # A profile of its own on disk: the browser checks installability only outside incognito,
    # and every other context of the suite is one.
    profile = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, viewport=DESKTOP
    )
    try:
        installed_and_offline(profile, tmp_path)
    finally:
        profile.close()


def installed_and_offline(profile: BrowserContext, tmp_path: Path) -> None:
    with started(Server(tmp_path / "db.sqlite3")) as server:
        created = create(server)
        page = profile.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(seat_url(server, created, 0))
        expect(page.locator("body[data-move]")).to_be_attached()
        controlled(page)
        session = page.context.new_cdp_session(page)
        check = session.send("Page.getInstallabilityErrors")
        assert check["installabilityErrors"] == [], check
        manifest = httpx.get(f"{server.http}/static/manifest.webmanifest", timeout=10).json()
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        for icon in manifest["icons"]:  # every icon named is served, as the type it says
            answer = httpx.get(f"{server.http}{icon['src']}", timeout=10)
            assert answer.status_code == 200 and answer.headers["content-type"] == icon["type"]
        # the lobby offers to install the app, as the browser allows it now
        page.goto(f"{server.http}/")
        expect(page.locator("#install-app")).to_have_text("Install the app")
        screenshot(page, tmp_path, "app-install-offer", full_page=False)
        cached = page.evaluate(CACHED_URLS)
        assert f"{server.http}/offline" in cached and any("/static/assets/" in u for u in cached)
        game_url = seat_url(server, created, 0)
    # the server is down now: the game's page (and the lobby) answer with the offline page
    page.goto(game_url)
    expect(page.locator("#offline-retry")).to_be_visible()
    expect(page.locator("h1")).to_have_text("You are offline")
    assert page.url == game_url  # the address asked for stays: "try again" reloads it
    screenshot(page, tmp_path, "app-offline")
    assert not any("token=" in url for url in page.evaluate(CACHED_URLS))
    assert errors == []


def test_the_offline_page_speaks_german_on_a_german_phone(browser: Browser, tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    try:
        page = context.new_page()
        with started(Server(tmp_path / "db.sqlite3")) as server:
            page.goto(f"{server.http}/")
            controlled(page)
            lobby = f"{server.http}/"
        page.goto(lobby)
        expect(page.locator("h1")).to_have_text("Du bist offline")
        expect(page.locator("#offline-retry")).to_have_text("Erneut versuchen")
        screenshot(page, tmp_path, "app-offline-de-phone")
    finally:
        context.close()


def test_the_worker_and_the_offline_page_are_served(server: Server) -> None:
    worker = httpx.get(f"{server.http}/sw.js", timeout=10)
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"  # a new build's worker is found at once
    assert "__ASSETS__" not in worker.text and "/static/assets/" in worker.text  # filled in
    offline = httpx.get(f"{server.http}/offline", timeout=10)
    assert offline.status_code == 200 and offline.headers["cache-control"] == "no-store"
