"""Server leaderboards, player records and channel history, read from the store.

A leaderboard (one guild, one game, one period) is read from the stored standings: one derived
row per player, moved on in the transaction that writes each game's results
(``bot.records.period_standings``, ``bot.store.standings_rows``). So a cold board is one indexed
read of the period's players, on any process sharing the database, and always equals a replay of the
period's results from scratch.

Periods are calendar periods in UTC: ``month`` starts on the 1st at 00:00, ``week`` on
Monday 00:00 of the ISO week.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from bot.rankings.seasons import Season
from bot.records.period_standings import (
    PERIODS,
    DerivedLine,
    Period,
    PlayerLine,
    ReplayRow,
    Tally,
    period_key,
    period_start,
)
from bot.records.ratings import Rating, stored_rating
from bot.records.session import Status, utcnow
from bot.store import Store
from game.base import PlayerId

__all__ = [
    "DEFAULT_MIN_GAMES",
    "PERIODS",
    "Board",
    "FinishedGame",
    "HistoryLine",
    "Leaderboards",
    "PastGame",
    "Period",
    "PlayerLine",
    "Standing",
    "Tally",
    "build_board",
    "period_start",
]

DEFAULT_MIN_GAMES = 3


@dataclass(frozen=True)
class Standing:
    """A line on a leaderboard; ``rank`` is None for players below the minimum rated games."""

    rank: int | None
    line: PlayerLine
    rating: Rating | None


@dataclass(frozen=True)
class Board:
    guild_id: int
    game: str
    period: Period
    since: datetime | None
    min_games: int
    standings: tuple[Standing, ...]  # ranked first (by ordinal), then the unranked
    season: Season | None = None  # a past season's final board (period "all" then)

    @property
    def ranked_count(self) -> int:
        return sum(1 for standing in self.standings if standing.rank is not None)

    def page_count(self, size: int) -> int:
        return max(1, -(-len(self.standings) // size))

    def page(self, number: int, size: int) -> tuple[int, tuple[Standing, ...]]:
        """Page ``number`` (0-based, clamped) and its standings."""
        number = max(0, min(number, self.page_count(size) - 1))
        return number, self.standings[number * size:(number + 1) * size]

    def find(self, user_id: PlayerId) -> Standing | None:
        return next((s for s in self.standings if s.line.user_id == user_id), None)


def build_board(
    derived: Iterable[DerivedLine], guild_id: int, game: str, period: Period,
    since: datetime | None, min_games: int, season: Season | None = None,
) -> Board:
    """Rank by ordinal (equal ordinals share a rank), then list the unranked players."""
    derived = list(derived)
    lines = [replace(line) for line, _, _ in derived]
    ratings = {line.user_id: stored_rating(mu, sigma) for line, mu, sigma in derived
               if mu is not None and sigma is not None}
    ranked = [line for line in lines if line.rated_games >= min_games]
    ranked.sort(key=lambda line: (-ratings[line.user_id].ordinal, -line.rated_games,
                                  line.user_id))
    standings: list[Standing] = []
    previous: float | None = None
    rank = 0
    for index, line in enumerate(ranked, start=1):
        ordinal = round(ratings[line.user_id].ordinal, 9)
        if ordinal != previous:
            rank, previous = index, ordinal
        standings.append(Standing(rank, line, ratings[line.user_id]))
    unranked = [line for line in lines if line.rated_games < min_games]
    unranked.sort(key=lambda line: (-line.rated_games, -line.games, line.user_id))
    standings += [Standing(None, line, ratings.get(line.user_id)) for line in unranked]
    return Board(guild_id, game, period, since, min_games, tuple(standings), season)


@dataclass(frozen=True)
class PastGame:
    """One of a player's finished games."""

    session_id: int
    game: str
    finished_at: datetime
    placement: int
    players: int
    score: int


@dataclass(frozen=True)
class HistoryLine:
    user_id: PlayerId
    name: str
    placement: int
    score: int
    is_bot: bool
    left: bool


@dataclass(frozen=True)
class FinishedGame:
    session_id: int
    game: str
    finished_at: datetime
    rated: bool
    lines: tuple[HistoryLine, ...] = field(default_factory=tuple)


