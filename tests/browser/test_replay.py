"""Replays in a real browser (Chromium against the real ``apokalypse serve``): a game the computers
played to its end is opened from its final reveal, stepped through move by move to that reveal
again with the log growing as the server's frames say, scrubbed, watched from a seat instead of
as a spectator, shared by its link to the same moment, downloaded as a record and opened again
in the page; and the other game on a phone, in German, played by the play button."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from apokalypse.engine.record import GameRecord, replay
from apokalypse.server import changes
from tests.browser.playing import PHONE, Person, close_ride, person, screenshot
from tests.server.seeded import seeded
from tests.server.served import Server

TIMEOUT = 10.0
# Deals of short games of two heuristic players: 90 moves of Apokalypse, 37 of Apokerlypse.
SEEDS = {"apokalypse": 30, "apokerlypse": 13}


def finished(server: Server, game: str, lang: str) -> str:
    """A 2-player game of two computer seats, played to its end from a seeded deal (as the
    server plays it, ``tests/server/seeded.py``: the same game, as long, on every run); its
    id."""
    done = seeded(server.database_url, game, ["heuristic", "heuristic"], SEEDS[game], lang=lang)
    assert done.live.state.is_over
    return done.id


def frames(server: Server, game_id: str, viewer: str) -> dict[str, Any]:
    """The server's replay with every frame rebuilt (it sends the first and each change)."""
    url = f"{server.http}/api/games/{game_id}/replay?viewer={viewer}"
    made: dict[str, Any] = httpx.get(url, timeout=TIMEOUT).json()
    made["frames"] = changes.frames(made.pop("first"), made.pop("changes"))
    return made


def at(page: Page, step: int, viewer: str | None = None) -> None:
    """Wait until the page shows ``step`` (from ``viewer``)."""
    expect(page.locator("body")).to_have_attribute("data-step", str(step))
    if viewer is not None:
        expect(page.locator("body")).to_have_attribute("data-viewer", viewer)
    expect(page.locator("body")).to_have_attribute("data-loading", "no")


def shows_frame(page: Page, made: dict[str, Any], step: int) -> None:
    """The page shows ``step`` as the server's frames make it: its move and the log so far."""
    at(page, step)
    observation = made["frames"][step]["observation"]
    expect(page.locator("body")).to_have_attribute("data-move", str(observation["move"]))
    lines = sum(len(frame["text"]["log"]) for frame in made["frames"][: step + 1])
    expect(page.locator("#log li")).to_have_count(min(lines, 500))


