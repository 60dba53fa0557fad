"""The guided first games ("Learn to play") in a real browser against the real server: started
from the lobby, played by following the coach's suggestions (the lit move on the table), in
English and in German; every lesson appears once, in the order its topic came up, in the game's
language, "who wins" last with the summary and "Play a real game"; a learner who leaves in the
middle and comes back (a reload, the lobby's "Continue learning") goes on without a lesson
repeated; Apokerlypse's shorter guided game; a phone, where the coach never covers a control.
At every decision the move the table lights is the one the server's coach suggests, checked
against a coach of the test's own replaying the game's stored record. Every wait is on the
page's state, never a sleep.

The guided games run on prepared deals (``server/tutorial/``): the German Apokalypse one and the
German Apokerlypse one are followed to their end, as the one whole game of each in German. The
English Apokalypse one is followed for its opening lessons; its later lessons are reached from
the guided game's own record played the coach's way (``tests/server/seeded.py``: the same deal,
the same computers, the same game) to just before each comes up, and resumed there as a learner
who left and came back resumes it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from apokalypse.server.store import Store
from apokalypse.server.tutorial import APOKALYPSE_TOPICS, APOKERLYPSE_TOPICS, GUIDES
from apokalypse.server.tutorial.tutor import Tutor, tutor_for
from tests.browser.playing import DESKTOP, PHONE, close_ride, person, ready, screenshot, settled
from tests.server.seeded import Coached, guided
from tests.server.served import Server

TITLES = {  # the first and the last lesson's title, per language
    "en": ("Your ethos: good", "Who wins"),
    "de": ("Deine Gesinnung: gut", "Wer gewinnt"),
}
POKER_TITLES = {"en": ("Chips decide", "The end"), "de": ("Chips entscheiden", "Das Ende")}
STEP = "Number(document.body.dataset.move) > {move} || document.body.dataset.over === 'yes'"
OPENING = 4  # the English guided game's lessons followed in the game the lobby started
GAP = 3  # the learner's decisions followed in the browser at most to reach the next lesson
# What this browser remembers of a guided game it started (web/src/tutorial/memory.ts): the
# lessons it showed are the server's, sent to the learner.
REMEMBER = """([id, token]) => {
  const started = [{ game: "apokalypse", id, token, over: false }];
  localStorage.setItem("apokalypse.tutorials", JSON.stringify(started));
}"""


def start(page: Page, server: Server, game: str, lang: str) -> str:
    """Open the lobby in ``lang`` and start the guided game of ``game``: its page's address."""
    page.add_init_script(f"window.localStorage.setItem('apokalypse.lang', '{lang}')")
    page.goto(server.http)
    page.click(f"#learn-{game}")
    page.wait_for_url("**/games/**")
    ready(page)
    expect(page.locator("#tutor")).to_be_visible()
    return page.url


def shown(page: Page) -> list[str]:
    """The lessons the coach has opened in this game, in order (as the server sent them)."""
    return (page.locator("#tutor").get_attribute("data-lessons") or "").split()


def game_of(page: Page) -> str:
    return page.url.split("/games/")[1].split("?")[0]


class Coaches:
    """Coaches of the test's own, one per stored guided game, each following its game's record
    and its log's "Got it"s from the learner's seat (``server/tutorial/tutor.py``): made once
    and moved on with each look, as the server's is, so a look costs a step, not a replay."""

    def __init__(self) -> None:
        self.stores: dict[str, Store] = {}
        self.tutors: dict[str, Tutor] = {}

    def suggested(self, server: Server, game_id: str) -> str | None:
        """The move the coach suggests now in the stored game ``game_id`` (its notation;
        None: no move)."""
        store = self.stores.get(server.database_url)
        if store is None:
            store = self.stores[server.database_url] = Store.open(server.database_url)
        record = store.load(game_id)
        reads = store.table(game_id).reads
        tutor = self.tutors.get(game_id)
        if tutor is None or tutor.given != len(reads):
            made = tutor_for(record, reads)
            assert made is not None, f"{game_id} is no guided game"
            tutor = self.tutors[game_id] = made
        tutor.follow(record.actions)
        chosen = tutor.view()["suggestion"]
        if chosen is None:
            return None
        action = tutor.state.legal_actions()[chosen]
        return str(GUIDES[record.game].parts(action)["text"])

    def close(self) -> None:
        for store in self.stores.values():
            store.engine.dispose()


COACHES = Coaches()


@pytest.fixture(scope="module", autouse=True)
def _coaches() -> Iterator[None]:
    yield
    COACHES.close()


