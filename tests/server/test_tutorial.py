"""The guided first game ("Learn to play", server/tutorial/): its prepared deals still teach what
they were chosen for, and ``POST /api/tutorial`` makes one as an ordinary stored game marked as a
tutorial, bounded like every game made."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from apokalypse.bots import make_bot, seat_seed
from apokalypse.engine.record import start as record_start
from apokalypse.server.making import rematch_of
from apokalypse.server.refusals import message
from apokalypse.server.settings import Settings
from apokalypse.server.tutorial import (
    ANSWERED,
    APOKALYPSE_TOPICS,
    APOKERLYPSE_TOPICS,
    GUIDES,
    LEARNER,
    LEVEL,
    TUTORIALS,
    CoachModel,
    newcomer,
    tutorial_game,
    unmet,
    walk,
)
from apokalypse.server.tutorial.guide import Parts
from apokalypse.server.tutorial.tutor import Tutor, tutor_for

from .inprocess import serving
from .test_hardening import receive, until

TIMEOUT = 30.0  # every receive and request: a hang guard, on a busy machine too


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_the_prepared_deal_meets_every_lesson(name: str) -> None:
    """The deal the committed seed makes: the learner (seat 1, good in Apokalypse) following the
    coach's suggestions against easy computer players meets every lesson's topic, "who wins" /
    "the end" last, in a game of a sensible length that the learner wins."""
    tutorial = TUTORIALS[name]
    assert unmet(name, tutorial.seed, tutorial.players) == []
    path = walk(name, tutorial.seed, tutorial.players)
    topics = APOKALYPSE_TOPICS if name == "apokalypse" else APOKERLYPSE_TOPICS
    assert sorted(path.topics) == sorted(topics)  # each once


def test_r_setup_3_the_apokalypse_learner_is_good_and_holds_a_populace_and_its_gift() -> None:
    tutorial = TUTORIALS["apokalypse"]
    path = walk("apokalypse", tutorial.seed, tutorial.players)
    assert path.ethos == "good"
    assert len(path.hand) == 4  # R-SETUP-4: two B and two K cards, one to lay and one to give
    assert path.topics[:2] == ["ethos", "good-populace"] and "protection" in path.topics[:4]
    assert path.first_ride_round is not None and path.first_ride_round <= 3  # R-DEAL-5


def test_the_walk_is_deterministic() -> None:
    """The computer players are seeded from the game's seed: the same moves give the same game."""
    tutorial = TUTORIALS["apokerlypse"]
    first = walk("apokerlypse", tutorial.seed, tutorial.players)
    assert walk("apokerlypse", tutorial.seed, tutorial.players) == first


def test_a_game_without_a_guided_game_is_refused() -> None:
    with pytest.raises(Exception, match="no guided game; choose one of: apokalypse, apokerlypse"):
        tutorial_game("chess", "en")


def test_post_tutorial_makes_a_stored_game_marked_as_a_tutorial(tmp_path: Path) -> None:
    settings = Settings(create_burst=2, create_per_minute=1)
    with serving(f"sqlite:///{tmp_path / 'db.sqlite3'}", settings) as server:
        made = httpx.post(
            f"{server.http}/api/tutorial",
            json={"game": "apokalypse", "lang": "de"},
            timeout=TIMEOUT,
        )
        assert made.status_code == 200, made.text
        created = made.json()
        kinds = [seat["kind"] for seat in created["seats"]]
        assert kinds == ["human", "easy", "easy"]
        token = created["seats"][0]["token"]
        summary = httpx.get(f"{server.http}/api/games/{created['id']}", timeout=TIMEOUT).json()
        assert summary["tutorial"] is True and summary["lang"] == "de"
        assert "seed" not in summary  # the deal is public in the code, but no game tells it
        with connect(server.ws(created["id"], token)) as ws:
            state = receive(ws)
            assert state["type"] == "state" and state["observation"]["ethos"] == "good"
        # an ordinary game is not a tutorial
        plain = httpx.post(
            f"{server.http}/api/games",
            json={"game": "apokalypse", "players": 2, "seats": ["human", "easy"]},
            timeout=TIMEOUT,
        )
        assert plain.status_code == 200
        other = httpx.get(f"{server.http}/api/games/{plain.json()['id']}", timeout=TIMEOUT)
        assert "tutorial" not in other.json()
        # the same allowance as every game made: the third within the minute is refused
        refused = httpx.post(
            f"{server.http}/api/tutorial", json={"game": "apokerlypse"}, timeout=TIMEOUT
        )
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        unknown = httpx.post(f"{server.http}/api/tutorial", json={"game": "chess"}, timeout=TIMEOUT)
        assert unknown.status_code == 400 and "no guided game" in unknown.json()["detail"]


