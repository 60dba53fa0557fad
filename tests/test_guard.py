"""Fault-proof computer players (``bots/guard.py``): a player that raises, overruns its deadline
or answers something illegal is replaced by the heuristic for that move and the fault logged
(seat and name, never the hand), through the real Match, terminal Session and server code."""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rich.console import Console

from apokalypse.bots import RandomBot, make_bot
from apokalypse.bots.guard import ITERATIONS_LIMIT, Guarded, guard, limit_for
from apokalypse.bots.ismcts import ISMCTSPlayer
from apokalypse.cli.session import Session
from apokalypse.engine.match import Match, SearchingPlayer, Worlds
from apokalypse.engine.record import GameRecord, replay
from apokalypse.engine.registry import get_game
from apokalypse.server import making as server_making
from apokalypse.server.app import create_app
from apokalypse.server.settings import Settings

SECRET = "SECRET-HAND-7h-Kd"  # what a faulty player's exception says: it must not be logged
LOGGER = "apokalypse.bots.guard"


class Faulty:
    """A player that fails on some decisions: ``raise`` (raises), ``sleep`` (sleeps past the
    deadline), ``illegal`` (answers with something that is no legal action)."""

    blind = False

    def __init__(self, how: str, every: int = 3, nap: float = 0.3) -> None:
        self.name = f"faulty-{how}"
        self.how = how
        self.every = every
        self.nap = nap
        self.asked = 0
        self.fine = RandomBot(5)

    def observe(self, events: Sequence[Any]) -> None:
        return None

    def choose(self, observation: Any, legal: Sequence[Any]) -> Any:
        self.asked += 1
        if self.asked % self.every == 0:
            if self.how == "raise":
                raise RuntimeError(SECRET)
            if self.how == "sleep":
                time.sleep(self.nap)
            if self.how == "illegal":
                return "no such action"
        return self.fine.choose(list(legal), list(legal))


def new_state(game: str = "apokalypse", players: int = 3, seed: int = 4) -> Any:
    rules = get_game(game)
    return rules.new_game(rules.config_from_options(players, [], None), seed)


def heuristic(seat: int, game: str = "apokalypse") -> Any:
    return make_bot("heuristic", 1000 + seat, game)


def faults(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER]


@pytest.mark.parametrize("how", ["raise", "illegal"])
def test_a_failing_player_is_replaced_for_that_move_and_logged(caplog, how):
    caplog.set_level(logging.WARNING, LOGGER)
    faulty = Faulty(how)
    guarded = guard(faulty, heuristic(1), seat=1)
    match: Match[Any, Any] = Match(new_state(), {1: guarded, 0: heuristic(0), 2: heuristic(2)})
    match.start()
    match.play_out()  # never a crash
    assert match.state.is_over
    assert guarded.faults == faulty.asked // 3 > 0
    logged = faults(caplog)
    assert len(logged) == guarded.faults
    assert all("at p2" in line and f"'faulty-{how}'" in line for line in logged)
    assert all("heuristic" in line for line in logged)
    assert not any(SECRET in line for line in logged), "the exception's text may name cards"
    if how == "raise":
        assert all("raised RuntimeError" in line for line in logged)


def test_a_player_past_its_deadline_is_replaced_and_its_late_answer_dropped(caplog):
    caplog.set_level(logging.WARNING, LOGGER)
    faulty = Faulty("sleep", every=4, nap=0.25)
    guarded = guard(faulty, heuristic(0), limit_seconds=0.05, seat=0)
    match: Match[Any, Any] = Match(new_state(players=2), {0: guarded, 1: heuristic(1)})
    match.start()
    mine = 0
    for _ in range(60):
        if match.state.is_over:
            break
        mine += match.state.to_act == 0
        match.play_turn()
    logged = faults(caplog)
    assert any("did not answer within 0.05 s" in line for line in logged)
    assert guarded.faults == len(logged) >= 1
    # while the late decision still runs, the player is not asked again: the stand-in answers
    busy = [line for line in logged if "still busy" in line]
    assert faulty.asked == mine - len(busy), "never asked twice at once"


def test_limits_follow_the_budget():
    assert limit_for(ISMCTSPlayer(1, seconds=0.5)) == pytest.approx(2.0)  # budget × 2 + 1 s
    assert limit_for(ISMCTSPlayer(1, iterations=50)) == ITERATIONS_LIMIT
    assert limit_for(RandomBot(1)) == ITERATIONS_LIMIT


