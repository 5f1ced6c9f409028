"""The turn clock: reminders and expiries of the deadlines the manager stores.

Deadlines live in the session row (``Session.deadlines``, planned by ``bot.deadlines`` on every
change), so they survive restarts. :meth:`TurnClock.tick` handles everything due at ``now``:

- a reminder ping, at most once per deadline: the ``reminded`` flag is stored before the ping
  goes out;
- an expiry: ``SessionManager.time_out`` with the version the deadline was stored for plays the
  engine's default moves for the player; a second firing for the same deadline is refused as
  stale. The table gets one announcement and one redraw.

Tests call ``tick`` with a fake clock. In the process, :meth:`TurnClock.run` sleeps until the
next reminder or deadline (or until a change may have brought an earlier one) and ticks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from datetime import datetime

from bot.errors import TableError
from bot.manager import Change, SessionManager
from bot.models import Deadline, Session, Status
from bot.notify import AUTOMATIC, Notifier, SilentNotifier, mention, relative_time

log = logging.getLogger(__name__)

MIN_NAP = 0.5  # seconds; also what keeps a deadline that cannot be handled from spinning
MAX_NAP = 60.0  # seconds; a wall-clock change is noticed within this
MAX_ANNOUNCEMENT = 1800  # characters (a Discord message holds 2000)


class TurnClock:
    def __init__(self, manager: SessionManager, *, notifier: Notifier | None = None) -> None:
        self.manager = manager
        self.notifier = notifier or SilentNotifier()
        self._wake = asyncio.Event()

    async def on_change(self, change: Change) -> None:
        """The manager listener: a change may have set an earlier deadline."""
        self._wake.set()

    def next_wakeup(self) -> datetime | None:
        """The earliest pending reminder or deadline of any live session."""
        moments = []
        for session in self.manager.live_sessions():
            for deadline in session.deadlines:
                moments.append(deadline.due_at)
                if not deadline.reminded:
                    moments.append(deadline.remind_at)
        return min(moments, default=None)

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
                if expired is None or not await self._expire(session, expired, now):
                    break
                handled += 1
            current = self.manager.get(session_id)
            if current is None:
                continue
            for deadline in current.deadlines:
                if not deadline.reminded and deadline.remind_at <= now:
                    handled += await self._remind(current, deadline)
        return handled

    async def run(self) -> None:
        """Tick whenever something falls due, for as long as the process runs."""
        while True:
            self._wake.clear()
            wakeup = self.next_wakeup()
            nap = MAX_NAP
            if wakeup is not None:
                nap = (wakeup - self.manager.clock()).total_seconds()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), min(max(nap, MIN_NAP), MAX_NAP))
            try:
                await self.tick()
            except Exception:
                log.exception("the turn clock failed to tick")

    # --- what a tick does ----------------------------------------------------------------------

    async def _expire(self, session: Session, deadline: Deadline, now: datetime) -> bool:
        player = deadline.player_id
        try:
            changes = await self.manager.time_out(
                session.id, player, session.version, now=now, origin=AUTOMATIC
            )
        except TableError as err:
            log.info("session %s: timeout of %s not played: %s", session.id, player, err)
            return False
        # The moves' own posts (round summaries, pings) go out before the announcement.
        await self.manager.settle(session.id)
        latest = changes[-1].session
        engine = self.manager.engine(session.game)
        names = latest.names
        moves = []
        for change in changes:
            for event in change.events:
                try:
                    moves.append(engine.describe(event, None, names))
                except Exception:
                    log.exception("describing a %s event failed", event.kind)
        name = names.get(player, player)
        text = f"⏰ {name} ran out of time" + (": " + " ".join(moves) if moves else ".")
        seat = latest.seat_of(player)
        if seat is not None and seat.away:
            text += f"\n💤 {name} is away — a bot plays for them until they click I'm back."
        if len(text) > MAX_ANNOUNCEMENT:
            text = text[: MAX_ANNOUNCEMENT - 1] + "…"
        await self._say(self.notifier.announce(latest, text), latest)
        await self._say(self.notifier.refresh(latest), latest)
        return True

    async def _remind(self, session: Session, deadline: Deadline) -> int:
        try:
            marked = await self.manager.mark_reminded(
                session.id, deadline.player_id, session.version
            )
        except TableError:
            return 0
        if marked is None:
            return 0
        title = self.manager.engine(session.game).title
        text = (
            f"⏳ {mention(deadline.player_id)}, your move in {title}: "
            f"time runs out {relative_time(deadline.due_at)}."
        )
        await self._say(self.notifier.remind(marked, deadline.player_id, text), marked)
        return 1

    @staticmethod
    async def _say(message: Awaitable[None], session: Session) -> None:
        try:
            await message
        except Exception:
            log.exception("telling the channel of session %s failed", session.id)
