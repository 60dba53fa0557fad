"""A seat's secret key: the token of its invite link, kept in the store only as its SHA-256."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

TOKEN_BYTES = 24  # 32 URL-safe characters: the key of a seat's secret invite link


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_in(meta: Mapping[str, object], token: str) -> int | None:
    """The person's seat whose key ``token`` is, by the game's stored meta (its keys' SHA-256);
    None for any other."""
    digest = hash_token(token)
    stored = meta.get("token_sha256", [])
    for seat, known in enumerate(stored if isinstance(stored, list) else []):
        if isinstance(known, str) and hmac.compare_digest(known, digest):
            return seat
    return None
