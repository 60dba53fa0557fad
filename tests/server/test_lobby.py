"""Seats and games around a game, through the real server: leave and reclaim a seat, a turn
timer that hands a slow person's seat to a computer player, a rematch with the same seats,
"my games", the rules text, the lobby's catalog, and a connection that floods or sends oversized
messages."""

from __future__ import annotations

import contextlib
import json
import random
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from apokalypse.bots import bot_names
from apokalypse.engine.registry import game_names, get_game
from apokalypse.i18n import text
from apokalypse.server.app import create_app
from apokalypse.server.settings import Settings
from apokalypse.wire import state_adapter
from tests.helpers import create

from .inprocess import Clock, Running, serving, wait_until
from .served import TIMEOUT, Server, answer, decision, receive


def until(
    ws: ClientConnection, seen: list[dict[str, Any]], done: Any, limit: int = 200
) -> dict[str, Any]:
    """The first message for which ``done(message)`` holds."""
    for _ in range(limit):
        message = receive(ws, seen)
        if done(message):
            return message
    raise AssertionError(f"no such message among {limit}: the last was {seen[-1]}")


def valid(game: str, messages: list[dict[str, Any]]) -> None:
    """Every state message fits the game's schema exactly (strict, as JSON)."""
    adapter = state_adapter(game)
    for message in messages:
        if message["type"] == "state":
            adapter.validate_json(json.dumps(message), strict=True)


def test_leave_and_reclaim_a_seat(server: Server) -> None:
    created = create(server, seats=["human", "human"])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    seen: list[dict[str, Any]] = []
    with (
        connect(server.ws(game_id, tokens[0]), open_timeout=TIMEOUT) as first,
        connect(server.ws(game_id, tokens[1]), open_timeout=TIMEOUT) as second,
    ):
        state = until(first, seen, lambda m: m["seats"][1]["connected"])
        assert state["seat"] == 0 and state["names"][0] != state["names"][1]
        assert [s["away"] for s in state["seats"]] == [False, False]
        me = state["observation"]["to_act"]  # whoever decides first leaves
        mine, friend = (first, second) if me == 0 else (second, first)

        mine.send(json.dumps({"type": "leave"}))  # a computer player takes my seat, and plays
        left = until(mine, seen, lambda m: m["seats"][me]["away"])
        assert left["seats"][me]["connected"], "I stay and watch"
        moved = until(
            friend,
            seen,
            lambda m: m["seats"][me]["away"] and m["observation"]["to_act"] == 1 - me,
        )
        assert moved["observation"]["move"] > state["observation"]["move"]

        mine.send(json.dumps({"type": "reclaim"}))
        until(mine, seen, lambda m: not m["seats"][me]["away"])

        friend.send(json.dumps({"type": "leave"}))
        friend.send(json.dumps({"type": "leave"}))  # twice: the second changes nothing
        until(
            mine,
            seen,
            lambda m: m["seats"][1 - me]["away"] and m["observation"]["to_act"] == me,
        )
    valid("apokalypse", seen)
    with connect(server.ws(game_id), open_timeout=TIMEOUT) as spectator:
        spectator.send(json.dumps({"type": "leave"}))
        until(spectator, seen, lambda m: m["type"] == "refused")


def play_promptly(url: str, stop: threading.Event) -> None:
    """A person who answers every decision at once (in a thread of its own), at random: the
    game goes on long enough for the other person to come back."""
    rng = random.Random(7)
    with connect(url, open_timeout=TIMEOUT) as ws:
        while not stop.is_set():
            try:
                state = json.loads(ws.recv(timeout=0.1))
            except TimeoutError:
                continue
            if state["type"] == "state" and state["legal"]:
                choice = rng.choice(state["legal"])["text"]
                action = {"action": choice, "move": state["observation"]["move"]}
                ws.send(json.dumps(action))


