"""The lobby hands out the server's links, in a real browser (Debian's Chromium driven by
Playwright) against a real ``apokalypse serve --host 0.0.0.0``: the host opens the lobby at
127.0.0.1 while friends must be sent the machine's network address, so every link shown, copied
and drawn as a QR code is the one ``POST /api/games`` answered, never one made from the page's
own address. Each QR code is read back from a screenshot of it, as a phone's camera would, and
must give its link exactly. The page runs under the server's Content-Security-Policy and breaks
none of it, on a desktop and on a phone-sized screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from apokalypse.server.reach import netloc
from tests.browser.playing import (
    DESKTOP,
    PHONE,
    Person,
    person,
    screenshot,
)
from tests.browser.qr import decode, modules
from tests.server.served import Server
from tests.server.test_reach import network_address, serving

# Every policy violation the page meets, as the browser reports it to the page itself.
WATCH_POLICY = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    """A server listening on all interfaces, and this machine's network address."""
    address = network_address()
    with serving(tmp_path_factory.mktemp("wide") / "db.sqlite3", "--host", "0.0.0.0") as running:
        yield running, address
    assert "Traceback" not in running.errors(), running.errors()


def create_in_lobby(page: Page, served: Server) -> dict[str, Any]:
    """Create a 3-player game with people in seats 1 and 3 from the lobby opened at 127.0.0.1;
    the server's answer."""
    page.add_init_script(WATCH_POLICY)
    response = page.goto(f"{served.http}/")
    assert response is not None
    policy = response.headers.get("content-security-policy", "")
    for directive in ("script-src 'self'", "style-src 'self'", "img-src 'self' data:"):
        assert directive in policy, policy
    page.select_option("#players", "3")
    page.select_option('#seats select[data-seat="2"]', "human")
    with page.expect_response(lambda r: r.url.endswith("/api/games") and r.ok) as answered:
        page.click("#create-button")
    created: dict[str, Any] = answered.value.json()
    expect(page.locator("#created")).to_be_visible()
    return created


def links_shown(page: Page, created: dict[str, Any], base: str) -> dict[str, str]:
    """The links on the page are the server's, under ``base``; by QR tile name ("0", "2",
    "spectators") the link each QR code must give."""
    invites = {str(s["seat"]): s["url"] for s in created["seats"] if "url" in s}
    assert sorted(invites) == ["0", "2"]
    assert all(url.startswith(f"{base}/games/") for url in invites.values()), invites
    expect(page.locator("a.seat-link")).to_have_count(2)
    for seat, url in invites.items():
        row = page.locator(f'#links li[data-seat="{seat}"]')
        expect(row.locator("a.seat-link")).to_have_attribute("href", url)
        expect(row.locator("input.link-field")).to_have_value(url)
    expect(page.locator("#spectator-link")).to_have_attribute("href", created["watch"])
    expect(page.locator("#links li.spectators input.link-field")).to_have_value(created["watch"])
    return {**invites, "spectators": created["watch"]}


def qr_reads(page: Page, which: str) -> str:
    """The text of one QR code as a camera reads it: enlarged by a tap, photographed (a
    screenshot of it alone), and decoded; tapped back to its small size."""
    tile = page.locator(f'.qr-tile[data-qr="{which}"]')
    image = tile.locator("img.qr-code")
    expect(image).to_be_visible()
    page.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle()
    )
    button = tile.locator("button.qr-button")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    text = decode(modules(image.screenshot()))
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    return text


def no_violations(page: Page) -> None:
    assert page.evaluate("window.violations") == [], page.evaluate("window.violations")


def check_lobby(page: Page, wide: tuple[Server, str], viewport: ViewportSize) -> None:
    served, address = wide
    created = create_in_lobby(page, served)
    lan = f"http://{netloc(address, served.port)}"
    links = links_shown(page, created, lan)
    assert not any(link.startswith(served.http) for link in links.values()), "not the page's own"
    expect(page.locator("img.qr-code")).to_have_count(len(links))
    for which, link in links.items():
        assert qr_reads(page, which) == link, which
    # Nothing sticks out sideways: the codes fit the screen's width.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], (width, viewport)
    no_violations(page)


def test_the_lobby_hands_out_the_servers_links_as_qr_codes(
    wide: tuple[Server, str], browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    page = person(people, browser, DESKTOP)
    check_lobby(page, wide, DESKTOP)
    page.locator('.qr-tile[data-qr="2"] button').click()  # one enlarged, for the screenshot
    screenshot(page, tmp_path, "lobby-links")


def test_the_host_sees_which_address_the_links_name_and_may_choose_another(
    wide: tuple[Server, str], browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    """The address the links name is shown; the others this machine is reached at (the page's
    own, here) are offered, and choosing one moves every link and QR code under it."""
    served, address = wide
    page = person(people, browser, DESKTOP)
    created = create_in_lobby(page, served)
    lan = f"http://{netloc(address, served.port)}"
    assert created["address"] == lan
    assert served.http in created["addresses"], created["addresses"]  # the page's own address
    # What each computer level is, under the seats (its select shows the short label whole).
    expect(page.locator("#levels li")).to_have_count(4)
    expect(page.locator('#levels li[data-kind="medium"]')).to_contain_text("wins 25 in 100")
    choice = page.locator("select#links-address")
    expect(choice).to_have_value(lan)
    options = choice.locator("option")
    assert options.all_inner_texts() == [lan, *created["addresses"]]
    screenshot(page, tmp_path, "lobby-links-address")
    choice.select_option(served.http)
    moved = {
        **created,
        "seats": [
            {**s, "url": s["url"].replace(lan, served.http, 1)} if "url" in s else s
            for s in created["seats"]
        ],
        "watch": created["watch"].replace(lan, served.http, 1),
    }
    for which, link in links_shown(page, moved, served.http).items():
        assert qr_reads(page, which) == link, which
    no_violations(page)


def test_on_a_phone_the_codes_fit_and_grow_to_the_screen(
    wide: tuple[Server, str], browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    page = person(people, browser, PHONE)
    check_lobby(page, wide, PHONE)
    tile = page.locator('.qr-tile[data-qr="0"]')
    tile.locator("button").click()
    box = tile.locator("img.qr-code").bounding_box()
    assert box is not None and box["width"] >= 0.7 * PHONE["width"], box  # big enough to scan
    tile.scroll_into_view_if_needed()
    screenshot(page, tmp_path, "phone-lobby-links")
    screenshot(page, tmp_path, "phone-lobby-qr", full_page=False)