def test_a_tutorials_rematch_is_a_real_game() -> None:
    """A guided game's rematch keeps the seats but deals afresh, without the coach."""
    made = tutorial_game("apokerlypse", "en")
    assert made.record.meta["tutorial"] is True
    assert made.record.seed == TUTORIALS["apokerlypse"].seed
    again = rematch_of(made.record, "g1")
    assert "tutorial" not in again.record.meta and again.record.meta["rematch_of"] == "g1"
    assert again.record.meta["seats"] == made.record.meta["seats"]


# --- the coach in play: worked out on the server, sent to the learner alone --------------------


def play_along(
    name: str, actions: list[str]
) -> Iterator[tuple[Tutor, Mapping[str, Any], list[Parts], str | None]]:
    """The guided game of ``name`` played as :func:`walk` plays it, its learner following the
    server's coach (:class:`Tutor`, fed the game's ``actions`` as a room feeds it) while a coach
    of its own looks at every state as the walk's does: at each of the learner's decisions, the
    server's coach, the learner's observation, its legal actions' parts and the walk's lesson."""
    tutorial = TUTORIALS[name]
    made = tutorial_game(name, "en")
    tutor = tutor_for(made.record)
    assert tutor is not None
    state, guide = made.state, GUIDES[name]
    bots = {
        seat: make_bot(LEVEL, seat_seed(tutorial.seed, seat), name)
        for seat in range(tutorial.players)
        if seat != LEARNER
    }
    walked = CoachModel(guide)
    kinds = {event.kind for event in state.opening}
    while True:
        obs = state.observation(LEARNER)
        mine = not state.is_over and state.to_act == LEARNER
        legal = list(state.legal_actions()) if not state.is_over else []
        parts = [guide.parts(action) for action in legal] if mine else []
        walked.look(obs, parts, kinds)
        tutor.follow(actions)
        if state.is_over:
            return
        if mine:
            yield tutor, obs, parts, walked.current
            chosen = tutor.view()["suggestion"]
            action = legal[0 if chosen is None else chosen]
        else:
            player = state.to_act
            action = bots[player].choose(state.observation(player), legal)
        events = state.apply(action)
        actions.append(str(guide.parts(action)["text"]))
        for seat, bot in bots.items():
            bot.observe([event.view(seat) for event in events])
        kinds.update(event.kind for event in events)


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_the_coach_in_play_suggests_the_newcomers_move_and_opens_the_walks_lessons(
    name: str,
) -> None:
    """The server's coach is the one that chose the deal: at every decision of the learner (a
    play, then its place or its gift's recipient, each a decision of its own) it suggests the
    move :func:`newcomer` makes under the lesson the walk shows, and over the game it opens the
    walk's lessons in the walk's order, the last ones by "Got it" once the game is over."""
    steps = 0
    decisions: set[str] = set()
    actions: list[str] = []
    tutor: Tutor | None = None
    for tutor, obs, parts, lesson in play_along(name, actions):
        view = tutor.view()
        assert view["lessons"][-1] == lesson
        answered = len(parts) == 1 and parts[0]["verb"] in ANSWERED
        expected = None if answered else newcomer(name, obs, parts, lesson)
        assert view["suggestion"] == expected, (obs["move"], parts, view)
        decisions.add(str(obs["decision"]))
        steps += 1
    assert tutor is not None and tutor.followed == len(actions)
    tutorial = TUTORIALS[name]
    path = walk(name, tutorial.seed, tutorial.players)
    assert steps == path.decisions
    while tutor.view()["due"]:
        assert tutor.read_on(actions)
    assert not tutor.read_on(actions)  # nothing more to open
    assert tutor.view()["lessons"] == path.topics
    if name == "apokalypse":  # the several-step plays were suggested step by step
        assert {"choose-target", "choose-recipient"} <= decisions, decisions