def test_a_guarded_searching_player_still_searches_and_explains():
    searcher = ISMCTSPlayer(3, iterations=8)
    guarded = guard(searcher, heuristic(0), seat=0)
    assert isinstance(guarded, SearchingPlayer), "the match must hand it a sampler"
    assert not isinstance(guard(heuristic(1), heuristic(1)), SearchingPlayer)
    match: Match[Any, Any] = Match(new_state(players=2), {0: guarded, 1: heuristic(1)})
    match.start()
    while match.state.to_act != 0:
        match.play_turn()
    match.play_turn()
    assert guarded.last is searcher.last is not None and guarded.last_ok


def test_a_searching_player_that_raises_leaves_no_stale_explanation(caplog):
    class Broken(ISMCTSPlayer):
        def choose_in(self, observation: Any, legal: Sequence[Any], worlds: Worlds) -> Any:
            raise ValueError(SECRET)

    guarded = guard(Broken(1, iterations=5), heuristic(0), seat=0)
    match: Match[Any, Any] = Match(new_state(players=2), {0: guarded, 1: heuristic(1)})
    match.start()
    while match.state.to_act != 0:
        match.play_turn()
    match.play_turn()
    assert guarded.faults == 1 and guarded.last is None and not guarded.last_ok


def test_a_blind_player_gets_a_blind_stand_in():
    guarded = guard(RandomBot(1), heuristic(0), seat=0)
    assert guarded.blind and guarded.stand_in.blind  # a heuristic cannot read {} observations


# --- the terminal game and the server ----------------------------------------------------------


def test_the_terminal_session_survives_a_faulty_player(tmp_path: Path, caplog):
    caplog.set_level(logging.WARNING, LOGGER)
    state = new_state(players=3, seed=11)
    out = io.StringIO()
    session = Session(
        console=Console(file=out, width=120, color_system=None),
        lang="en",
        state=state,
        record=GameRecord("apokalypse", "1", state.config.to_json(), 11),
        path=tmp_path / "game.json",
        humans=frozenset(),
        bots={0: Faulty("raise"), 1: Faulty("illegal"), 2: heuristic(2)},
    )
    assert all(isinstance(p, Guarded) for p in session.match.players.values())
    session.start()
    session.run()
    assert "Game over" in out.getvalue()
    logged = faults(caplog)
    assert any("'faulty-raise' at p1 raised RuntimeError" in line for line in logged)
    assert any(
        "'faulty-illegal' at p2 chose an action that is not legal" in line for line in logged
    )
    record = GameRecord.load(tmp_path / "game.json")
    assert replay(record).digest == record.events_sha256, "the save replays exactly"
    stood = [d for d in session.decisions.values() if d.stood_in]
    assert stood and {d.seat for d in stood} == {0, 1}


def test_the_server_survives_a_faulty_player(tmp_path: Path, monkeypatch, caplog):
    caplog.set_level(logging.WARNING, LOGGER)
    real = make_bot
    made: list[Faulty] = []

    def make_bot_or_faulty(kind: str, seed: int, game: str) -> Any:
        if kind != "random":
            return real(kind, seed, game)
        # every decision fails; the last one made plays (a game that waits for a person is
        # rebuilt, with fresh players, when that person opens it)
        made.append(Faulty("raise", every=1))
        return made[-1]

    monkeypatch.setattr(server_making, "make_bot", make_bot_or_faulty)
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", settings=Settings(computer_delay=0))
    with TestClient(app) as client:
        body = {"game": "apokalypse", "players": 2, "seats": ["human", "random"]}
        created = client.post("/api/games", json=body).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
            state = ws.receive_json()
            for _ in range(200):  # the person answers until the computer player had its turns
                # (it answers after the person's own change, each of its moves a message: a
                # state without legal actions is the computer's turn, or the game's end)
                while not state["legal"] and "result" not in state["observation"]:
                    state = ws.receive_json()
                    assert state["type"] == "state", state
                if made[-1].asked >= 3 or not state["legal"]:
                    break
                move = state["observation"]["move"]
                ws.send_json({"action": state["legal"][-1]["text"], "move": move})
                state = ws.receive_json()
                assert state["type"] == "state", state
    assert made[-1].asked >= 3, "the game went on past the faults"
    logged = faults(caplog)
    assert len(logged) == made[-1].asked
    assert all("'faulty-raise' at p2 raised RuntimeError" in line for line in logged)
    assert not any(SECRET in line for line in logged)


def test_the_server_refuses_a_budget_as_a_seat_kind(tmp_path: Path):
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with TestClient(app) as client:
        body = {"game": "apokalypse", "players": 2, "seats": ["human", "ismcts:100000"]}
        response = client.post("/api/games", json=body)
        assert response.status_code == 400
        assert "without a budget" in response.text
