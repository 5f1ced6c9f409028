"""A player's daily deal of one day, as the store keeps it (table ``daily_plays``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from game.base import PlayerId


@dataclass(frozen=True)
class DailyPlay:
    """One row: claimed before the deal (``session_id`` set once dealt), ``score`` once the
    game ended on its day, ``shared_at`` once its summary went to a channel. ``guild_id`` and
    ``channel_id``: where it was played (its server's board, the Share post)."""

    game: str
    day: date
    user_id: PlayerId
    guild_id: int
    channel_id: int
    session_id: int | None
    claimed_at: datetime
    score: int | None = None
    finished_at: datetime | None = None
    shared_at: datetime | None = None

    @property
    def finished(self) -> bool:
        return self.score is not None
