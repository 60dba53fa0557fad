"""The guided first game ("Learn to play", server/tutorial/): its prepared deals still teach what
they were chosen for, and ``POST /api/tutorial`` makes one as an ordinary stored game marked as a
tutorial, bounded like every game made."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from apokalypse.server.making import rematch_of
from apokalypse.server.settings import Settings
from apokalypse.server.tutorial import (
    APOKALYPSE_TOPICS,
    APOKERLYPSE_TOPICS,
    TUTORIALS,
    tutorial_game,
    unmet,
    walk,
)

from .inprocess import serving
from .test_hardening import receive

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
