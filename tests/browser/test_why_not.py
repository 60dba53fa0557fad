"""Why not, in a real browser: a hand card no legal action uses, a place on a display or a player
that is not a legal choice of the step, clicked (or chosen with the keyboard), shows why it
cannot be used now, with the rule id, in the page's language: the very refusal the rules would
give the action (worked out here by the engine on the same deal). Nothing is played: the move
stays where it was. A seat whose decision it is not is told so. Screenshots on a desktop and a
phone, in German and English."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from apokalypse.engine.protocol import refusal
from apokalypse.games.apokalypse import GAME, Config, State
from apokalypse.games.apokalypse.roles import ROLES
from apokalypse.i18n import text
from apokalypse.i18n.texts import texts_for
from apokalypse.server.settings import Settings
from tests.browser.playing import DESKTOP, PHONE, Person, move, person, ready, screenshot
from tests.server.inprocess import Running, serving
from tests.server.test_turns import same_game

UNUSABLE = frozenset({"church", "violence", "ethos", "chastity/sex", "job/drugs", "piety/gambling"})


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    database = tmp_path_factory.mktemp("why") / "db.sqlite3"
    with serving(f"sqlite:///{database}", Settings()) as server:
        yield server


def a_deal() -> tuple[int, State, str, str]:
    """A two-player deal whose first seat holds a protection card (playable as a populace, with
    a card left to give) and a card nothing can be done with yet: the seed, the state and the
    two codes."""
    for seed in range(1000):
        s = GAME.new_game(Config(players=2), seed)
        hand = [s.code(c) for c in s.hands[s.to_act]]
        used = {a.code for a in s.legal_actions() if a.verb == "play"}
        roles = {c: s.table.kinds_by_code[c].role for c in hand}
        protection = next((c for c in hand if roles[c] == "protection" and c in used), None)
        unusable = next((c for c in hand if c in UNUSABLE and c not in used), None)
        if protection and unusable and len(hand) >= 3:
            return seed, s, protection, unusable
    raise AssertionError("no such deal in 1000 seeds")


def why_shown(page: Page, before: int, count: int = 1) -> list[tuple[str, str]]:
    """The reasons the why-not panel shows (rule id, text), once ``count`` are there; the move
    unchanged and no refusal shown: nothing was sent to be played."""
    panel = page.locator("#why-not")
    expect(panel).to_be_visible()
    expect(panel.locator(".why-reasons li[data-allowed]")).to_have_count(count)
    assert move(page) == before, "a why is no action"
    expect(page.locator("#refusal")).to_have_count(0)
    lines = panel.locator(".why-reasons li").all()
    return [
        (li.get_attribute("data-rule") or "", li.locator(".reason").inner_text()) for li in lines
    ]


def expected(s: State, actions: list[str], lang: str) -> list[tuple[str, str]]:
    """The rule id and reason the rules give each action (distinct reasons, in order)."""
    texts = texts_for("apokalypse", s.config.to_json(), lang)
    shown: list[tuple[str, str]] = []
    for action in actions:
        exc = refusal(s, GAME.parse_action(action))
        assert exc is not None, action
        line = (exc.rule, texts.refusal(exc))
        if line not in shown:
            shown.append(line)
    return shown


@pytest.mark.parametrize(
    ("lang", "deciding", "waiting"),
    [("de", DESKTOP, PHONE), ("en", PHONE, DESKTOP)],
    ids=["de-desktop", "en-phone"],
)
def test_r_play_why_not_for_a_card_a_place_and_a_player(
    running: Running,
    browser: Browser,
    people: list[Person],
    tmp_path: Path,
    lang: str,
    deciding: ViewportSize,
    waiting: ViewportSize,
) -> None:
    seed, s, protection, unusable = a_deal()
    me = s.to_act
    game_id, tokens = same_game(running.hub.store, seed, players=2, lang=lang)
    page = person(people, browser, deciding)
    other = person(people, browser, waiting)
    page.goto(f"{running.http}/games/{game_id}?token={tokens[me]}")
    other.goto(f"{running.http}/games/{game_id}?token={tokens[1 - me]}")
    ready(page)
    other.wait_for_selector("body[data-move]")
    shown = move(page)
    label = f"{lang}-{'phone' if deciding == PHONE else 'desktop'}"

    # A hand card nothing can be done with now: every use's reason (R-TURN-1 … R-PLAY-* …).
    card = page.locator(f'#hand .hand-card[data-code="{unusable}"]').first
    expect(card).not_to_have_class("target")
    card.focus()  # the keyboard alone: focus it and press Enter
    page.keyboard.press("Enter")
    uses = ROLES[s.table.kinds_by_code[unusable].role].uses
    reasons = expected(s, [f"play {unusable} {use}" for use in uses], lang)
    assert why_shown(page, shown, len(reasons)) == reasons
    screenshot(page, tmp_path, f"why-card-{label}")

    # The other seat, whose decision it is not, is told so (no rule: the server's own words).
    other.locator("#hand .hand-card").first.click()
    assert why_shown(other, shown) == [("", text("server.not-your-turn", lang))]
    screenshot(other, tmp_path, f"why-not-yours-{lang}")

    # A place that is not the step's: a populace goes on its own side only (R-PLAY-3).
    page.locator(f'#hand .hand-card[data-code="{protection}"]').first.click()
    page.locator(f'#choices button.choice[data-action="play {protection} good"]').click()
    p = f"p{me + 1}"
    ghost = page.locator(f'.cell.slot.unusable[data-place="{p}.evil.earth"]')
    ghost.click()
    s.apply(GAME.parse_action(f"play {protection} good"))
    reasons = expected(s, [f"target {p}.evil"], lang)
    assert why_shown(page, shown + 1) == reasons and reasons[0][0] == "R-PLAY-3"
    screenshot(page, tmp_path, f"why-place-{label}")

    # The legal place, then the gift: the giver is no recipient (R-PLAY-4).
    page.locator(f'.cell.slot.target[data-place="{p}.good.earth"]').click()
    expect(page.locator("#why-not")).to_have_count(0)  # an action clears the question
    given = page.locator("#hand .hand-card.target").first
    gift = given.get_attribute("data-actions") or ""
    given.click()
    page.locator(f'.player[data-seat="{me}"] .player-row.why').click()
    s.apply(GAME.parse_action(f"target {p}.good"))
    s.apply(GAME.parse_action(gift))
    reasons = expected(s, [f"to {p}"], lang)
    assert why_shown(page, shown + 3) == reasons and reasons[0][0] == "R-PLAY-4"
    screenshot(page, tmp_path, f"why-player-{label}")
