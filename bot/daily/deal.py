"""The daily deal's day and seed.

The seed of a day's deal is ``HMAC-SHA256(key, "{game}:{YYYY-MM-DD}")`` (its first 63 bits):
the same on every process that holds the key, different for every game and day, and not
derivable without the key, so nobody can compute tomorrow's deal (or today's before it
starts). The key is ``DAILY_SECRET`` when set, else one generated once and kept in the
database (``bot.daily.service``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import UTC, date, datetime, time, timedelta

SEED_BITS = 63  # a seed is stored as SQLite INTEGER / PostgreSQL BIGINT
KEY_BYTES = 32


def new_key() -> str:
    """A fresh secret key, as stored (hex)."""
    return secrets.token_hex(KEY_BYTES)


def deal_day(now: datetime) -> date:
    """The UTC day whose deal is played at ``now``."""
    return now.astimezone(UTC).date()


def next_deal_at(now: datetime) -> datetime:
    """When the next day's deal starts: the coming UTC midnight."""
    return datetime.combine(deal_day(now) + timedelta(days=1), time(), tzinfo=UTC)


def day_ends_at(day: date) -> datetime:
    """When ``day``'s deal ends (the next UTC midnight): its replays open then."""
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC)


def daily_seed(key: str | bytes, game: str, day: date) -> int:
    """The seed of ``game``'s deal on ``day`` under ``key``."""
    raw = key.encode() if isinstance(key, str) else key
    digest = hmac.new(raw, f"{game}:{day.isoformat()}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)
