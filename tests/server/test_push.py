"""Web Push (``server/pushes.py``) against a push service of the test's own (``push_service.py``),
which checks each push's VAPID signature and decrypts it with the subscription's keys: a seat is
pushed when it is awaited with its tab closed and when its turn-based deadline is near, each
push saying only that, to that seat alone; an open tab is not pushed; a subscription the push
service calls gone (410) is dropped; the API refuses what it must, by name."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from apokalypse.server.push_store import subscriptions
from apokalypse.server.pushes import DEADLINE_NEAR, SWEEP_SECONDS
from apokalypse.server.settings import Settings
from tests.helpers import create

from .inprocess import AheadClock, Running, serving
from .people import Person
from .push_service import PushService, push_service
from .served import Server

WAIT = 120.0  # seconds a push may take to arrive (a whole game of computers, on a busy machine)
TOLD = {"kind", "game", "seat", "title", "body"}  # every key a push holds
# A push service's address (no game of the API's test changes, so nothing is ever sent there)
FCM = "https://fcm.googleapis.com/fcm/send"


def api(server: Running | Server, path: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.http}/api/push/{path}", json=body, timeout=10)


def pushed(service: PushService, name: str, count: int) -> list[dict[str, Any]]:
    """What ``name`` was told, once it was told ``count`` things (within WAIT seconds)."""
    deadline = time.monotonic() + WAIT
    while len(told := service.told(name)) < count:
        assert time.monotonic() < deadline, f"{name} was told {told}, not {count} pushes"
        time.sleep(0.1)
    return told


def past(move: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is the state past ``move``."""
    return lambda message: bool(
        message["type"] == "state" and message["observation"]["move"] > move
    )


def play_my_turn(running: Running, game_id: str, token: str) -> None:
    """Open the seat, decide until it is somebody else's turn, and close it again."""
    person = Person(running, game_id, token)
    try:
        state = person.state()
        while state["legal"]:
            move = state["observation"]["move"]
            # a card played, not a pass: passing round after round would end the game
            texts = [legal["text"] for legal in state["legal"]]
            action = next((text for text in texts if text != "pass"), texts[0])
            person.send(type="action", action=action, move=move)
            state = person.until(past(move), "my answer")
    finally:
        person.close()


def test_a_seat_is_pushed_its_turn_and_its_deadline_and_nothing_else(url: str) -> None:
    with push_service() as service:
        settings = replace(Settings(), push_services=(service.origin,), push_grace=0.0)
        with serving(url, settings) as running:
            clock = AheadClock()
            running.call(lambda: setattr(running.hub, "now", clock))
            body = {"players": 2, "seats": ["human", "human"], "turn_based": {"hours": 24}}
            created = create(running, **body)
            game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
            names = ("ann", "bob")
            for seat, name in enumerate(names):
                subscription = service.subscriber(name).subscription(service.origin)
                answer = api(
                    running, "subscribe", id=game_id, token=tokens[seat], subscription=subscription
                )
                assert answer.json() == {"devices": 1}, answer.text
            probe = Person(running, game_id, tokens[0])
            mover = 0 if probe.state()["legal"] else 1
            probe.close()
            other = 1 - mover

            play_my_turn(running, game_id, tokens[mover])  # with the tab open: never pushed
            (turn,) = pushed(service, names[other], 1)
            assert set(turn) == TOLD and (turn["kind"], turn["game"], turn["seat"]) == (
                "turn",
                game_id,
                other,
            )
            assert "your turn" in turn["body"]

            clock.ahead = timedelta(hours=24) - DEADLINE_NEAR + timedelta(minutes=1)
            deadline = pushed(service, names[other], 2)[1]
            assert (deadline["kind"], deadline["seat"]) == ("deadline", other)
            assert "2 hours left" in deadline["body"]
            time.sleep(2 * SWEEP_SECONDS)  # whatever else was due went out meanwhile
            assert service.told(names[mover]) == []  # the one who moved was told nothing
            assert len(service.told(names[other])) == 2

            service.gone.add(names[mover])  # that browser unsubscribed at its push service
            play_my_turn(running, game_id, tokens[other])
            engine = running.hub.store.engine
            deadline_at = time.monotonic() + WAIT
            while subscriptions(engine, game_id, mover):  # 410: dropped
                assert time.monotonic() < deadline_at, "the gone subscription was kept"
                time.sleep(0.2)
            assert subscriptions(engine, game_id, other)  # the other's is kept
            check = {"id": game_id, "token": tokens[mover]}
            assert api(running, "devices", **check).json() == {"devices": 0}
            assert service.refused == []  # every push was signed and encrypted as it must be


def test_the_api_refuses_by_name_and_bounds_the_devices(server: Server) -> None:
    created = create(server, players=2, seats=["human", "human"])
    game_id, token = created["id"], created["seats"][0]["token"]
    key = httpx.get(f"{server.http}/api/push/key", timeout=10).json()["key"]
    assert len(key) == 87  # a P-256 point, base64url: what PushManager.subscribe takes
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
    elsewhere = {"endpoint": "https://push.example.org/x", "keys": keys}
    refused = api(server, "subscribe", id=game_id, token=token, subscription=elsewhere)
    assert refused.status_code == 422 and refused.json()["detail"].startswith(
        "subscription.endpoint"
    )
    fcm = {"endpoint": f"{FCM}/one", "keys": keys}
    wrong = api(server, "subscribe", id=game_id, token="not-a-token", subscription=fcm)
    assert wrong.status_code == 404
    for device in range(1, 6):
        mine = {**fcm, "endpoint": f"{FCM}/{device}"}
        answer = api(server, "subscribe", id=game_id, token=token, subscription=mine)
        assert answer.json() == {"devices": device}
    sixth = api(server, "subscribe", id=game_id, token=token, subscription=fcm)
    assert sixth.status_code == 409
    stop = api(server, "unsubscribe", id=game_id, token=token, endpoint=f"{FCM}/1")
    assert stop.json() == {"devices": 4}
    everything = api(server, "unsubscribe", id=game_id, token=token)
    assert everything.json() == {"devices": 0}


def test_the_end_is_pushed_to_every_seat_and_then_its_subscriptions_go(tmp_path: Path) -> None:
    with push_service() as service:
        settings = replace(Settings(), push_services=(service.origin,), push_grace=0.0)
        with serving(f"sqlite:///{tmp_path / 'games.sqlite3'}", settings) as running:
            created = create(running, players=2, seats=["human", "human"])
            game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
            names = ("ann", "bob")
            for seat, name in enumerate(names):
                subscription = service.subscriber(name).subscription(service.origin)
                seat_of = {"id": game_id, "token": tokens[seat]}
                api(running, "subscribe", **seat_of, subscription=subscription)
            for token in tokens:  # both leave: computer players play the game to its end
                person = Person(running, game_id, token)
                person.state()
                person.send(type="leave")
                person.until(lambda m: m["type"] == "state", "the seat left")
                person.close()
            for seat, name in enumerate(names):
                message = pushed(service, name, 1)[-1]
                assert (message["kind"], message["seat"], message["game"]) == (
                    "over",
                    seat,
                    game_id,
                )
                assert "is over" in message["body"]
            engine = running.hub.store.engine
            deadline = time.monotonic() + WAIT
            while subscriptions(engine, game_id, 0) or subscriptions(engine, game_id, 1):
                assert time.monotonic() < deadline, "the subscriptions outlived the game"
                time.sleep(0.2)
            # while the computers played, nobody was pushed a turn (a seat left is nobody's)
            assert [m["kind"] for name in names for m in service.told(name)] == ["over", "over"]