def follow(
    page: Page,
    server: Server,
    seen: list[str],
    steps: int | None = None,
    shots: Any = None,
    rides: list[int] | None = None,
) -> bool:
    """Follow the coach as a learner does, by what is lit alone: at each decision the lit hand
    card first (and then, where the card has several uses, the lit one of its uses), else the lit
    choice; before each click, the move the coach's text names must be the one the coach of the
    game's stored record suggests (:meth:`Coaches.suggested`), and every lit place, card and
    choice must make it. For ``steps`` decisions or to the end; each lesson the panel shows is
    added to ``seen`` as it appears, each ride panel closed is added to ``rides``. Whether the
    game is over."""
    rides = rides if rides is not None else []
    done = 0
    while steps is None or done < steps:
        ready(page)
        rode = close_ride(page)
        if rode is not None:
            rides.append(rode)
        note(page, seen, shots)
        if page.locator("body").get_attribute("data-over") == "yes":
            return True
        move = int(page.locator("body").get_attribute("data-move") or "-1")
        suggestion = page.locator("#tutor-suggestion[data-action]")
        if suggestion.count() == 0:  # a question answered for the learner by the server
            page.wait_for_function(f"() => {STEP.format(move=move)}")
            continue
        action = suggestion.get_attribute("data-action") or ""
        python = COACHES.suggested(server, game_of(page))
        assert action == python, f"the page suggests {action!r}, the coach {python!r} (move {move})"
        lit_as_named(page, action)
        card = page.locator("#hand .hand-card.tutor-suggested")
        if card.count() > 0:
            click_past_rides(page, card.first, rides)
            # played (its only use), or its uses are the choices now
            page.wait_for_function(f"() => {STEP.format(move=move)} || {PICKED}")
        if page.locator("body").get_attribute("data-move") == str(move):
            lit_as_named(page, action)
            lit = page.locator("#choices button.choice.tutor-suggested")
            expect(lit).to_have_count(1)  # the suggested move is a legal one, lit once
            click_past_rides(page, lit, rides)
        page.wait_for_function(f"() => {STEP.format(move=move)}")
        done += 1
    return page.locator("body").get_attribute("data-over") == "yes"


# A hand card picked whose uses are the choices now.
PICKED = "document.querySelector('#hand .hand-card.picked') !== null"
# What the table lights for the learner: each lit element's action(s).
LIT = """() => [...document.querySelectorAll('.tutor-suggested')]
    .filter((el) => !el.closest('#tutor'))
    .map((el) => el.getAttribute('data-action') ?? el.getAttribute('data-actions'))"""


def lit_as_named(page: Page, action: str) -> None:
    """Wait until the table lights ``action`` (the move the coach's text names) and nothing
    else: each lit place, player, choice or hand card makes it. Fails naming what is lit."""
    right = f"""(action) => {{
        const lit = ({LIT})();
        return lit.length > 0 && lit.every((made) => (made ?? '').split('|').includes(action));
    }}"""
    try:
        page.wait_for_function(right, arg=action)
    except PlaywrightTimeoutError:
        raise AssertionError(
            f"the coach names {action!r}; the table lights {page.evaluate(LIT)}"
        ) from None


def click_past_rides(page: Page, target: Locator, rides: list[int]) -> None:
    """Click ``target``; a ride panel that opened after the last look (the ride's events can
    arrive just behind the state that asks the learner) is closed first, as a person would."""
    for attempt in range(3):
        rode = close_ride(page)
        if rode is not None:
            rides.append(rode)
        try:
            settled(page)
            target.click(timeout=4_000)
            return
        except PlaywrightTimeoutError:
            if attempt == 2 or page.locator("#ride-panel[open]").count() == 0:
                raise


def note(page: Page, seen: list[str], shots: Any) -> None:
    lesson = page.locator("#tutor").get_attribute("data-lesson") or ""
    if lesson and (not seen or seen[-1] != lesson):
        seen.append(lesson)
        if shots is not None:
            shots(lesson)


def finish(page: Page, final: str) -> None:
    """At the end the coach opens what is left, one "Got it" at a time (each the server's
    answer), the final lesson last."""
    coach = page.locator("#tutor")
    for _ in range(12):
        lesson = coach.get_attribute("data-lesson")
        if lesson == final:
            return
        page.click("#tutor-next")
        expect(coach).not_to_have_attribute("data-lesson", lesson or "")
    raise AssertionError(f"the final lesson {final!r} never showed")


