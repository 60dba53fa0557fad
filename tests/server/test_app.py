"""The game server as people use it: the real ``apokalypse serve`` process, HTTP with httpx and
a real WebSocket client, a restart of the process in the middle of a game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from apokalypse.server import making
from apokalypse.server.asking import check
from apokalypse.server.store import Store
from apokalypse.wire import WIRE_VERSION, ActionMessage
from tests.helpers import create

from .served import TIMEOUT, Server, answer, decision, keys, play, receive


def test_bad_requests_are_refused_in_one_line(server: Server) -> None:
    url = f"{server.http}/api/games"
    cases = [
        ({"game": "chess", "players": 2, "seats": ["human", "human"]}, 400, "unknown game"),
        ({"game": "apokalypse", "players": 9, "seats": ["human"] * 9}, 400, "2–6 players"),
        ({"game": "apokalypse", "players": 2, "seats": ["human"]}, 400, "seats"),
        ({"game": "apokalypse", "players": 2, "seats": ["human", "genius"]}, 400, "unknown bot"),
        (
            {"game": "apokalypse", "players": 2, "seats": ["human", "random"], "lang": "fr"},
            400,
            "fr",
        ),
        ({"game": "apokalypse", "players": "two", "seats": []}, 422, "players"),
    ]
    for body, status, word in cases:
        response = httpx.post(url, json=body, timeout=TIMEOUT)
        assert response.status_code == status, (body, response.text)
        detail = response.json()["detail"]
        assert isinstance(detail, str) and "\n" not in detail and word in detail, detail
    assert httpx.get(f"{server.http}/api/games/nothing", timeout=TIMEOUT).status_code == 404


def test_a_game_against_a_computer_player(server: Server) -> None:
    created = create(server, lang="de")
    game_id = created["id"]
    human, bot = created["seats"]
    assert human["kind"] == "human" and isinstance(human["token"], str)
    assert bot == {"seat": 1, "kind": "heuristic"}

    summary = httpx.get(f"{server.http}/api/games/{game_id}", timeout=TIMEOUT)
    assert summary.status_code == 200
    assert human["token"] not in summary.text and "seed" not in summary.json()
    assert summary.json()["seats"] == [
        {"seat": 0, "kind": "human", "name": None},
        {"seat": 1, "kind": "heuristic", "name": None},
    ]

    seen: list[dict[str, Any]] = []
    with connect(server.ws(game_id, human["token"]), open_timeout=TIMEOUT) as ws:
        state = decision(ws, seen, receive(ws, seen))  # the computer may begin
        assert state["type"] == "state" and state["wire"] == WIRE_VERSION
        assert state["observation"]["seat"] == 0
        assert state["legal"] and "hand" in state["observation"]
        first = state
        state = play(ws, state, 6, seen)
        move = state["observation"]["move"]
        assert move > first["observation"]["move"] + 6, "the computer player answered"
        assert any(e["args"].get("actor") == 1 for m in seen for e in m.get("events", []))

        # the first state's move again: stale
        ws.send(json.dumps({"action": first["legal"][0]["text"], "move": 0}))
        refused = receive(ws, seen)
        assert refused["type"] == "refused" and "rule" not in refused
        assert str(move) in refused["reason"]

        # an action the rules refuse: its rule id and a German reason
        legal = [a["text"] for a in state["legal"]]
        illegal = next(a for a in ("decline", "steal p2", "back") if a not in legal)
        ws.send(json.dumps({"action": illegal, "move": move}))
        refused = receive(ws, seen)
        assert refused["type"] == "refused", refused
        assert refused["rule"].startswith("R-") and refused["reason"].startswith("Nicht erlaubt")

        ws.send(json.dumps({"action": "fly away", "move": move}))
        assert receive(ws, seen)["reason"].startswith("Nicht verstanden")
        ws.send("not json")
        assert receive(ws, seen)["type"] == "refused"

        # nothing changed: the game goes on from where it stood
        state = play(ws, state, 1, seen)
        assert state["observation"]["move"] > move

        with connect(server.ws(game_id), open_timeout=TIMEOUT) as spectator:
            view = receive(spectator, seen)
            assert view["observation"]["seat"] is None and "hand" not in view["observation"]
            assert view["legal"] == []
            spectator.send(json.dumps({"action": "pass", "move": view["observation"]["move"]}))
            assert receive(spectator, seen)["type"] == "refused"
            for _ in range(5):  # the spectator is sent every change, as a spectator
                before = state["observation"]["move"]
                state = play(ws, state, 1, seen)
                update = answer(spectator, seen, before)
                while update["observation"]["move"] < state["observation"]["move"]:
                    assert "hand" not in update["observation"]  # each change, one message
                    assert not any(e["seen"] for e in update["events"])
                    update = answer(spectator, seen, update["observation"]["move"])
                assert "hand" not in update["observation"]
                assert update["observation"]["move"] == state["observation"]["move"]
                assert not any(e["seen"] for e in update["events"])
            assert any(m["events"] for m in seen if m.get("observation", {}).get("seat", 0) is None)

    for message in seen:
        assert not keys(message) & {"secret", "seen_by", "token", "seed"}, message

    with connect(server.ws(game_id, "not-a-token"), open_timeout=TIMEOUT) as intruder:
        with pytest.raises(ConnectionClosed) as closed:
            intruder.recv(timeout=TIMEOUT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_a_restart_mid_game_loses_nothing(fresh_server: Server) -> None:
    server = fresh_server
    created = create(server, seats=["human", "random"])
    game_id, token = created["id"], created["seats"][0]["token"]
    seen: list[dict[str, Any]] = []
    with connect(server.ws(game_id, token), open_timeout=TIMEOUT) as ws:
        before = play(ws, decision(ws, seen, receive(ws, seen)), 5, seen)
    assert before["legal"], "still running"

    server.stop()
    server.start()

    with connect(server.ws(game_id, token), open_timeout=TIMEOUT) as ws:
        after = receive(ws, seen)
        assert after["observation"]["move"] == before["observation"]["move"]
        assert after["observation"]["hand"] == before["observation"]["hand"]
        assert after["legal"] == before["legal"]
        later = play(ws, after, 3, seen)
        assert later["observation"]["move"] > after["observation"]["move"]
    summary = httpx.get(f"{server.http}/api/games/{game_id}", timeout=TIMEOUT).json()
    assert summary["move"] == later["observation"]["move"]


def test_computer_players_resume_exactly(tmp_path: Path) -> None:
    """A game rebuilt from the store seats the same computer players, in the same state: from
    there they choose what they would have chosen had the game never left memory."""
    store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    new = making.new_game("apokalypse", 3, ["human", "heuristic", "random"], [], "en")
    live = making.create(store, new)
    for _ in range(8):
        while live.computer_step(store):  # the computers' turns, as the hub's pool plays them
            pass
        legal = [str(a) for a in live.state.legal_actions()]
        action = next((a for a in legal if a != "pass"), "pass")
        shown = live.state.observation(0)["move"]  # what seat 0's connection was sent
        live.play(store, check(live, 0, ActionMessage(action=action, move=shown), shown))
    rebuilt = making.rebuild(store, live.id)
    assert rebuilt.match.actions == live.match.actions
    assert rebuilt.state.observation(0) == live.state.observation(0)
    assert [e.digest_form() for e in rebuilt.log] == [e.digest_form() for e in live.log]
    for _ in range(40):  # on past the restart, both games side by side, without the store
        if live.state.is_over:
            break
        if live.match.is_computer(live.state.to_act):
            assert live.match.play_turn()[0] == rebuilt.match.play_turn()[0]
        else:
            action = live.state.legal_actions()[-1]
            live.match.apply(action)
            rebuilt.match.apply(rebuilt.game.parse_action(str(action)))
    assert rebuilt.match.digest.hexdigest() == live.match.digest.hexdigest()
