"""Snowflakes, timestamps and tokens shaped like Discord's."""

from __future__ import annotations

import base64
import itertools
import secrets
import time
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeFactory:
    """Strictly increasing snowflakes whose timestamp part is the current time."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        value = max(stamp | (next(self._counter) & 0xFFF), self._last + 1)
        self._last = value
        return value


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


def interaction_token() -> str:
    return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)


def bot_token(bot_id: int) -> str:
    """A token of the real shape: base64(user id) . timestamp part . HMAC part."""
    head = base64.urlsafe_b64encode(str(bot_id).encode()).decode().rstrip("=")
    return f"{head}.{secrets.token_urlsafe(4)}.{secrets.token_urlsafe(27)}"
