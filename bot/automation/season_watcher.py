"""The season watcher: when a season is over, each server's champions and final boards are
posted once (``bot.rankings.seasons``; the post itself is the notifier's, set by the
leaderboard extension).

Once, even across restarts and failovers: for each server and ended season the watcher first
*claims* the post (``Store.claim_season``: a row keyed by server and season, written in the
transaction that stores the season's champions), then hands it to the notifier, then marks it
posted. Two processes racing on one database (a failover on PostgreSQL, or a restart that
overlaps) cannot both claim: the row's primary key lets one insert win. Only the process that
owns a guild's shard looks at that guild at all; a DM's or group DM's place (its channel) is
shard 0's, where its clicks come in (``ShardSet.session_filter``).

A crash between claim and post must not lose the post: an unposted claim older than
:data:`CLAIM_TIMEOUT` is taken over by the next tick of any owner (one conditional update, so
one taker wins) and posted then. The price is a narrow window for a duplicate: a process that
dies after Discord accepted the message but before the mark was written gets its post made a
second time after the timeout. A lost post would be silent and permanent, a duplicate is
visible and harmless, so the watcher errs on that side. A notifier that raises (Discord
unreachable) leaves the claim unposted, retried the same way; a post that can never be made
(no channel set, the channel gone or closed to the bot) is marked done with no message.

Each tick looks at the last ended season of each kind. The first tick of a watcher also looks
back at the seasons that ended after the newest season any watcher claimed a post for (at most
:data:`MAX_CATCH_UP`, oldest first, so a champion role moves on in order): a season that ended
while no process ran, through the whole season after it, is posted at the next start, once
(the claims keep it once). With no claim at all (a new install) older seasons are history and
only the last ended one is posted. The clock is the manager's (injectable; in the
process, ``CLOCK_OFFSET_SECONDS`` shifts it for end-to-end tests only).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from typing import Protocol

from bot.rankings.leaderboard import Board, Leaderboards
from bot.rankings.seasons import (
    CHAMPION_ROLE_KEY,
    MIN_GAMES_KEY,
    SEASON_CHANNEL_KEY,
    SEASON_KEY,
    SEASON_KINDS,
    Season,
    SeasonKind,
    last_ended,
    parse_season,
    season_kind,
)
from bot.records.shards import ShardSet
from bot.store import Store

log = logging.getLogger(__name__)

CLAIM_TIMEOUT = timedelta(minutes=5)
# A game that finishes at the boundary is stored within this; the season is closed after it.
GRACE = timedelta(minutes=1)
MAX_NAP = 60.0  # seconds between ticks
TOP = 10  # players of each game's final board in the post
MAX_MIN_GAMES = 100
MAX_CATCH_UP = 12  # seasons of a kind a first tick looks back at


@dataclass(frozen=True)
class SeasonEnd:
    """What the end-of-season post says: each played game's final board (its ranked players
    first), its champion (game -> user id), and where to post and which role to give;
    ``former`` are the previous season's champions who are no champion now (the role moves
    on from them)."""

    guild_id: int
    season: Season
    boards: tuple[Board, ...]
    champions: dict[str, str]
    channel_id: int | None
    role_id: int | None
    former: tuple[str, ...] = ()


class SeasonNotifier(Protocol):
    async def season_ended(self, end: SeasonEnd) -> int | None:
        """Post ``end``; the message id, or None when no post can be made (no channel, or
        one closed to the bot: not tried again). Raise to have it retried after the claim
        timeout."""


class SilentSeasons:
    """No Discord (tests, or before the extension set its notifier): nothing is posted."""

    async def season_ended(self, end: SeasonEnd) -> int | None:
        return None


class Outcome(Enum):
    POSTED = "posted"  # this tick made the post (or marked it impossible)
    DONE = "done"  # nothing to do: posted before, or seasons off
    PENDING = "pending"  # another owner's fresh claim, or the post failed: look again


def champions_of(boards: Sequence[Board]) -> dict[str, str]:
    """game -> the champion's user id: the first player ranked 1 on each board (equal ratings
    are ordered by rated games, then user id); a board with nobody ranked has none."""
    champions: dict[str, str] = {}
    for board in boards:
        first = next((s for s in board.standings if s.rank == 1), None)
        if first is not None:
            champions[board.game] = first.line.user_id
    return champions


def _int(value: str | None) -> int | None:
    if value is None or not value.isascii() or not value.isdigit():
        return None
    return int(value)


class SeasonWatcher:
    def __init__(
        self,
        store: Store,
        leaderboards: Leaderboards,
        games: Sequence[str],
        *,
        clock: Callable[[], datetime],
        shards: ShardSet | None = None,
        notifier: SeasonNotifier | None = None,
        owner: str | None = None,
    ) -> None:
        self.store = store
        self.leaderboards = leaderboards
        self.games = tuple(games)
        self.clock = clock
        self.shards = shards or ShardSet.whole()
        self.notifier: SeasonNotifier = notifier or SilentSeasons()
        self.owner = owner or uuid.uuid4().hex  # who holds a claim (one per watcher)
        self._done: set[str] = set()  # seasons this watcher has seen through
        self._looked_back: set[SeasonKind] = set()  # kinds whose missed seasons were looked at

    async def tick(self, now: datetime | None = None) -> int:
        """Post the ended seasons not posted yet; returns the posts made."""
        now = now or self.clock()
        posted = 0
        for kind in SEASON_KINDS:
            for season in await self._to_see(kind, now):
                if now < season.end + GRACE or season.name in self._done:
                    continue
                pending = False
                for guild_id in await self._guilds(season):
                    outcome = await self._end(guild_id, season, now)
                    posted += outcome is Outcome.POSTED
                    pending |= outcome is Outcome.PENDING
                if not pending:
                    self._done.add(season.name)
                    log.info("season %s: seen through in every server this process owns",
                             season.name)
        return posted

    async def _to_see(self, kind: SeasonKind, now: datetime) -> list[Season]:
        """The last ended season of ``kind``; at this watcher's first look also those before
        it that ended after the newest season claimed in the store, oldest first."""
        last = last_ended(kind, now)
        if kind in self._looked_back:
            return [last]
        rows = await self.store.query("SELECT DISTINCT season FROM season_posts", [])
        self._looked_back.add(kind)
        claimed = [season for (name,) in rows
                   if (season := parse_season(str(name))) is not None and season.kind == kind]
        if not claimed:
            return [last]
        newest = max(season.start for season in claimed)
        seasons = [last]
        while (len(seasons) < MAX_CATCH_UP and seasons[-1].previous().start > newest):
            seasons.append(seasons[-1].previous())
        if len(seasons) > 1:
            log.info("%s season(s) %s ended while no watcher ran: looked at now",
                     kind, ", ".join(season.name for season in reversed(seasons[1:])))
        return seasons[::-1]

    async def run(self) -> None:
        """Tick every :data:`MAX_NAP` seconds for as long as the process runs."""
        while True:
            try:
                await self.tick()
            except Exception:  # the watcher outlives a failed tick: the next one retries
                log.exception("the season watcher failed to tick")
            await asyncio.sleep(MAX_NAP)

    async def _guilds(self, season: Season) -> list[int]:
        """The owned places with games in ``season``: servers by their shard, DMs and group
        DMs (a place that is its games' channel) on shard 0, where their clicks come in."""
        owned, params = self.shards.session_filter("s.")
        rows = await self.store.query(
            "SELECT DISTINCT r.guild_id FROM results r JOIN sessions s ON s.id = r.session_id"
            f" WHERE r.finished_at >= ? AND r.finished_at < ? AND {owned} ORDER BY r.guild_id",
            [season.start.isoformat(), season.end.isoformat(), *params],
        )
        return [int(row[0]) for row in rows]

    async def _posted(self, guild_id: int, season: Season) -> bool:
        rows = await self.store.query(
            "SELECT posted_at FROM season_posts WHERE guild_id = ? AND season = ?",
            [guild_id, season.name],
        )
        return bool(rows) and rows[0][0] is not None

    async def _end(self, guild_id: int, season: Season, now: datetime) -> Outcome:
        settings = await self.store.guild_settings(guild_id)
        if season_kind(settings.get(SEASON_KEY)) != season.kind:
            return Outcome.DONE
        if await self._posted(guild_id, season):
            return Outcome.DONE
        min_games = _int(settings.get(MIN_GAMES_KEY))
        if min_games is None or not 1 <= min_games <= MAX_MIN_GAMES:
            min_games = self.leaderboards.min_games
        boards = [
            await self.leaderboards.season_board(guild_id, game, season, min_games=min_games)
            for game in self.games
        ]
        boards = [board for board in boards if board.standings]
        claimed = await self.store.claim_season(
            guild_id, season.name, champions_of(boards), owner=self.owner, now=now,
            stale_before=now - CLAIM_TIMEOUT,
        )
        if not claimed:
            return Outcome.DONE if await self._posted(guild_id, season) else Outcome.PENDING
        # The champions of the first claim (the same unless a setting changed since).
        stored = await self.store.query(
            "SELECT game, user_id FROM season_champions WHERE guild_id = ? AND season = ?",
            [guild_id, season.name],
        )
        champions = {str(game): str(user) for game, user in stored}
        before = await self.store.query(
            "SELECT DISTINCT user_id FROM season_champions WHERE guild_id = ? AND season = ?"
            " ORDER BY user_id",
            [guild_id, season.previous().name],
        )
        former = tuple(str(user) for (user,) in before if str(user) not in champions.values())
        end = SeasonEnd(guild_id, season, tuple(boards), champions,
                        _int(settings.get(SEASON_CHANNEL_KEY)),
                        _int(settings.get(CHAMPION_ROLE_KEY)), former)
        try:
            message_id = await self.notifier.season_ended(end)
        except Exception:
            # Discord unreachable or failing: a WARNING, since it is retried.
            log.warning("guild %s: the end of season %s could not be posted; retried after"
                        " %s", guild_id, season.name, CLAIM_TIMEOUT, exc_info=True)
            return Outcome.PENDING
        await self.store.finish_season_post(guild_id, season.name, owner=self.owner,
                                            message_id=message_id, at=self.clock())
        log.info("guild %s: season %s ended (champions %s), %s", guild_id, season.name,
                 end.champions or "none",
                 f"posted as message {message_id}" if message_id else "nothing posted")
        return Outcome.POSTED
