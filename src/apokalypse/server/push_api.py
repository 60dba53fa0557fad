"""Web Push's HTTP side: the key a browser subscribes with, and a seat's subscriptions.

- ``GET /api/push/key`` → ``{key}``: the server's VAPID public key (base64url), the
  ``applicationServerKey`` of ``PushManager.subscribe``.
- ``POST /api/push/subscribe`` ``{id, token, subscription: {endpoint, keys: {p256dh, auth}}}``
  → ``{devices}``: keep this browser's subscription for the seat the token opens (at most
  :data:`.push_store.MOST_DEVICES` a seat; the endpoint must be at a push service the server
  allows, :attr:`.settings.Settings.push_services`, which is all it ever sends requests to).
- ``POST /api/push/unsubscribe`` ``{id, token, endpoint?}`` → ``{devices}``: drop this browser's
  subscription (without ``endpoint``: every one of the seat's).
- ``POST /api/push/devices`` ``{id, token}`` → ``{devices}``: how many the seat has.

Each is rate-limited per client address; a token that opens no seat of the game is refused
with the same words as a game that does not exist, so neither tells the other apart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from .awaited import SeatKey
from .limits import Allowance, client_host
from .push_store import TooMany, subscribe, unsubscribe
from .pushes import Pushes
from .setup import Setup
from .store import Store, StoreError

PER_MINUTE, BURST = 20.0, 10  # push requests per client address
NO_SEAT = "this link opens no seat of a game here"
BASE64URL = r"^[A-Za-z0-9_-]+={0,2}$"


class Keys(BaseModel):
    model_config = ConfigDict(extra="ignore")
    p256dh: str = Field(min_length=80, max_length=128, pattern=BASE64URL)  # a P-256 point
    auth: str = Field(min_length=16, max_length=64, pattern=BASE64URL)  # 16 random bytes


class PushSubscription(BaseModel):
    """What ``PushSubscription.toJSON()`` gives (``expirationTime`` and the like ignored)."""

    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(min_length=12, max_length=2048)
    keys: Keys


class Subscribing(SeatKey):
    subscription: PushSubscription


class Unsubscribing(SeatKey):
    endpoint: Annotated[str | None, Field(max_length=2048)] = None


class Devices(BaseModel):
    devices: int


def allowed(endpoint: str, services: tuple[str, ...]) -> bool:
    """Whether ``endpoint`` is at one of ``services`` (origins; ``*.`` any name under one)."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    if parts.username or parts.password or not parts.hostname:
        return False
    for service in services:
        wanted = urlsplit(service)
        if parts.scheme != wanted.scheme or port != wanted.port:
            continue
        host = (wanted.hostname or "").lower()
        if parts.hostname == host or (host.startswith("*.") and parts.hostname.endswith(host[1:])):
            return True
    return False


def seat_of(store: Store, game_id: str, token: str) -> int:
    """The seat ``token`` opens in the game (blocking); :class:`LookupError` for none."""
    try:
        record = store.load(game_id)
    except StoreError:
        raise LookupError(game_id) from None
    seat = Setup.of(record.meta).seat_of(token)
    if seat is None or record.result is not None:
        raise LookupError(game_id)
    return seat


def add_push(
    app: FastAPI,
    store: Store,
    pushes: Pushes,
    application_key: str,
    services: tuple[str, ...],
    now: Callable[[], datetime],
) -> None:
    """The routes of the module's docstring."""
    askers = Allowance(PER_MINUTE, BURST)

    async def seat(body: SeatKey, request: Request) -> int:
        wait = askers.take(client_host(request))
        if wait > 0:
            seconds = max(1, round(wait))
            detail = f"too many requests: try again in {seconds} s"
            raise HTTPException(429, detail, headers={"Retry-After": str(seconds)})
        try:
            return await asyncio.to_thread(seat_of, store, body.id, body.token)
        except LookupError:
            raise HTTPException(404, NO_SEAT) from None

    @app.get("/api/push/key")
    async def push_key() -> dict[str, str]:
        return {"key": application_key}

    @app.post("/api/push/subscribe")
    async def push_subscribe(body: Subscribing, request: Request) -> Devices:
        endpoint = body.subscription.endpoint
        if not allowed(endpoint, services):
            raise HTTPException(
                422, "subscription.endpoint: not at a push service this server uses"
            )
        number = await seat(body, request)
        keys = body.subscription.keys
        try:
            devices = await asyncio.to_thread(
                subscribe, store.engine, body.id, number, endpoint, keys.p256dh, keys.auth, now()
            )
        except TooMany:
            raise HTTPException(
                409, "this seat is pushed to as many devices as it may be"
            ) from None
        pushes.learned(body.id, (pushes.seats(body.id) or frozenset()) | {number})
        return Devices(devices=devices)

    @app.post("/api/push/unsubscribe")
    async def push_unsubscribe(body: Unsubscribing, request: Request) -> Devices:
        number = await seat(body, request)
        left = await asyncio.to_thread(unsubscribe, store.engine, body.id, number, body.endpoint)
        if left == 0:
            pushes.learned(body.id, (pushes.seats(body.id) or frozenset()) - {number})
        return Devices(devices=left)

    @app.post("/api/push/devices")
    async def push_devices(body: SeatKey, request: Request) -> Devices:
        number = await seat(body, request)
        listed = await asyncio.to_thread(pushes.devices, body.id, number)
        return Devices(devices=listed)
