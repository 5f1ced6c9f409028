"""Seasons: calendar months or quarters in UTC, named ``2026-11`` or ``2026-Q4`` (pure).

A server's season setting (``/config season:``) is ``month`` (the default), ``quarter`` or
``off``. A season's board is the replay of its results (``finished_at`` from its first instant
up to, not including, the next season's), ranked like any leaderboard; results are append-only
and a season is over, so a past season's board never changes.

The keys of the server settings that seasons read live here, since the season watcher
(``bot.automation.season_watcher``) reads them and ``bot`` imports nothing of ``cogs``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

SeasonKind = Literal["month", "quarter"]
SEASON_KINDS: tuple[SeasonKind, ...] = ("month", "quarter")
SEASON_OFF = "off"
DEFAULT_SEASON_KIND: SeasonKind = "month"

# guild_settings keys (cogs.kit.server_settings reads them too).
SEASON_KEY = "season"
SEASON_CHANNEL_KEY = "season_channel"
CHAMPION_ROLE_KEY = "champion_role"
MIN_GAMES_KEY = "leaderboard_min_games"

_NAME = re.compile(r"([0-9]{4})-(?:([0-9]{2})|Q([1-4]))")
FIRST_YEAR = 2015  # Discord's first year: no season before it


@dataclass(frozen=True, order=True)
class Season:
    """One season: ``start`` (inclusive) to ``end`` (exclusive), both UTC midnights."""

    start: datetime
    end: datetime
    kind: SeasonKind

    @property
    def name(self) -> str:
        if self.kind == "month":
            return f"{self.start.year:04d}-{self.start.month:02d}"
        return f"{self.start.year:04d}-Q{(self.start.month - 1) // 3 + 1}"

    def __str__(self) -> str:
        return self.name

    def previous(self) -> Season:
        return season_of(self.kind, _month_before(self.start))

    def next(self) -> Season:
        return season_of(self.kind, self.end)


def _month_start(year: int, month: int) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


def _month_before(moment: datetime) -> datetime:
    if moment.month == 1:
        return _month_start(moment.year - 1, 12)
    return _month_start(moment.year, moment.month - 1)


def _months_later(start: datetime, months: int) -> datetime:
    index = start.year * 12 + start.month - 1 + months
    return _month_start(index // 12, index % 12 + 1)


def season_of(kind: SeasonKind, when: datetime) -> Season:
    """The season of ``kind`` that contains ``when``."""
    when = when.astimezone(UTC)
    if kind == "month":
        start = _month_start(when.year, when.month)
        return Season(start, _months_later(start, 1), kind)
    if kind == "quarter":
        start = _month_start(when.year, (when.month - 1) // 3 * 3 + 1)
        return Season(start, _months_later(start, 3), kind)
    raise ValueError(f"unknown season kind {kind!r}")


def last_ended(kind: SeasonKind, now: datetime) -> Season:
    """The latest season of ``kind`` that is over at ``now``."""
    return season_of(kind, now).previous()


def parse_season(name: str) -> Season | None:
    """``2026-11`` or ``2026-Q4`` (surrounding spaces ignored) as a season; None otherwise."""
    match = _NAME.fullmatch(name.strip().upper())
    if match is None:
        return None
    year = int(match.group(1))
    if year < FIRST_YEAR:
        return None
    if match.group(2) is not None:
        month = int(match.group(2))
        if not 1 <= month <= 12:
            return None
        return season_of("month", _month_start(year, month))
    quarter = int(match.group(3))
    return season_of("quarter", _month_start(year, (quarter - 1) * 3 + 1))


def season_kind(value: str | None) -> SeasonKind | None:
    """A stored season setting: the kind, or None when seasons are off. Absent or unreadable:
    the default."""
    if value == SEASON_OFF:
        return None
    if value in SEASON_KINDS:
        return value
    return DEFAULT_SEASON_KIND


def ended_seasons(kind: SeasonKind, since: datetime, now: datetime) -> list[Season]:
    """The seasons of ``kind`` from the one containing ``since`` to the last one over at
    ``now``, newest first."""
    seasons: list[Season] = []
    season = last_ended(kind, now)
    first = season_of(kind, since)
    while season >= first:
        seasons.append(season)
        season = season.previous()
    return seasons