class Watched:
    """A game state that notes whose view is read of it: the seats whose observation is asked
    for, the seats deciding when the legal actions are, and the seats its events are viewed by
    (its ``opening`` and whatever ``apply`` returns)."""

    def __init__(self, state: Any) -> None:
        self._state = state
        self.observed: set[int | None] = set()
        self.legal_for: set[int | None] = set()
        self.viewed: set[int | None] = set()

    def observation(self, seat: int | None) -> Any:
        self.observed.add(seat)
        return self._state.observation(seat)

    def legal_actions(self) -> Any:
        self.legal_for.add(self._state.to_act)
        return self._state.legal_actions()

    def apply(self, action: Any) -> list[Any]:
        return [WatchedEvent(event, self) for event in self._state.apply(action)]

    @property
    def opening(self) -> list[Any]:
        return [WatchedEvent(event, self) for event in self._state.opening]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


class WatchedEvent:
    def __init__(self, event: Any, watched: Watched) -> None:
        self._event, self._watched = event, watched

    def view(self, seat: int | None) -> Any:
        self._watched.viewed.add(seat)
        return self._event.view(seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._event, name)


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_the_coach_reads_the_learners_view_alone(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Secrecy: the coach's copy of the game holds every hand, but it is asked for the learner's
    observation alone, for legal actions only while the learner decides, and for the learner's
    views of the events; so what it sends the learner is made of what the learner may know."""
    from apokalypse.server.tutorial import tutor as module

    copies: list[Watched] = []

    def start(record: Any) -> tuple[Any, Any]:
        game, state = record_start(record)
        copies.append(Watched(state))
        return game, copies[-1]

    monkeypatch.setattr(module, "start", start)
    actions: list[str] = []
    for tutor, _obs, _parts, _lesson in play_along(name, actions):
        tutor.view()
    (watched,) = copies
    assert tutor.followed > 20
    assert watched.observed == {LEARNER}
    assert watched.legal_for == {LEARNER}
    assert watched.viewed == {LEARNER}


def test_the_learners_state_carries_the_coach_and_nobody_elses(tmp_path: Path) -> None:
    """The server sends the coach (``tutorial``) in the state messages of a guided game's
    learner only: its suggestion is the move :func:`newcomer` makes from that very message (the
    learner's observation and legal actions, the lesson it shows); a spectator of the same game
    and a person in a game that is no guided game are sent None. "Got it" (``lesson``) opens the
    first lesson due, and a spectator's is refused."""
    with serving(f"sqlite:///{tmp_path / 'db.sqlite3'}") as server:
        made = httpx.post(
            f"{server.http}/api/tutorial", json={"game": "apokalypse"}, timeout=TIMEOUT
        ).json()
        token = next(seat["token"] for seat in made["seats"] if "token" in seat)
        with connect(server.ws(made["id"], token)) as ws:
            state = until(ws, lambda m: m["type"] == "state" and m["legal"])
            coach = state["tutorial"]
            assert coach["lessons"] == ["ethos"], coach
            lesson = coach["lessons"][-1]
            expected = newcomer("apokalypse", state["observation"], state["legal"], lesson)
            assert coach["suggestion"] == expected
            while not coach["due"]:  # the learner follows the coach until a lesson is due
                move = state["observation"]["move"]
                action = state["legal"][coach["suggestion"]]["text"]
                ws.send(json.dumps({"action": action, "move": move}))
                state = until(ws, lambda m: m["type"] == "state" and m["legal"])
                coach = state["tutorial"]
            ws.send(json.dumps({"type": "lesson"}))
            read = until(ws, lambda m: m["type"] == "state")["tutorial"]
            assert read["lessons"] == [*coach["lessons"], coach["due"][0]], (coach, read)
            with connect(server.ws(made["id"])) as watcher:
                assert receive(watcher)["tutorial"] is None
                watcher.send(json.dumps({"type": "lesson"}))
                refused = until(watcher, lambda m: m["type"] == "refused")
                assert refused["reason"] == message("spectator", "en")
        plain = httpx.post(
            f"{server.http}/api/games",
            json={"game": "apokalypse", "players": 2, "seats": ["human", "easy"]},
            timeout=TIMEOUT,
        ).json()
        with connect(server.ws(plain["id"], plain["seats"][0]["token"])) as ws:
            state = receive(ws)
            assert state["type"] == "state" and state["tutorial"] is None
            ws.send(json.dumps({"type": "lesson"}))  # changes nothing, and refuses nothing
            ws.send(json.dumps({"type": "auto", "on": False}))  # what comes back after it
            heard: list[dict[str, Any]] = []

            def heard_back(message: dict[str, Any]) -> bool:
                heard.append(message)
                return message["type"] == "state" and message["auto"] is False

            until(ws, heard_back)
            assert [m for m in heard if m["type"] != "state"] == [], heard
            assert all(m["tutorial"] is None for m in heard)