def test_a_person_out_of_time_is_replaced_until_they_reclaim(tmp_path: Path) -> None:
    """The turn's time and the bank pass on the hub's clock (a server in this process), moved
    here while I send nothing: the prompt friend takes none of it, however busy the machine."""
    with serving(f"sqlite:///{tmp_path / 'db.sqlite3'}") as server:
        ticks = server.still_clock()
        out_of_time(server, ticks)


def out_of_time(server: Running, ticks: Clock) -> None:
    created = create(server, seats=["human", "human"], timer={"turn": 0.3, "bank": 0.2})
    game_id, token = created["id"], created["seats"][0]["token"]
    stop = threading.Event()
    friend = threading.Thread(
        target=play_promptly, args=(server.ws(game_id, created["seats"][1]["token"]), stop)
    )
    friend.start()
    seen: list[dict[str, Any]] = []
    try:
        with connect(server.ws(game_id, token), open_timeout=TIMEOUT) as ws:
            mine = until(ws, seen, lambda m: m["legal"])
            clock = mine["clock"]
            assert clock["turn_s"] == 0.3 and clock["bank_ms"] == 200, "my own bank"
            deciding = clock["deciding"]
            assert deciding["seat"] == 0 and deciding["remaining_ms"] == 500, deciding
            assert deciding["turn_ms"] == 300, deciding
            # I send nothing: once the turn and the bank have passed, a computer player has my
            # seat, and plays it.
            ticks.advance(0.6)
            timed_out = until(ws, seen, lambda m: m["seats"][0]["away"])
            if timed_out["observation"]["move"] == mine["observation"]["move"]:  # then it plays
                moved = mine["observation"]["move"]
                timed_out = until(ws, seen, lambda m: m["observation"]["move"] > moved)
                assert timed_out["seats"][0]["away"]
            assert timed_out["observation"]["move"] > mine["observation"]["move"]
            deciding = timed_out["clock"]["deciding"]
            assert deciding is None or deciding["seat"] == 1
            ws.send(json.dumps({"type": "reclaim"}))
            back = until(ws, seen, lambda m: not m["seats"][0]["away"] and m["legal"])
            assert back["clock"]["deciding"]["seat"] == 0
            assert back["clock"]["bank_ms"] == 0, "bank spent"
            assert not back["seats"][1]["away"], "the prompt friend never ran out of time"
    finally:
        stop.set()
        friend.join(timeout=TIMEOUT)
    valid("apokalypse", seen)


def test_timer_settings_are_checked(server: Server) -> None:
    body = {"game": "apokalypse", "players": 2, "seats": ["human", "random"]}
    for timer in ({"turn": 0, "bank": 10}, {"turn": 30, "bank": -1}, {"turn": "soon"}):
        response = httpx.post(
            f"{server.http}/api/games", json={**body, "timer": timer}, timeout=TIMEOUT
        )
        assert response.status_code == 422, response.text
        assert response.json()["detail"].startswith("timer."), response.text


def test_a_rematch_keeps_the_seats_and_their_keys(server: Server) -> None:
    created = create(server, seats=["human", "random"])
    game_id, token = created["id"], created["seats"][0]["token"]
    seen: list[dict[str, Any]] = []
    with connect(server.ws(game_id, token), open_timeout=TIMEOUT) as ws:
        state = decision(ws, seen, receive(ws, seen))
        ws.send(json.dumps({"type": "rematch"}))  # not yet: the game is on
        refused = until(ws, seen, lambda m: m["type"] == "refused")
        assert "over" in refused["reason"]
        while state["legal"]:  # play to the end, passing whenever allowed
            legal = [a["text"] for a in state["legal"]]
            action = "pass" if "pass" in legal else legal[0]
            move = state["observation"]["move"]
            ws.send(json.dumps({"action": action, "move": move}))
            state = decision(ws, seen, answer(ws, seen, move))
        assert state["observation"]["result"] is not None and state["rematch"] is None
        ws.send(json.dumps({"type": "rematch"}))
        rematch = until(ws, seen, lambda m: m["type"] == "state" and m["rematch"])["rematch"]
        ws.send(json.dumps({"type": "rematch"}))  # asked twice: still the one rematch
        with connect(server.ws(game_id, token), open_timeout=TIMEOUT) as again:
            assert until(again, seen, lambda m: m["type"] == "state")["rematch"] == rematch
    valid("apokalypse", seen)
    assert set(rematch) == {"id"} and rematch["id"] != game_id

    summary = httpx.get(f"{server.http}/api/games/{rematch['id']}", timeout=TIMEOUT).json()
    seats = [{**seat, "name": None} for seat in created_seats(created)]  # nobody named
    assert summary["seats"] == seats and summary["over"] is False
    with connect(server.ws(rematch["id"], token), open_timeout=TIMEOUT) as ws:
        first = receive(ws, seen)
        assert first["seat"] == 0 and first["observation"]["to_act"] in (0, 1), "the same key"
        assert first["observation"]["move"] < state["observation"]["move"], "a new game"