def the_end(page: Page, lang: str, seen: list[str], rides: list[int], shots: Path) -> None:
    """The guided Apokalypse game's end: the learner wins, the coach's last lesson with the
    summary, every lesson shown once in the order the panel showed them, the way to a real
    game."""
    if 4 not in rides:  # Death's panel opens just after the end shows: closed to go on
        page.wait_for_selector('#ride-panel[open][data-horseman="4"]')
        close_ride(page)
    # the game the deal was chosen for (server/tutorial/'s walk): the learner wins
    expect(page.locator('#final-reveal .reveal[data-seat="0"]')).to_have_attribute(
        "data-winner", "yes"
    )
    finish(page, "win")
    note(page, seen, None)
    expect(page.locator("#tutor-title")).to_have_text(TITLES[lang][1])
    expect(page.locator("#tutor-summary li")).to_have_count(len(APOKALYPSE_TOPICS))
    real = page.locator("#tutor-play-real")
    assert real.get_attribute("href") == "/?game=apokalypse"
    screenshot(page, shots, f"tutorial-{lang}-win")
    order = shown(page)
    assert sorted(order) == sorted(APOKALYPSE_TOPICS), order  # each lesson once
    assert order[0] == "ethos" and order[-1] == "win", order
    assert seen == order, (seen, order)  # what the panel showed, in that order
    real.click()  # a real game: the lobby with the game chosen
    page.wait_for_selector("#create")
    expect(page.locator('input[name="game"][value="apokalypse"]')).to_be_checked()
    expect(page.locator("#continue-apokalypse")).to_have_count(0)  # finished
    expect(page.locator("#learn-apokalypse")).to_be_visible()
    screenshot(page, shots, f"tutorial-{lang}-lobby", full_page=False)


def begun(
    people: list[Any], browser: Browser, server: Server, lang: str, tmp_path: Path
) -> tuple[Page, str, Callable[[str], None]]:
    """The guided Apokalypse game started from the lobby in ``lang``, its first lesson shown:
    the page, the game's id, and what screenshots the lessons worth a picture."""
    page = person(people, browser, DESKTOP)
    url = start(page, server, "apokalypse", lang)
    game_id = url.split("/games/")[1].split("?")[0]
    expect(page.locator("#tutor-title")).to_have_text(TITLES[lang][0])
    expect(page.locator("#tutor")).to_have_attribute("lang", lang)
    screenshot(page, tmp_path, f"tutorial-{lang}-ethos", full_page=False)

    def shot(lesson: str) -> None:
        if lesson in ("protection", "ride", "attack"):
            screenshot(page, tmp_path, f"tutorial-{lang}-{lesson}", full_page=False)

    return page, game_id, shot


@pytest.mark.long(200)
@pytest.mark.parametrize("lang", ["de"])
def test_the_guided_apokalypse_game(
    lang: str, server: Server, browser: Browser, people: list[Any], tmp_path: Path
) -> None:
    """The whole guided game in German, followed in the browser from the lobby to its end."""
    page, _, shot = begun(people, browser, server, lang, tmp_path)
    seen: list[str] = []
    rides: list[int] = []
    assert follow(page, server, seen, shots=shot, rides=rides)
    the_end(page, lang, seen, rides, tmp_path)


def recorded(server: Server, game_id: str) -> list[str]:
    """The actions of a game as the server's store holds them."""
    store = Store.open(server.database_url)
    try:
        return store.load(game_id).actions
    finally:
        store.engine.dispose()


def resume(page: Page, server: Server, learner: Coached, seen: list[str], decided: int) -> str:
    """The guided game played the coach's way (``learner``) to its learner's decision after
    ``decided`` of them, opened in this browser as its learner resumes it: its id. The coach of
    that record opened the very lessons the panel showed so far, in that order, and the server
    sends them."""
    game = guided(server.database_url, "apokalypse", "en", learner, decisions=decided)
    assert learner.topics == seen, (learner.topics, seen)
    token = game.tokens[0]
    page.evaluate(REMEMBER, [game.id, token])
    page.goto(f"{server.http}/games/{game.id}?token={token}")
    ready(page)
    expect(page.locator("#tutor")).to_have_attribute("data-lesson", seen[-1])  # where it was
    return game.id


@pytest.mark.long(76)
def test_the_guided_apokalypse_game_in_english(
    server: Server, browser: Browser, people: list[Any], tmp_path: Path
) -> None:
    """In English: the guided game started in the lobby, followed for its opening lessons; each
    later lesson reached from the guided game's record played the coach's way to the learner's
    decision after which the coach opens it (when it lies more than ``GAP`` decisions on), and
    followed from there in the browser until the panel shows it; to the end and "who wins"."""
    lang = "en"
    page, game_id, shot = begun(people, browser, server, lang, tmp_path)
    seen: list[str] = []

    # The whole guided game the coach's way, on the server's own path: when each lesson opens.
    plan = Coached("apokalypse")
    whole = guided(server.database_url, "apokalypse", lang, plan, until=lambda live: False)
    assert plan.topics[-1] == "win" and whole.live.state.is_over, plan.topics
    lobby, rides = game_id, list[int]()
    decided = 0  # the learner's decisions in the game followed now
    for lesson in plan.topics[1:-1]:
        steps = plan.opened[lesson] - decided
        if plan.topics.index(lesson) >= OPENING and steps > GAP:
            if game_id == lobby:  # the lobby's game so far: the guided game's record
                played = recorded(server, lobby)
                assert whole.live.match.actions[: len(played)] == played
            decided = plan.opened[lesson] - 1
            game_id = resume(page, server, Coached("apokalypse"), seen, decided)
            steps = 1
        assert not follow(page, server, seen, steps=steps, shots=shot, rides=rides)
        decided += steps
        ready(page)
        expect(page.locator("#tutor")).to_have_attribute("data-lesson", lesson)
        expect(page.locator("#tutor")).to_have_attribute("lang", lang)
        note(page, seen, shot)
    if whole.decisions - decided > GAP:  # near the end: Death rides, the learner wins
        game_id = resume(page, server, Coached("apokalypse"), seen, whole.decisions - GAP)
    assert follow(page, server, seen, shots=shot, rides=rides)
    the_end(page, lang, seen, rides, tmp_path)


