"""What the cogs call for the daily deal: :class:`DailyDeals`.

Once per player, game and UTC day: a play is claimed in the store (``daily_plays``, keyed by
game, day and player) before its deal, then dealt at a private table
(``SessionManager.open_private``, kind ``daily``) from the day's seed. Running the command again
the same day resumes the live table (from the server it was dealt in when that server is on
another process's shards), or is refused once it ended. A daily of an earlier day
left unfinished is abandoned when its player starts the next one, or by the turn clock after a
day without a move (``bot.automation.turn_clock.PRIVATE_IDLE``), and a game that ends after its
day is over does not count: each day's board closes at midnight, when its replays open.
The score is recorded by a listener (:meth:`DailyDeals.on_change`) when the game ends, and read
back from the stored game if that was missed (:meth:`DailyDeals.settled`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from enum import StrEnum

from bot.daily.deal import daily_seed, day_ends_at, deal_day, new_key, next_deal_at
from bot.daily.streaks import Streak, streak_of
from bot.records.change import Change, ChangeKind
from bot.records.daily_play import DailyPlay
from bot.records.errors import Refusal
from bot.records.session import Seat, Session, SessionKind, Status
from bot.sessions.manager import SessionManager

log = logging.getLogger(__name__)

KEY_META = "daily_secret"  # the generated key, when DAILY_SECRET is not set
BOARD_SIZE = 10
# Who the player meets, per game (issue 33: SPLIT against two expert bot seats; TEN solo, which
# its rules play as a two-seat game against one bot following the normal rules, spec section 6,
# as the lobby does). Any other game: alone when its engine allows it, else expert seats up to
# its minimum.
LINEUPS: Mapping[str, tuple[str, ...]] = {"split": ("expert", "expert"), "ten": ("normal",)}


class AlreadyPlayed(Exception):
    """Today's deal of this game was played already; ``next_at``: when the next one starts
    (the cogs say it with a Discord timestamp)."""

    def __init__(self, next_at: datetime) -> None:
        super().__init__(f"played already; the next deal starts at {next_at.isoformat()}")
        self.next_at = next_at


class OpenElsewhere(Exception):
    """Today's deal runs at a table that another process holds (the server where it was
    dealt, ``guild_id``, is on another shard): it is resumed from that server."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(f"the daily runs in server {guild_id}")
        self.guild_id = guild_id


class ShareRefusal(StrEnum):
    """Why a Share is refused: no daily play of that session, another player's, dealt in
    another server, not finished, or shared already."""

    NO_PLAY = "no play"
    NOT_YOURS = "not yours"
    OTHER_SERVER = "other server"
    NOT_FINISHED = "not finished"
    SHARED_ALREADY = "shared already"


class ShareRefused(Exception):
    def __init__(self, reason: ShareRefusal) -> None:
        super().__init__(f"share refused: {reason}")
        self.reason = reason


@dataclass(frozen=True)
class Shared:
    """A finished daily shared now: its play (with its score) and the player's streak."""

    play: DailyPlay
    streak: Streak


@dataclass(frozen=True)
class Opened:
    """The player's table of today's deal; ``resumed``: it was dealt before."""

    session: Session
    resumed: bool


@dataclass(frozen=True)
class Summary:
    """A finished daily as its player sees it."""

    play: DailyPlay
    board: list[DailyPlay]  # the server's board of that day (the player's play included)
    best: int  # the best score across every server
    streak: Streak


def bot_seats(levels: Sequence[str]) -> list[Seat]:
    return [Seat(player_id=f"bot:{n}", display_name=f"Bot {n}", is_bot=True, bot_level=level)
            for n, level in enumerate(levels, start=1)]


