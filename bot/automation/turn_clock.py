"""The turn clock: reminders and expiries of the deadlines the manager stores.

Deadlines live in the session row (``Session.deadlines``, planned by ``bot.sessions.deadlines`` on
every change), so they survive restarts. :meth:`TurnClock.tick` handles everything due at ``now``:

- a reminder ping, at most once per deadline: the ``reminded`` flag is stored before the ping
  goes out;
- an expiry: ``SessionManager.time_out`` with the version the deadline was stored for plays the
  engine's default moves for the player; a second firing for the same deadline is refused as
  stale. The table gets one announcement and one redraw.
- an idle private table (an abandoned ``/learn``, an unfinished daily): one with no change for
  :data:`PRIVATE_IDLE` of its kind is cancelled (stored as abandoned) for its player. A private
  table is in no channel and its player's message token is long gone: nothing is said.

A tick only makes the manager calls; what they tell a channel goes out in a background task per
session (in order), so a slow or rate-limited channel never delays another table's clock.
Tests call ``tick`` with a fake clock and :meth:`TurnClock.idle` to wait for those posts. In
the process, :meth:`TurnClock.run` sleeps until the next reminder or deadline and ticks. A change
wakes it early only when the changed session now has a moment before the one it sleeps until: a
tick and the search for the next moment walk every live session, so waking for every change
made their work grow with the number of tables times the actions per second (issue 42, "The
sixth pass" in ``docs/performance.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime, timedelta

from bot.automation.notices import Notifier, Reminder, SilentNotifier, TimedOut
from bot.records.change import AUTOMATIC, Change
from bot.records.errors import StaleVersion, TableError
from bot.records.session import Deadline, Session, SessionKind, Status, public_event
from bot.sessions.manager import SessionManager
from game.base import PlayerId

log = logging.getLogger(__name__)

MIN_NAP = 0.5  # seconds; also what keeps a deadline that cannot be handled from spinning
MAX_NAP = 60.0  # seconds; a wall-clock change is noticed within this
# A private table with no change for this long is abandoned by the clock. A daily waits a whole
# day: by then its deal's day is over, so it could no longer count.
PRIVATE_IDLE: Mapping[SessionKind, timedelta] = {
    SessionKind.LEARN: timedelta(hours=6),
    SessionKind.DAILY: timedelta(hours=24),
}


class TurnClock:
    def __init__(self, manager: SessionManager, *, notifier: Notifier | None = None) -> None:
        self.manager = manager
        self.notifier = notifier or SilentNotifier()
        self._wake = asyncio.Event()
        self._posts: dict[int, asyncio.Task[None]] = {}  # session id -> its latest posts
        # What :meth:`run` sleeps until (None: it is not asleep; it looks again before it is).
        self._asleep_until: datetime | None = None

    @property
    def asleep_until(self) -> datetime | None:
        """The moment :meth:`run` sleeps until (None: it is not asleep)."""
        return self._asleep_until

    async def on_change(self, change: Change) -> None:
        """The manager listener: a change that brought a session a moment earlier than the one
        :meth:`run` sleeps until wakes it (any other moment is found when it wakes)."""
        until = self._asleep_until
        if until is None:
            return
        moment = next_moment(change.session)
        if moment is not None and moment < until:
            self._wake.set()

    def next_wakeup(self) -> datetime | None:
        """The earliest pending reminder or deadline of any live session, or the moment a
        private table has been idle for too long."""
        return min(filter(None, map(next_moment, self.manager.live_sessions())), default=None)

    async def tick(self, now: datetime | None = None) -> int:
        """Send the reminders and play the expiries due at ``now``; how many happened."""
        now = now or self.manager.clock()
        handled = 0
        for session_id in [s.id for s in self.manager.live_sessions()]:
            # Simultaneous steps can have several expired deadlines; each expiry moves the
            # version, so look again after each one.
            for _ in range(8):
                session = self.manager.get(session_id)
                if session is None or session.status is not Status.ACTIVE:
                    break
                expired = next((d for d in session.deadlines if d.due_at <= now), None)
                if expired is None:
                    break
                # Its log lines (and the posts it queues) name the session and its shard.
                with self.manager.log_bound(session):
                    if not await self._expire(session, expired, now):
                        break
                handled += 1
            current = self.manager.get(session_id)
            if current is None:
                continue
            for deadline in current.deadlines:
                if not deadline.reminded and deadline.remind_at <= now:
                    with self.manager.log_bound(current):
                        handled += await self._remind(current, deadline)
        for session in self.manager.live_sessions():
            idle = idle_at(session)
            if idle is not None and idle <= now:
                with self.manager.log_bound(session):
                    handled += await self._abandon_idle(session)
        return handled

    async def run(self) -> None:
        """Tick whenever something falls due, for as long as the process runs."""
        while True:
            self._wake.clear()
            wakeup = self.next_wakeup()
            now = self.manager.clock()
            nap = MAX_NAP
            if wakeup is not None:
                nap = (wakeup - now).total_seconds()
            nap = min(max(nap, MIN_NAP), MAX_NAP)
            # Set with no await since the look above: a change stored meanwhile was in it.
            self._asleep_until = now + timedelta(seconds=nap)
            # asyncio.timeout, not wait_for: on Python 3.11 a cancel that meets wait_for's own
            # timeout can come out as TimeoutError, which this loop would swallow, so the task
            # never stopped (a shutdown waited for it until it was killed).
            try:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(nap):
                        await self._wake.wait()
            finally:
                self._asleep_until = None
            try:
                await self.tick()
            except Exception:  # the clock outlives a failed tick: the next one retries
                log.exception("the turn clock failed to tick")

    async def idle(self) -> None:
        """Wait until every post the ticks so far queued went out."""
        while self._posts:
            await asyncio.wait(list(self._posts.values()))

    async def close(self) -> None:
        """Let the queued posts go out (the process is stopping)."""
        await self.idle()

    # --- what a tick does ----------------------------------------------------------------------

    async def _expire(self, session: Session, deadline: Deadline, now: datetime) -> bool:
        player = deadline.player_id
        try:
            changes = await self.manager.time_out(
                session.id, player, session.version, now=now, origin=AUTOMATIC
            )
        except StaleVersion:
            # The player moved (or another tick fired) first: nothing to do, by design.
            log.debug("session %s: timeout of %s overtaken", session.id, player)
            return False
        except TableError as err:
            # The text can come from the engine and name a player's cards: DEBUG only.
            log.warning("session %s: timeout of %s not played (%s)",
                        session.id, player, type(err).__name__)
            log.debug("session %s: timeout of %s refused: %s", session.id, player, err)
            return False
        latest = changes[-1].session
        notice = self._timed_out(session, player, changes)

        async def tell() -> None:
            # The moves' own posts (round summaries, pings) go out before the announcement.
            await self.manager.settle(session.id)
            await self._say(self.notifier.notify(notice), latest)
            await self._say(self.notifier.refresh(latest), latest)

        self._post(session.id, tell)
        return True

    async def _abandon_idle(self, session: Session) -> int:
        try:
            await self.manager.abandon_idle(session.id, session.version, origin=AUTOMATIC)
        except TableError:
            return 0  # it ended, or moved, meanwhile
        log.info("session %s: private %s table idle since %s, abandoned", session.id,
                 session.kind.value, session.updated_at.isoformat())
        return 1

    def _timed_out(
        self, session: Session, player: PlayerId, changes: Sequence[Change]
    ) -> TimedOut:
        latest = changes[-1].session
        moves = tuple(public_event(event) for change in changes for event in change.events)
        seat = latest.seat_of(player)
        return TimedOut(
            session=latest,
            player_id=player,
            moves=moves,
            timeouts=seat.timeouts if seat is not None else 0,
            away=seat is not None and seat.away,
        )

    async def _remind(self, session: Session, deadline: Deadline) -> int:
        try:
            marked = await self.manager.mark_reminded(
                session.id, deadline.player_id, session.version
            )
        except TableError:
            return 0
        if marked is None:
            return 0
        notice = Reminder(
            session=marked,
            player_id=deadline.player_id,
            title=self.manager.engine(session.game).title,
            due_at=deadline.due_at,
        )
        self._post(session.id, lambda: self._say(self.notifier.notify(notice), marked))
        return 1

    def _post(self, session_id: int, job: Callable[[], Awaitable[None]]) -> None:
        """Run ``job`` in the session's background task, after the posts queued before it."""
        before = self._posts.get(session_id)

        async def run() -> None:
            if before is not None:
                await asyncio.wait([before])
            await job()

        task = asyncio.create_task(run(), name=f"turn-clock-posts-{session_id}")
        self._posts[session_id] = task
        task.add_done_callback(lambda done: self._forget(session_id, done))

    def _forget(self, session_id: int, task: asyncio.Task[None]) -> None:
        if self._posts.get(session_id) is task:
            del self._posts[session_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("posting for session %s failed", session_id, exc_info=task.exception())

    @staticmethod
    async def _say(message: Awaitable[None], session: Session) -> None:
        try:
            await message
        except Exception:  # a channel's failure (Discord) must not stop the clock
            log.exception("telling the channel of session %s failed", session.id)


def next_moment(session: Session) -> datetime | None:
    """The earliest moment the clock has something to do for ``session``: a deadline, a
    reminder not yet sent, or its idle limit if it is private (None: nothing)."""
    moment = idle_at(session)
    for deadline in session.deadlines:
        due = deadline.due_at if deadline.reminded else min(deadline.due_at, deadline.remind_at)
        if moment is None or due < moment:
            moment = due
    return moment


def idle_at(session: Session) -> datetime | None:
    """When private ``session`` has been idle for :data:`PRIVATE_IDLE` (None: not private)."""
    idle = PRIVATE_IDLE.get(session.kind)
    if idle is None or not session.is_live:
        return None
    return session.updated_at + idle