class Leaderboards:
    """Leaderboard, player-record and history queries."""

    def __init__(
        self,
        store: Store,
        *,
        min_games: int = DEFAULT_MIN_GAMES,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.store = store
        self.min_games = min_games
        self.clock = clock
        self._answered: set[tuple[int, str, str]] = set()

    def is_cached(self, guild_id: int, game: str, period: Period = "all") -> bool:
        """True once this instance has answered that board in the current period. A board is
        one indexed read of the stored standings (milliseconds, see ``bench.leaderboard``), so
        a caller that defers its first answer on False only spends one round trip."""
        return (guild_id, game, period_key(period, self.clock())) in self._answered

    async def board(
        self, guild_id: int, game: str, period: Period = "all", *, min_games: int | None = None
    ) -> Board:
        """``min_games``: rated games before a player is ranked (None: this instance's)."""
        now = self.clock()
        key = period_key(period, now)
        derived = await self.store.standings(guild_id, game, key)
        self._answered.add((guild_id, game, key))
        return build_board(derived, guild_id, game, period, period_start(period, now),
                           self.min_games if min_games is None else min_games)

    async def season_board(
        self, guild_id: int, game: str, season: Season, *, min_games: int | None = None
    ) -> Board:
        """The final board of ``season``: a replay of its results (a past season's never
        changes; a season under way shows its standings so far)."""
        rows = await self.store.query(
            "SELECT session_id, finished_at, user_id, placement, score, is_bot_seat, rated"
            " FROM results WHERE guild_id = ? AND game = ? AND finished_at >= ?"
            " AND finished_at < ? ORDER BY finished_at, session_id, user_id",
            [guild_id, game, season.start.isoformat(), season.end.isoformat()],
        )
        tally = Tally()
        tally.add([ReplayRow(*row) for row in rows])
        return build_board(tally.derived(), guild_id, game, "all", season.start,
                           self.min_games if min_games is None else min_games, season)

    async def first_game_at(self, guild_id: int) -> datetime | None:
        """When the server's first game finished (None before any)."""
        rows = await self.store.query(
            "SELECT min(finished_at) FROM results WHERE guild_id = ?", [guild_id]
        )
        return datetime.fromisoformat(rows[0][0]) if rows and rows[0][0] else None

    async def season_titles(self, guild_id: int, user_id: PlayerId) -> list[tuple[str, str]]:
        """(season name, game) of every season the player won in the server."""
        return await self.store.season_titles(guild_id, user_id)

    async def recent_games(
        self, guild_id: int, games: Sequence[str], user_id: PlayerId, limit: int = 5
    ) -> list[PastGame]:
        """A player's last finished games (newest first) among ``games``."""
        if not games:
            return []
        marks = ", ".join("?" for _ in games)
        rows = await self.store.query(
            "SELECT r.session_id, r.game, r.finished_at, r.placement,"
            " (SELECT count(*) FROM results AS o WHERE o.session_id = r.session_id), r.score"
            f" FROM results AS r WHERE r.guild_id = ? AND r.game IN ({marks}) AND r.user_id = ?"
            " ORDER BY r.finished_at DESC, r.session_id DESC LIMIT ?",
            [guild_id, *games, user_id, limit],
        )
        return [
            PastGame(row[0], row[1], datetime.fromisoformat(row[2]), row[3], row[4], row[5])
            for row in rows
        ]

    async def channel_history(self, channel_id: int, limit: int = 10) -> list[FinishedGame]:
        """The channel's last finished games, newest first, with everyone's placement."""
        sessions = await self.store.query(
            "SELECT id, game, seats FROM sessions WHERE channel_id = ? AND status = ?"
            " AND kind = 'table' ORDER BY id DESC LIMIT ?",
            [channel_id, Status.FINISHED.value, limit],
        )
        if not sessions:
            return []
        marks = ", ".join("?" for _ in sessions)
        rows = await self.store.query(
            "SELECT session_id, user_id, placement, score, is_bot_seat, rated, finished_at"
            f" FROM results WHERE session_id IN ({marks}) ORDER BY placement, user_id",
            [row[0] for row in sessions],
        )
        by_session: dict[int, list[tuple[Any, ...]]] = {}
        for row in rows:
            by_session.setdefault(row[0], []).append(row)
        games = []
        for session_id, game, seats_json in sessions:
            results = by_session.get(session_id, [])
            if not results:
                continue
            seats = {seat["player_id"]: seat for seat in json.loads(seats_json)}
            games.append(FinishedGame(
                session_id=session_id,
                game=game,
                finished_at=datetime.fromisoformat(results[0][6]),
                rated=bool(results[0][5]),
                lines=tuple(_history_line(row, seats.get(row[1], {})) for row in results),
            ))
        return games


def _history_line(row: Sequence[Any], seat: dict[str, Any]) -> HistoryLine:
    return HistoryLine(
        user_id=row[1],
        name=str(seat.get("display_name", row[1])),
        placement=row[2],
        score=row[3],
        is_bot=bool(row[4]),
        left=bool(seat.get("left", False)),
    )