@pytest.mark.long(17)
def test_leaving_and_resuming_goes_on_without_repeating_a_lesson(
    server: Server, browser: Browser, people: list[Any]
) -> None:
    page = person(people, browser, DESKTOP)
    url = start(page, server, "apokalypse", "en")
    game_id = url.split("/games/")[1].split("?")[0]
    seen: list[str] = []
    follow(page, server, seen, steps=8)
    before = shown(page)
    assert len(before) >= 3, before
    page.reload()  # left and back at once
    ready(page)
    expect(page.locator("#tutor")).to_be_visible()
    follow(page, server, seen, steps=6)
    page.goto(server.http)  # to the lobby, and back by "Continue learning"
    page.click("#continue-apokalypse")
    page.wait_for_url("**/games/**")
    ready(page)
    assert game_of(page) == game_id  # the same game, its lessons where they were
    follow(page, server, seen, steps=6)
    after = shown(page)
    assert after[: len(before)] == before and len(after) == len(set(after)), (before, after)
    assert len(after) > len(before), after  # and it went on teaching
    page.select_option("#tutor-lessons", "ethos")  # back to a lesson, and on again
    expect(page.locator("#tutor-title")).to_have_text("Your ethos: good")
    page.click("#tutor-resume")
    expect(page.locator("#tutor")).to_have_attribute("data-showing", after[-1])


@pytest.mark.long(27)
def test_the_guided_apokerlypse_game(
    server: Server, browser: Browser, people: list[Any], tmp_path: Path
) -> None:
    page = person(people, browser, DESKTOP)
    start(page, server, "apokerlypse", "de")
    expect(page.locator("#tutor-title")).to_have_text(POKER_TITLES["de"][0])
    seen: list[str] = []

    def shot(lesson: str) -> None:
        if lesson in ("discard", "scoring"):
            screenshot(page, tmp_path, f"tutorial-poker-de-{lesson}", full_page=False)

    assert follow(page, server, seen, shots=shot)
    expect(page.locator('#final-reveal .reveal[data-seat="0"]')).to_have_attribute(
        "data-winner", "yes"
    )
    finish(page, "end")
    expect(page.locator("#tutor-title")).to_have_text(POKER_TITLES["de"][1])
    order = shown(page)
    assert sorted(order) == sorted(APOKERLYPSE_TOPICS), order
    assert order[0] == "chips" and order[-1] == "end", order
    screenshot(page, tmp_path, "tutorial-poker-de-end")


@pytest.mark.long(25)
def test_on_a_phone_the_coach_covers_no_control(
    server: Server, browser: Browser, people: list[Any], tmp_path: Path
) -> None:
    phone: ViewportSize = PHONE
    page = person(people, browser, phone)
    start(page, server, "apokalypse", "de")
    seen: list[str] = []
    for step in range(4):
        follow(page, server, seen, steps=3)
        coach = page.locator("#tutor").bounding_box()
        assert coach is not None and coach["width"] <= phone["width"], coach
        # the page is not wider than the phone, and nothing the learner clicks lies under the coach
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= phone["width"], width
        covered = page.evaluate(
            """() => {
              const box = document.querySelector('#tutor').getBoundingClientRect();
              return [...document.querySelectorAll('#choices button, .target, #hand button')]
                .filter((b) => { const r = b.getBoundingClientRect();
                  return r.width > 0 && r.top < box.bottom && r.bottom > box.top
                    && r.left < box.right && r.right > box.left; })
                .map((b) => b.dataset.action || b.dataset.code || b.textContent);
            }"""
        )
        assert covered == [], covered
        screenshot(page, tmp_path, f"tutorial-phone-de-{step}", full_page=False)
    page.click("#tutor-collapse")  # folded to one line with the suggestion
    expect(page.locator("#tutor.collapsed")).to_be_visible()
    expect(page.locator("#tutor-expand")).to_be_visible()
    screenshot(page, tmp_path, "tutorial-phone-de-collapsed", full_page=False)