class DailyDeals:
    """The daily deal of a process: its key, its tables, its boards and streaks."""

    def __init__(self, manager: SessionManager, *, secret: str | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        self.manager = manager
        self.store = manager.store
        self._secret = secret or None
        self._key: str | None = None
        self.clock = clock or manager.clock
        self._opening = asyncio.Lock()

    # --- the day and its deal -----------------------------------------------------------------

    def today(self) -> date:
        return deal_day(self.clock())

    def next_deal_at(self) -> datetime:
        return next_deal_at(self.clock())

    async def key(self) -> str:
        """``DAILY_SECRET``, else the key generated once and kept in the database (the first
        process to claim it wins, so every process of the bot deals the same cards)."""
        if self._key is None:
            self._key = self._secret or await self.store.claim_meta(KEY_META, new_key())
        return self._key

    async def seed(self, game: str, day: date) -> int:
        return daily_seed(await self.key(), game, day)

    def lineup(self, game: str) -> tuple[str, ...]:
        if game in LINEUPS:
            return LINEUPS[game]
        engine = self.manager.engine(game)
        return ("expert",) * max(0, engine.min_players - 1)

    # --- opening and resuming -----------------------------------------------------------------

    async def open(self, guild_id: int, channel_id: int, game: str, player: Seat) -> Opened:
        """The player's table of today's deal of ``game``: dealt now, or resumed (a live
        one). :class:`AlreadyPlayed` once it ended."""
        self.manager.engine(game)  # an unknown game is refused before anything is claimed
        async with self._opening:  # one player's two commands at once deal one table
            day = self.today()
            me = player.player_id
            play = await self.store.daily_play(game, day, me)
            if play is None:
                claim = DailyPlay(game, day, me, guild_id, channel_id, None, self.clock())
                await self.store.claim_daily(claim)
                play = await self.store.daily_play(game, day, me)
                assert play is not None
            if play.session_id is not None:
                live = self.manager.get(play.session_id)
                if live is not None:
                    return Opened(live, True)
                stored = await self.store.load_session(play.session_id)
                if stored is not None and stored.is_live:
                    raise OpenElsewhere(play.guild_id)  # another process's server holds it
                raise AlreadyPlayed(self.next_deal_at())
            await self._abandon_earlier(me, game, day)
            session = await self.manager.open_private(
                guild_id, channel_id, game, player, bot_seats(self.lineup(game)),
                kind=SessionKind.DAILY, seed=await self.seed(game, day))
            if not await self.store.set_daily_session(game, day, me, session.id):
                # Another process dealt it meanwhile: this table goes, that one is theirs.
                await self.manager.cancel(session.id, me)
                raise AlreadyPlayed(self.next_deal_at())
            log.info("daily %s of %s dealt: session %s", game, day.isoformat(), session.id)
            return Opened(session, False)

    async def _abandon_earlier(self, player: str, game: str, day: date) -> None:
        """A daily of an earlier day still live: its day is over, it no longer counts."""
        for session in self.manager.private_of(player, SessionKind.DAILY, game):
            played = await self.store.daily_play_of(session.id)
            if played is None or played.day < day:
                try:
                    await self.manager.cancel(session.id, player)
                except Refusal:
                    continue  # it ended meanwhile

    # --- the end of a game --------------------------------------------------------------------

    async def on_change(self, change: Change) -> None:
        """The manager listener: a daily that ended on its day records its player's score."""
        session = change.session
        if session.kind is SessionKind.DAILY and change.kind is ChangeKind.FINISHED:
            await self._record(session)

    async def _record(self, session: Session) -> DailyPlay | None:
        play = await self.store.daily_play_of(session.id)
        if play is None or play.finished:
            return play
        if deal_day(session.updated_at) != play.day:
            return play  # finished after its day: not counted
        score = self.score_of(session)
        if score is None:
            return play
        await self.store.finish_daily(session.id, score, session.updated_at)
        return replace(play, score=score, finished_at=session.updated_at)

    def score_of(self, session: Session) -> int | None:
        """The player's score in finished ``session`` (the engine's results)."""
        if session.status is not Status.FINISHED or session.state is None:
            return None
        engine = self.manager.engine(session.game)
        state = session.state
        if isinstance(state, dict):
            state = engine.state_model.model_validate(state)
        for result in engine.results(state):
            if result.player == session.host_id:
                return result.score
        return None

    async def settled(self, session: Session) -> DailyPlay | None:
        """The play of daily ``session`` with its score, recorded now if the listener has not
        (yet) done it."""
        play = await self.store.daily_play_of(session.id)
        if play is None or play.finished or session.status is not Status.FINISHED:
            return play
        return await self._record(session)

    # --- boards, streaks, replays -------------------------------------------------------------

    async def streak(self, player: str, game: str) -> Streak:
        return streak_of(await self.store.daily_days(player, game), self.today())

    async def board(self, guild_id: int, game: str, day: date) -> list[DailyPlay]:
        return await self.store.daily_board(guild_id, game, day, BOARD_SIZE)

    async def summary(self, session: Session) -> Summary | None:
        """The end of a finished daily: None while it runs (or when it did not count)."""
        play = await self.settled(session)
        if play is None or not play.finished:
            return None
        board = await self.board(play.guild_id, play.game, play.day)
        best = await self.store.daily_best(play.game, play.day)
        assert play.score is not None
        return Summary(play, board, max(best or play.score, play.score),
                       await self.streak(play.user_id, play.game))

    async def share(self, session_id: int, player: str, guild_id: int) -> Shared:
        """Mark ``player``'s finished daily of ``session_id`` shared (once), in the server
        it was dealt in (``guild_id``: where the Share was clicked); ShareRefused
        otherwise."""
        play = await self.store.daily_play_of(session_id)
        if play is None:
            raise ShareRefused(ShareRefusal.NO_PLAY)
        if play.user_id != player:
            raise ShareRefused(ShareRefusal.NOT_YOURS)
        if play.guild_id != guild_id:
            raise ShareRefused(ShareRefusal.OTHER_SERVER)
        stored = await self.store.load_session(session_id)
        settled = await self.settled(stored) if stored is not None else None
        if settled is None or not settled.finished:
            raise ShareRefused(ShareRefusal.NOT_FINISHED)
        if not await self.store.share_daily(session_id, self.clock()):
            raise ShareRefused(ShareRefusal.SHARED_ALREADY)
        return Shared(settled, await self.streak(settled.user_id, settled.game))

    def is_over(self, day: date) -> bool:
        """Whether ``day``'s deal is over (its replays may be shown)."""
        return self.clock() >= day_ends_at(day)

    async def deal_is_over(self, session: Session) -> bool:
        """Whether the deal of daily ``session`` is over (any other session: True)."""
        if session.kind is not SessionKind.DAILY:
            return True
        play = await self.store.daily_play_of(session.id)
        # The day it was dealt, never earlier than the day it was claimed for.
        day = deal_day(session.created_at)
        return self.is_over(max(day, play.day) if play is not None else day)

    async def replay_of(self, guild_id: int, game: str, day: date, player: str) -> int | None:
        """The game to replay ``day``'s deal with in server ``guild_id``: the player's own
        there, else the best of that day's board; None when nobody here played it."""
        own = await self.store.daily_play(game, day, player)
        if own is not None and own.guild_id == guild_id and own.session_id is not None:
            stored = await self.store.load_session(own.session_id)
            if stored is not None and stored.status is not Status.LOBBY:
                return own.session_id
        for play in await self.board(guild_id, game, day):
            if play.session_id is not None:
                return play.session_id
        return None


def yesterday(today: date) -> date:
    return today - timedelta(days=1)