def created_seats(created: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"seat": s["seat"], "kind": s["kind"]} for s in created["seats"]]


def test_my_games_lists_the_games_that_exist(server: Server) -> None:
    one, two = create(server), create(server, game="apokerlypse", seats=["human", "heuristic"])
    ids = ",".join([one["id"], "no-such-game", two["id"], one["id"]])
    response = httpx.get(f"{server.http}/api/games", params={"ids": ids}, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    games = response.json()["games"]
    assert [g["id"] for g in games] == [one["id"], two["id"]]
    assert [g["game"] for g in games] == ["apokalypse", "apokerlypse"]
    assert all("seed" not in g and not g["over"] for g in games)
    assert one["seats"][0]["token"] not in response.text
    too_many = ",".join(f"g{n}" for n in range(101))
    refused = httpx.get(f"{server.http}/api/games", params={"ids": too_many}, timeout=TIMEOUT)
    assert refused.status_code == 400 and "at most 100" in refused.json()["detail"]


def test_the_rules_in_both_languages(server: Server) -> None:
    """The rules help is the structure of the terminal's rules (sections, every card, one card's
    help), with the text the terminal prints but not its hint about commands."""
    rules = f"{server.http}/api/rules"
    english = httpx.get(f"{rules}/apokalypse", timeout=TIMEOUT).json()
    german = httpx.get(f"{rules}/apokalypse", params={"lang": "de"}, timeout=TIMEOUT).json()
    assert "Horseman 1" in english["text"] and german["text"] != english["text"]
    assert [s["id"] for s in english["sections"]] == [s["id"] for s in german["sections"]]
    assert "rules CARD" not in english["text"] and "regeln KARTE" not in german["text"]
    assert english["card"] is None and {"mask", "metal"} <= {c["code"] for c in english["cards"]}
    card = httpx.get(f"{rules}/apokalypse", params={"card": "mask"}, timeout=TIMEOUT)
    assert card.status_code == 200 and card.json()["card"]["code"] == "mask"
    unknown = httpx.get(f"{rules}/apokalypse", params={"card": "joker"}, timeout=TIMEOUT)
    assert unknown.status_code == 404 and "joker" in unknown.json()["detail"]
    poker = httpx.get(f"{rules}/apokerlypse", params={"card": "Th"}, timeout=TIMEOUT).json()
    assert poker["sections"] and poker["card"]["name"] == "10♥"
    assert httpx.get(f"{rules}/chess", timeout=TIMEOUT).status_code == 404
    bad = httpx.get(f"{rules}/apokalypse", params={"lang": "fr"}, timeout=TIMEOUT)
    assert bad.status_code == 400 and "fr" in bad.json()["detail"]


def test_the_catalog_offers_every_game_as_its_rules_say(server: Server) -> None:
    """The lobby builds its form from the catalog alone: every registered game with the rules'
    player range and variants, each labelled in both languages, and the seat kinds the server
    seats, a person and the levels first."""
    url = f"{server.http}/api/catalog"
    english, german = (
        httpx.get(url, params={"lang": lang}, timeout=TIMEOUT).json() for lang in ("en", "de")
    )
    assert httpx.get(url, timeout=TIMEOUT).json() == english, "English unless asked"
    assert (
        [g["name"] for g in english["games"]]
        == game_names()
        == [g["name"] for g in german["games"]]
    )
    for en, de in zip(english["games"], german["games"], strict=True):
        rules = get_game(en["name"])
        assert en["players"] == de["players"] == list(rules.players)
        assert en["title"] == text(f"{en['name']}.name", "en") and de["title"]
        for lang, game in (("en", en), ("de", de)):
            assert [v["id"] for v in game["variants"]] == list(rules.variants)
            for variant in game["variants"]:  # labelled in the catalogs, not the fallback
                label = text(f"{en['name']}.variant.{variant['id']}", lang)
                assert variant["label"] == label and label != rules.variants[variant["id"]]
        assert [v["label"] for v in en["variants"]] != [v["label"] for v in de["variants"]]
    apokalypse = english["games"][0]
    assert apokalypse["variants"][0] == {"id": "ethos-balanced", "label": "Balanced ethos cards"}

    kinds = [s["kind"] for s in english["seats"]]
    assert kinds[:5] == ["human", "easy", "medium", "hard", "expert"]
    assert [s["group"] for s in english["seats"][:5]] == [None] * 5
    assert "master" in kinds[5:], "the learned player, among the others until it is a level"
    assert set(kinds) == {"human", *bot_names("apokalypse")} and len(set(kinds)) == len(kinds)
    assert [s["kind"] for s in german["seats"]] == kinds
    assert english["seats"][0]["label"] == "Person" and german["seats"][0]["label"] == "Mensch"
    assert german["seats"][-1]["group"] == "Weitere Computerspieler"

    for bad in ("fr", "xx-long-language"):
        refused = httpx.get(url, params={"lang": bad}, timeout=TIMEOUT)
        assert refused.status_code in (400, 422), refused.text
        detail = refused.json()["detail"]
        assert isinstance(detail, str) and "lang" in detail and "\n" not in detail, detail
    assert "known: en, de" in httpx.get(url, params={"lang": "fr"}, timeout=TIMEOUT).text


def test_a_variant_without_a_label_reads_as_the_rules_describe_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from apokalypse.server.catalog import _game

    rules = get_game("apokerlypse")
    monkeypatch.setitem(rules.variants, "kv-new", "KV-NEW: a rule nobody translated yet")
    for lang in ("en", "de"):
        offered = _game("apokerlypse", lang)["variants"]
        assert offered[-1] == {"id": "kv-new", "label": "KV-NEW: a rule nobody translated yet"}


@pytest.mark.parametrize("size", [4097, 60_000])
def test_an_oversized_message_is_refused_and_changes_nothing(server: Server, size: int) -> None:
    created = create(server)
    game_id, token = created["id"], created["seats"][0]["token"]
    seen: list[dict[str, Any]] = []
    with connect(server.ws(game_id, token), open_timeout=TIMEOUT) as ws:
        state = decision(ws, seen, receive(ws, seen))
        move = state["observation"]["move"]
        padded = json.dumps({"action": "pass", "move": move, "pad": "x" * size})
        ws.send(padded)
        refused = receive(ws, seen)
        assert refused["type"] == "refused" and "4 KiB" in refused["reason"]
        ws.send(json.dumps({"action": state["legal"][0]["text"], "move": move}))
        assert answer(ws, seen, move)["observation"]["move"] > move, "still playing"


def test_a_flooding_connection_is_told_then_closed(server: Server) -> None:
    created = create(server)
    game_id, token = created["id"], created["seats"][0]["token"]
    seen: list[dict[str, Any]] = []
    with connect(server.ws(game_id, token), open_timeout=TIMEOUT) as ws:
        # My decision: the computer, if it starts, has played up to it (nothing moves then).
        state = decision(ws, seen, receive(ws, seen))
        stale = json.dumps({"action": "pass", "move": state["observation"]["move"] + 99})
        with pytest.raises(ConnectionClosed) as closed:
            # The server may close while the flood is still being sent: the refusals it sent
            # before are still waiting in the client's buffer, and are read below.
            with contextlib.suppress(ConnectionClosed):
                for _ in range(400):
                    ws.send(stale)
            while True:
                receive(ws, seen)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    reasons = [m["reason"] for m in seen if m["type"] == "refused"]
    assert sum("Too many messages" in r for r in reasons) == 1, "told once"
    assert 20 <= len(reasons) < 400, "refused while within the limit, then dropped"
    summary = httpx.get(f"{server.http}/api/games/{game_id}", timeout=TIMEOUT).json()
    assert summary["move"] == state["observation"]["move"], "nothing changed"


def test_a_game_nobody_watches_leaves_memory_and_comes_back(tmp_path: Path) -> None:
    """The server's memory holds the games people have open, not every game it served: the
    last connection gone, the game is dropped, and the next one rebuilds it from the store."""
    app = create_app(
        f"sqlite:///{tmp_path / 'db.sqlite3'}",
        settings=Settings(idle_seconds=60, computer_delay=0),
    )
    hub = app.state.hub
    clock = Clock()
    hub.clock = clock  # idle time passes when this test says so
    with TestClient(app) as client:
        portal = client.portal  # the app's event loop: the hub is asked there
        assert portal is not None
        body = {"game": "apokalypse", "players": 2, "seats": ["human", "random"]}
        created = client.post("/api/games", json=body).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
            while not (state := ws.receive_json())["legal"]:  # the computer may begin
                pass
            move = state["observation"]["move"]
            ws.send_json({"action": state["legal"][0]["text"], "move": move})
            # then the computer answers, until the person decides again: the game stands still
            while (state := ws.receive_json())["observation"]["move"] <= move or not state["legal"]:
                pass
            clock.advance(120)  # longer than idle_seconds: held while somebody is connected
            assert portal.call(hub.release_idle) == 0 and game_id in hub.rooms
        wait_until(lambda: portal.call(hub.connection_count) == 0, "the tab closed")
        clock.advance(59)  # a reload within idle_seconds finds it still here
        assert portal.call(hub.release_idle) == 0 and game_id in hub.rooms
        clock.advance(1)
        portal.call(hub.release_idle)  # (the hub's own look, every few seconds, may come first)
        assert game_id not in hub.rooms
        with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
            again = ws.receive_json()
            assert again["observation"] == state["observation"], "rebuilt exactly"
            assert game_id in hub.rooms


def test_difficulty_levels_are_seat_kinds(tmp_path: Path) -> None:
    """The lobby's seat kinds include the levels easy … expert and the master: the server seats
    them (guarded, so a failing one is replaced for a move) and shows each seat's kind."""
    from apokalypse.bots.guard import Guarded
    from apokalypse.server.making import computer_players

    levels = ["easy", "medium", "hard", "expert", "master"]
    players = computer_players(["human", *levels], 5, "apokalypse")
    assert sorted(players) == [1, 2, 3, 4, 5]
    assert all(isinstance(p, Guarded) for p in players.values())
    assert [players[q].name for q in range(1, 6)] == levels

    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with TestClient(app) as client:
        body = {"game": "apokalypse", "players": 3, "seats": ["human", "Easy", "medium"]}
        created = client.post("/api/games", json=body).json()
        assert [s["kind"] for s in created["seats"]] == ["human", "easy", "medium"]
        token = created["seats"][0]["token"]
        with client.websocket_connect(f"/ws/games/{created['id']}?token={token}") as ws:
            state = ws.receive_json()
            assert [s["kind"] for s in state["seats"]] == ["human", "easy", "medium"]
        bad = client.post(
            "/api/games",
            json={"game": "apokalypse", "players": 2, "seats": ["human", "grandmaster"]},
        )
        assert bad.status_code == 400 and "unknown bot 'grandmaster'" in bad.text
