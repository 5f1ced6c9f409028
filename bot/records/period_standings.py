"""Leaderboard standings: per-player counts and OpenSkill ratings for one period.

A period is a calendar period in UTC (``month`` from the 1st at 00:00, ``week`` from Monday
00:00 of the ISO week) or all time; its *key* names one such period (``all``,
``month:2024-05-01T00:00:00+00:00``, ``week:...``). Standings are derived from the
append-only results rows: :class:`Tally` replays them, game after game, in
``(finished_at, session_id, user_id)`` order. The store keeps each period's tally as derived
rows (one per player) and moves them on by one game in the transaction that writes the game's
results, by resuming a tally from those rows; replaying from scratch gives the same numbers.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal, NamedTuple

from bot.records.ratings import RatingBook
from game.base import PlayerId

Period = Literal["all", "month", "week"]
PERIODS: tuple[Period, ...] = ("all", "month", "week")
ALL_TIME = "all"


def period_start(period: Period, now: datetime) -> datetime | None:
    """The first instant of ``period`` containing ``now`` (UTC); ``None`` for all time."""
    midnight = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "all":
        return None
    if period == "month":
        return midnight.replace(day=1)
    if period == "week":
        return midnight - timedelta(days=midnight.weekday())
    raise ValueError(f"unknown period {period!r}")


def period_end(period: Period, start: datetime) -> datetime:
    """The first instant after the period that begins at ``start``."""
    if period == "week":
        return start + timedelta(days=7)
    if period == "month":
        return (start + timedelta(days=32)).replace(day=1)
    raise ValueError(f"period {period!r} has no end")


def period_key(period: Period, when: datetime) -> str:
    """The key of the ``period`` that contains ``when``."""
    start = period_start(period, when)
    return ALL_TIME if start is None else f"{period}:{start.isoformat()}"


def parse_period_key(key: str) -> tuple[Period, datetime | None]:
    if key == ALL_TIME:
        return "all", None
    period, start = key.split(":", 1)
    if period not in ("month", "week"):
        raise ValueError(f"not a period key: {key!r}")
    return period, datetime.fromisoformat(start)  # type: ignore[return-value]


class ReplayRow(NamedTuple):
    """The columns of one results row that a tally reads."""

    session_id: int
    finished_at: str
    user_id: PlayerId
    placement: int
    score: int
    is_bot_seat: int
    rated: int


@dataclass
class PlayerLine:
    """One human player's record in one period. Bot seats never get a line."""

    user_id: PlayerId
    games: int = 0
    wins: int = 0
    score_total: int = 0
    best: int | None = None
    rated_games: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average(self) -> float:
        return self.score_total / self.games if self.games else 0.0


class DerivedLine(NamedTuple):
    """A player's stored standing: the line, and the rating (``None`` before a rated game)."""

    line: PlayerLine
    mu: float | None
    sigma: float | None


class Tally:
    """Counts and ratings for a run of results rows, fed in replay order."""

    def __init__(self) -> None:
        self.book = RatingBook()
        self.lines: dict[PlayerId, PlayerLine] = {}
        self.last_key: tuple[str, int] = ("", 0)

    @classmethod
    def resumed(cls, derived: Iterable[DerivedLine]) -> Tally:
        """A tally that goes on from stored lines (only the players about to play matter)."""
        tally = cls()
        for line, mu, sigma in derived:
            tally.lines[line.user_id] = line
            if mu is not None and sigma is not None:
                tally.book.seed(line.user_id, mu, sigma)
        return tally

    def add(self, rows: Sequence[ReplayRow]) -> None:
        """Add whole games' rows, sorted by (finished_at, session_id, user_id)."""
        for (finished_at, session_id), group in itertools.groupby(
            rows, key=lambda row: (row.finished_at, row.session_id)
        ):
            game = list(group)
            humans = [row for row in game if not row.is_bot_seat]
            for row in humans:
                line = self.lines.get(row.user_id) or self.lines.setdefault(
                    row.user_id, PlayerLine(row.user_id)
                )
                line.games += 1
                line.wins += row.placement == 1
                line.score_total += row.score
                line.best = row.score if line.best is None else max(line.best, row.score)
                line.rated_games += bool(row.rated)
            if game[0].rated and len(humans) == len(game):
                self.book.record([(row.user_id, row.placement) for row in humans])
            self.last_key = (finished_at, session_id)

    def derived(self, users: Iterable[PlayerId] | None = None) -> list[DerivedLine]:
        """The lines of ``users`` (all players when None), as the store keeps them."""
        out = []
        for user in self.lines if users is None else users:
            line = self.lines.get(user)
            if line is None:
                continue
            rating = self.book.get(user)
            out.append(DerivedLine(line, rating.mu if rating else None,
                                   rating.sigma if rating else None))
        return out
