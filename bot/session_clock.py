"""Turn-clock operations: a deadline that ran out, its reminder, and away / back."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime

from bot import errors
from bot.errors import Refusal, StaleVersion
from bot.models import Session, Status
from bot.seats import with_seat
from bot.session_core import Change, ManagerCore, in_flight
from game.base import IllegalAction, PlayerId

log = logging.getLogger(__name__)

AWAY_AFTER = 2  # timeouts in a row before a bot plays the seat until "I'm back"
MAX_DEFAULT_MOVES = 200  # a safety bound on the default moves played for one timeout


class TurnClockOps(ManagerCore):
    @in_flight
    async def time_out(
        self,
        session_id: int,
        player_id: PlayerId,
        version: int,
        *,
        now: datetime | None = None,
        origin: object = None,
    ) -> list[Change]:
        """The player's deadline (stored with ``version``) passed: play the engine's default
        moves for them until the game no longer waits for them, each stored and published like
        any action. Counts a timeout; the second in a row makes the seat away. Returns the
        stored changes (queued for the listeners in order, like ``act``'s).

        A second call for the same deadline is refused as stale: the first moved the version.
        """
        changes: list[Change] = []
        async with self._locked(session_id) as session:
            if session.status is not Status.ACTIVE:
                raise Refusal(errors.NOT_STARTED)
            if version != session.version:
                raise StaleVersion()
            deadline = session.deadline_of(player_id)
            seat = session.seat_of(player_id)
            if deadline is None or seat is None or deadline.due_at > (now or self.clock()):
                raise Refusal(errors.NOT_TIMED_OUT)
            engine = self.engine(session.game)
            timeouts = seat.timeouts + 1
            seats = with_seat(
                session.seats,
                seat.model_copy(update={"timeouts": timeouts, "away": timeouts >= AWAY_AFTER}),
            )
            current = session
            for _ in range(MAX_DEFAULT_MOVES):
                if current.status is not Status.ACTIVE:
                    break
                if player_id not in engine.awaiting(current.state):
                    break
                try:
                    action = engine.default_action(current.state, player_id)
                except IllegalAction:
                    log.exception("session %s: no default move for %s", current.id, player_id)
                    break
                # Each stored move is queued at once: a later failure leaves them published.
                change = await self._apply(current, engine, player_id, action, seats, origin)
                self._publish(change)
                changes.append(change)
                current = change.session
                seats = current.seats
            if not changes:  # nothing to play, but the timeout still counts
                new = self._next(session, seats=seats)
                await self._commit(new)
                changes.append(Change("seat", new, actor=player_id, origin=origin))
                self._publish(changes[-1])
        log.info("session %s: %s timed out (%d in a row)", session_id, player_id, timeouts)
        return changes

    @in_flight
    async def mark_reminded(
        self, session_id: int, player_id: PlayerId, version: int
    ) -> Session | None:
        """Record that the player's reminder went out (no version bump). None when that
        deadline is gone or was already reminded, so a reminder is sent at most once."""
        async with self._locked(session_id) as session:
            deadline = session.deadline_of(player_id)
            if version != session.version or deadline is None or deadline.reminded:
                return None
            marked = deadline.model_copy(update={"reminded": True})
            new = replace(
                session,
                deadlines=tuple(marked if d is deadline else d for d in session.deadlines),
            )
            await self._commit(new)
        return new

    @in_flight
    async def set_away(
        self, session_id: int, player_id: PlayerId, away: bool, *, origin: object = None
    ) -> Session:
        """Mark a player of a running game away (a bot plays for them) or back ("I'm back")."""
        async with self._locked(session_id) as session:
            if session.status is not Status.ACTIVE:
                raise Refusal(errors.NOT_STARTED)
            seat = session.seat_of(player_id)
            if seat is None or seat.is_bot:
                raise Refusal(errors.NOT_SEATED)
            if seat.left:
                raise Refusal(errors.LEFT_GAME)
            if seat.away == away:
                raise Refusal(errors.ALREADY_AWAY if away else errors.NOT_AWAY)
            new = self._next(
                session,
                seats=with_seat(session.seats, seat.model_copy(update={"away": away,
                                                                       "timeouts": 0})),
                actor=None if away else player_id,
            )
            await self._commit(new)
            self._publish(Change("seat", new, actor=player_id, origin=origin))
        log.info("session %s: %s is %s", new.id, player_id, "away" if away else "back")
        return new