@pytest.mark.long(43)
def test_a_finished_game_stepped_scrubbed_shared_downloaded_and_opened(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    game_id = finished(server, "apokalypse", "en")
    spectator = frames(server, game_id, "spectator")
    steps = spectator["steps"]

    # The finished game's page links to its replay, from the start, as this viewer saw it.
    page = person(people, browser)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{server.http}/games/{game_id}")
    expect(page.locator("#final-reveal #replay-link")).to_be_visible()
    screenshot(page, tmp_path, "replay-link-on-the-game-page", full_page=False)
    page.click("#replay-link")
    page.wait_for_url(lambda url: url.endswith(f"/games/{game_id}/replay?viewer=spectator&step=0"))
    at(page, 0, "spectator")
    expect(page.locator("body")).to_have_attribute("data-steps", str(steps))
    expect(page.locator("#spectator-note")).to_be_visible()
    expect(page.locator("#choices")).to_have_count(0)  # nothing to decide in a replay
    expect(page.locator("#seat-controls")).to_be_hidden()

    # Every move, by the keyboard, to the final reveal; a ride stepped onto shows its panel.
    ridden = {
        step: event["args"]["number"]
        for step, frame in enumerate(spectator["frames"])
        for event in frame["events"]
        if event["kind"] == "ride"
    }
    assert ridden, "the horsemen rode"
    for step in range(1, steps + 1):
        page.keyboard.press("ArrowRight")
        shows_frame(page, spectator, step)
        if step in ridden:
            expect(page.locator("#ride-panel[open]")).to_have_attribute(
                "data-horseman", str(ridden[step])
            )
            assert close_ride(page, tmp_path if step == min(ridden) else None) == ridden[step]
        if step == steps // 2:
            screenshot(page, tmp_path, "replay-apokalypse-en-desktop")
    expect(page.locator("#final-reveal")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-over", "yes")
    expect(page.locator("#replay-next")).to_be_disabled()
    expect(page.locator("#final-reveal #replay-link")).to_have_count(0)  # not to itself
    screenshot(page, tmp_path, "replay-apokalypse-en-final")

    # Backwards and to either end: buttons, keys and the slider.
    page.click("#replay-prev")
    shows_frame(page, spectator, steps - 1)
    expect(page.locator("#final-reveal")).to_have_count(0)
    page.keyboard.press("Home")
    shows_frame(page, spectator, 0)
    page.keyboard.press("End")
    shows_frame(page, spectator, steps)
    page.click("#replay-first")
    shows_frame(page, spectator, 0)
    for step in (steps // 3, 7, steps, 0, steps // 2):
        page.locator("#replay-slider").fill(str(step))
        shows_frame(page, spectator, step)

    # From the first seat: its hand, at the same step, as its own frames have it.
    middle = steps // 2
    page.select_option("#viewer", "1")
    at(page, middle, "1")
    seat = frames(server, game_id, "1")
    shows_frame(page, seat, middle)
    hand = seat["frames"][middle]["observation"]["hand"]
    shown = [card.get_attribute("data-code") for card in page.locator("#hand .hand-card").all()]
    assert shown == hand, (shown, hand)
    expect(page.locator("#spectator-note")).to_have_count(0)
    expect(page.locator("#viewer option")).to_have_count(3)  # the spectator and two seats

    # The link shares this moment: another person opens the same step, from the same seat.
    page.click("#copy-link")
    expect(page.locator("#copy-link")).to_have_text("Link copied")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.endswith(f"/games/{game_id}/replay?viewer=1&step={middle}"), link
    friend = person(people, browser)
    friend.goto(link)
    at(friend, middle, "1")
    shows_frame(friend, seat, middle)
    shown = [card.get_attribute("data-code") for card in friend.locator("#hand .hand-card").all()]
    assert shown == hand

    # The record: downloaded, the file `apokalypse replay` reads, and opened in the page again.
    with page.expect_download() as download:
        page.click("#download-record")
    assert download.value.suggested_filename == f"apokalypse-{game_id}.json"
    path = tmp_path / "record.json"
    download.value.save_as(path)
    record = GameRecord.load(path)
    assert len(record.actions) == steps and "token_sha256" not in record.meta
    assert replay(record).digest == record.events_sha256

    opener = person(people, browser, PHONE)  # a file opened on a phone
    opener.goto(f"{server.http}/replay")
    expect(opener.locator("#replay-controls")).to_have_count(0)
    opener.locator("#open-record").set_input_files(str(path))
    at(opener, 0, "spectator")
    expect(opener.locator("body")).to_have_attribute("data-steps", str(steps))
    assert opener.url.endswith("/replay?viewer=spectator&step=0"), opener.url
    screenshot(opener, tmp_path, "replay-apokalypse-en-phone-opened", full_page=False)
    opener.click("#replay-last")
    shows_frame(opener, spectator, steps)
    expect(opener.locator("#final-reveal")).to_be_visible()
    opener.select_option("#viewer", "2")
    at(opener, steps, "2")
    shows_frame(opener, frames(server, game_id, "2"), steps)
    expect(opener.locator("#copy-link")).to_have_count(0)  # a file has no link to share

    # A file that is no record says what is wrong, in one line.
    broken = tmp_path / "broken.json"
    data = json.loads(path.read_text())
    data["actions"][3] = "play nothing"
    broken.write_text(json.dumps(data))
    opener.locator("#open-record").set_input_files(str(broken))
    expect(opener.locator("#replay-error")).to_contain_text("action #4 'play nothing'")
    for one in people:  # every page ran under the server's Content-Security-Policy
        assert not any("Content Security Policy" in text for text in one.console), one.console


def test_apokerlypse_on_a_phone_in_german(
    server: Server, browser: Browser, people: list[Person], tmp_path: Path
) -> None:
    game_id = finished(server, "apokerlypse", "de")
    seat = frames(server, game_id, "2")
    steps = seat["steps"]
    page = person(people, browser, PHONE)
    page.goto(f"{server.http}/games/{game_id}/replay?viewer=2&step=3")
    at(page, 3, "2")
    shows_frame(page, seat, 3)
    expect(page.locator("#auto-answer")).to_have_count(0)  # a seat's live setting: not here
    expect(page.locator("#replay-step")).to_have_text(f"Schritt 3 von {steps}")
    controls = page.locator("#replay-controls")
    expect(controls).to_be_in_viewport()  # kept at the bottom of the screen
    for button in ("#replay-first", "#replay-prev", "#replay-play", "#replay-next", "#replay-last"):
        expect(page.locator(button)).to_be_in_viewport()
    page.click("#replay-next")
    shows_frame(page, seat, 4)
    screenshot(page, tmp_path, "replay-apokerlypse-de-phone", full_page=False)

    # The slider by touch: tapped near its end it jumps there.
    slider = page.locator("#replay-slider")
    box = slider.bounding_box()
    assert box is not None and box["width"] > 300, box
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    at(page, steps)
    expect(page.locator("#final-reveal")).to_be_visible()
    screenshot(page, tmp_path, "replay-apokerlypse-de-phone-final", full_page=False)

    # Play from the start; pause: it stops where it is.
    page.click("#replay-first")
    at(page, 0)
    page.select_option("#replay-speed", "8")
    page.click("#replay-play")
    page.wait_for_function("() => Number(document.body.dataset.step) >= 3")
    page.click("#replay-play")
    expect(page.locator("#replay-play")).to_have_text("Abspielen")
    stopped = int(page.locator("body").get_attribute("data-step") or "-1")
    assert 3 <= stopped < steps
    page.click("#replay-next")  # one step on from where it stopped, not more
    shows_frame(page, seat, stopped + 1)

    desktop = person(people, browser)
    desktop.goto(f"{server.http}/games/{game_id}/replay?viewer=spectator&step={steps}")
    at(desktop, steps, "spectator")
    expect(desktop.locator("#final-reveal")).to_be_visible()
    screenshot(desktop, tmp_path, "replay-apokerlypse-de-desktop")
