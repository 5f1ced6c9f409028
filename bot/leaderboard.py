"""Server leaderboards, player records and channel history, read from the results rows.

A leaderboard (one guild, one game, one period) is a :class:`Tally`: per-player counts plus
the ratings replayed from that period's rated games. Tallies are cached in memory with the
highest results rowid they account for. Results are append-only, so a later request only
reads the rows after that rowid and adds them on top; if one of them would sort before a game
already replayed (a clock step backwards), the tally is rebuilt instead, so the cached answer
always equals a full recompute.

Periods are calendar periods in UTC: ``month`` starts on the 1st at 00:00, ``week`` on
Monday 00:00 of the ISO week.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, NamedTuple

from bot.models import Status, utcnow
from bot.ratings import Rating, RatingBook
from bot.store import Store
from game.base import PlayerId

Period = Literal["all", "month", "week"]
PERIODS: tuple[Period, ...] = ("all", "month", "week")
DEFAULT_MIN_GAMES = 3

_ROW_COLUMNS = "rowid, session_id, finished_at, user_id, placement, score, is_bot_seat, rated"
_ORDER = " ORDER BY finished_at, session_id, user_id"


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


class _Row(NamedTuple):
    rowid: int
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


class Tally:
    """Counts and ratings for a run of results rows, fed in replay order."""

    def __init__(self) -> None:
        self.book = RatingBook()
        self.lines: dict[PlayerId, PlayerLine] = {}
        self.last_rowid = 0
        self.last_key: tuple[str, int] = ("", 0)

    def add(self, rows: Sequence[_Row]) -> None:
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
        if rows:
            self.last_rowid = max(self.last_rowid, max(row.rowid for row in rows))


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
    tally: Tally, guild_id: int, game: str, period: Period, since: datetime | None,
    min_games: int,
) -> Board:
    """Rank by ordinal (equal ordinals share a rank), then list the unranked players."""
    ratings = tally.book.all()
    ranked = [line for line in tally.lines.values() if line.rated_games >= min_games]
    ranked.sort(key=lambda line: (-ratings[line.user_id].ordinal, -line.rated_games,
                                  line.user_id))
    standings: list[Standing] = []
    previous: float | None = None
    rank = 0
    for index, line in enumerate(ranked, start=1):
        ordinal = round(ratings[line.user_id].ordinal, 9)
        if ordinal != previous:
            rank, previous = index, ordinal
        standings.append(Standing(rank, replace(line), ratings[line.user_id]))
    unranked = [line for line in tally.lines.values() if line.rated_games < min_games]
    unranked.sort(key=lambda line: (-line.rated_games, -line.games, line.user_id))
    standings += [Standing(None, replace(line), ratings.get(line.user_id)) for line in unranked]
    return Board(guild_id, game, period, since, min_games, tuple(standings))


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


CacheKey = tuple[int, str, str | None]


class Leaderboards:
    """Leaderboard, player-record and history queries, with the per-period tally cache."""

    def __init__(
        self,
        store: Store,
        *,
        min_games: int = DEFAULT_MIN_GAMES,
        clock: Callable[[], datetime] = utcnow,
        cache_size: int = 64,
    ) -> None:
        self.store = store
        self.min_games = min_games
        self.clock = clock
        self._cache_size = cache_size
        self._cache: OrderedDict[CacheKey, Tally] = OrderedDict()
        # A key's lock lives while a caller holds or awaits it, then drops out by itself.
        self._locks: weakref.WeakValueDictionary[CacheKey, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def _key(self, guild_id: int, game: str, period: Period) -> tuple[CacheKey, datetime | None]:
        since = period_start(period, self.clock())
        return (guild_id, game, since.isoformat() if since else None), since

    def is_cached(self, guild_id: int, game: str, period: Period = "all") -> bool:
        """True when :meth:`board` only has to add new rows (fast); False when it replays
        the whole period first (about a second per 100,000 rows)."""
        return self._key(guild_id, game, period)[0] in self._cache

    async def board(self, guild_id: int, game: str, period: Period = "all") -> Board:
        key, since = self._key(guild_id, game, period)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        async with lock:
            tally = await self._refresh(key, since)
            # Built under the lock: the board copies the lines a later refresh will change.
            return build_board(tally, guild_id, game, period, since, self.min_games)

    async def _refresh(self, key: CacheKey, since: datetime | None) -> Tally:
        """The cached tally of ``key`` brought up to date (the caller holds its lock)."""
        guild_id, game, _ = key
        top = await self._top_rowid()
        tally = self._cache.get(key)
        if tally is not None and tally.last_rowid < top:
            newer = sorted(
                await self._rows_after(guild_id, game, since, tally.last_rowid),
                key=lambda row: (row.finished_at, row.session_id, row.user_id),
            )
            if newer and (newer[0].finished_at, newer[0].session_id) <= tally.last_key:
                tally = None  # a game finished "before" one already replayed: rebuild
            else:
                tally.add(newer)
        if tally is None:
            tally = Tally()
            rows = await self._rows(guild_id, game, since)
            # Replaying a big history takes a while; keep the event loop (heartbeats) free.
            await asyncio.to_thread(tally.add, rows)
        tally.last_rowid = max(tally.last_rowid, top)
        self._remember(key, tally)
        return tally

    def _remember(self, key: CacheKey, tally: Tally) -> None:
        self._cache[key] = tally
        self._cache.move_to_end(key)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def _top_rowid(self) -> int:
        rows = await self.store.query("SELECT coalesce(max(rowid), 0) FROM results")
        return int(rows[0][0])

    async def _rows(self, guild_id: int, game: str, since: datetime | None) -> list[_Row]:
        sql = f"SELECT {_ROW_COLUMNS} FROM results WHERE guild_id = ? AND game = ?"
        params: list[Any] = [guild_id, game]
        if since is not None:
            sql += " AND finished_at >= ?"
            params.append(since.isoformat())
        return [_Row(*row) for row in await self.store.query(sql + _ORDER, params)]

    async def _rows_after(
        self, guild_id: int, game: str, since: datetime | None, rowid: int
    ) -> list[_Row]:
        # The unary plus keeps SQLite on the rowid range (a few new rows) instead of the
        # (guild_id, game, ...) index, which would walk the whole period.
        sql = f"SELECT {_ROW_COLUMNS} FROM results WHERE rowid > ? AND +guild_id = ? AND +game = ?"
        params: list[Any] = [rowid, guild_id, game]
        if since is not None:
            sql += " AND finished_at >= ?"
            params.append(since.isoformat())
        return [_Row(*row) for row in await self.store.query(sql, params)]

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
            " ORDER BY id DESC LIMIT ?",
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
