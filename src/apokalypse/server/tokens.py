"""A seat's secret key: the token of its invite link, kept in the store only as its SHA-256."""

from __future__ import annotations

import hashlib

TOKEN_BYTES = 24  # 32 URL-safe characters: the key of a seat's secret invite link


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
