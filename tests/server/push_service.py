"""A push service of the tests' own, on loopback, standing in for a browser vendor's as the
standards define one: it takes ``POST /push/<name>`` (RFC 8030), checks the VAPID signature
(RFC 8292: an ES256 JWT for this origin, not expired, with a contact, signed by the key it names),
decrypts the body with the subscription's own keys (RFC 8291, aes128gcm) and keeps what each
subscription was told. A subscription can be made gone (410), as a browser's unsubscribing does.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Subscriber:
    """A browser's side of one subscription: its key pair and auth secret (RFC 8291)."""

    name: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, origin: str) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        keys = {"p256dh": b64url(point), "auth": b64url(self.secret)}
        return {"endpoint": f"{origin}/push/{self.name}", "keys": keys}


@dataclass
class Received:
    name: str  # the subscription it was for
    message: dict[str, Any]  # the decrypted payload
    ttl: int


def verified_vapid(header: str, origin: str) -> None:
    """Raise unless ``header`` is a valid ``vapid t=…,k=…`` for ``origin`` (RFC 8292)."""
    scheme, _, rest = header.partition(" ")
    assert scheme == "vapid", header
    parts = dict(part.strip().split("=", 1) for part in rest.split(","))
    token, key = parts["t"], unb64url(parts["k"])
    head, body, signature = token.split(".")
    assert json.loads(unb64url(head)) == {"typ": "JWT", "alg": "ES256"}
    claims = json.loads(unb64url(body))
    assert claims["aud"] == origin, claims
    assert claims["exp"] > time.time() and claims["exp"] <= time.time() + 24 * 3600, claims
    assert str(claims["sub"]).startswith(("mailto:", "https:")), claims
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
    public.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))


class PushService:
    def __init__(self) -> None:
        self.subscribers: dict[str, Subscriber] = {}
        self.received: list[Received] = []
        self.refused: list[str] = []  # why a push was not taken
        self.gone: set[str] = set()
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def subscriber(self, name: str) -> Subscriber:
        made = self.subscribers[name] = Subscriber(name)
        return made

    def told(self, name: str) -> list[dict[str, Any]]:
        with self.lock:
            return [got.message for got in self.received if got.name == name]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                name = self.path.removeprefix("/push/")
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                subscriber = service.subscribers.get(name)
                if subscriber is None or name in service.gone:
                    self.send_response(410)
                    self.end_headers()
                    return
                try:
                    verified_vapid(self.headers.get("Authorization", ""), service.origin)
                    assert self.headers.get("Content-Encoding") == "aes128gcm"
                    plain = http_ece.decrypt(
                        body,
                        private_key=subscriber.key,
                        auth_secret=subscriber.secret,
                        version="aes128gcm",
                    )
                    message = json.loads(plain)
                    ttl = int(self.headers.get("TTL", "-1"))
                except Exception as exc:  # a push the service would not take
                    with service.lock:
                        service.refused.append(f"{type(exc).__name__}: {exc}")
                    self.send_response(400)
                    self.end_headers()
                    return
                with service.lock:
                    service.received.append(Received(name, message, ttl))
                self.send_response(201)
                self.end_headers()

            def log_message(self, *args: object) -> None:  # quiet
                pass

        return Handler


@contextmanager
def push_service() -> Iterator[PushService]:
    service = PushService()
    thread = threading.Thread(target=service.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        service.server.shutdown()
        service.server.server_close()
