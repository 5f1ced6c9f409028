"""The action path: a player's (or a machine seat's) move, checked and applied."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from bot import errors
from bot.errors import Refusal, StaleVersion
from bot.models import Status
from bot.seats import with_seat
from bot.session_core import Change, ManagerCore, in_flight
from game.base import IllegalAction, PlayerId


class MoveOps(ManagerCore):
    @in_flight
    async def act(
        self,
        session_id: int,
        player_id: PlayerId,
        version: int,
        action: Mapping[str, Any] | str | BaseModel,
        *,
        autopilot: bool = False,
        origin: object = None,
    ) -> Change:
        """Apply one game action made against ``version``; returns the stored change, which
        is queued for the listeners (``settle`` waits until they have it).

        Refusals, in order: no game, not started, not seated (or left), stale version, not your
        turn, the engine's IllegalAction text. A storage failure raises SaveFailed; in every
        failure case the session stays exactly as it was.

        ``autopilot``: a machine moves for the seat (``bot.autoplay``); refused unless the seat
        is a bot seat or its player is away or left. A player who moves themselves is back:
        their away flag and timeout count are cleared.
        """
        async with self._locked(session_id) as session:
            if session.status is not Status.ACTIVE:
                raise Refusal(errors.NOT_STARTED)
            seat = session.seat_of(player_id)
            if seat is None:
                raise Refusal(errors.NOT_SEATED)
            if autopilot and not seat.autopiloted:
                raise StaleVersion()  # its player came back meanwhile
            if not autopilot and seat.left:
                raise Refusal(errors.LEFT_GAME)
            if version != session.version:
                raise StaleVersion()
            engine = self.engine(session.game)
            if player_id not in engine.awaiting(session.state):
                raise Refusal(errors.NOT_YOUR_TURN)
            try:
                parsed = (
                    action
                    if isinstance(action, BaseModel)
                    else engine.parse_action(action)
                )
            except IllegalAction as err:
                raise Refusal(str(err)) from None
            seats = session.seats
            if not autopilot and (seat.away or seat.timeouts):
                seats = with_seat(seats, seat.model_copy(update={"away": False, "timeouts": 0}))
            change = await self._apply(session, engine, player_id, parsed, seats, origin)
            self._publish(change)
        return change
