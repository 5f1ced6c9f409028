"""Machine players: bot seats, and the seats of players who are away or left the game.

A manager listener. When the game waits for a seat that a machine plays, it starts one worker
task for that session (never more), which moves through ``SessionManager.act`` like any
player (every move stored and logged) until the game waits only for humans. Working in a task
of its own keeps a long run of bot moves off the listener call stack.

Moves are paced (``pace`` seconds through the injectable ``sleep``; tests pass a no-op) and
made with ``origin=AUTOMATIC``; the table is redrawn through the notifier once per bot turn,
when the game stops waiting for that seat. Bot seats play their own level; away and left
players are played at "normal". The random generator of a move is derived from the game seed,
the version and the seat, so a restarted process makes the same choices.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.errors import StaleVersion, TableError
from bot.manager import BOT_LEVELS, Change, SessionManager
from bot.models import Session, Status
from bot.notify import AUTOMATIC, Notifier, SilentNotifier
from game.base import IllegalAction, PlayerId, rng_for

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[Any]]
DEFAULT_PACE = 1.0  # seconds between two machine moves
STAND_IN_LEVEL = "normal"  # how a machine plays for a player who is away or left


class Autoplay:
    def __init__(
        self,
        manager: SessionManager,
        *,
        notifier: Notifier | None = None,
        sleep: Sleep = asyncio.sleep,
        pace: float = DEFAULT_PACE,
    ) -> None:
        self.manager = manager
        self.notifier = notifier or SilentNotifier()
        self._sleep = sleep
        self.pace = pace
        self._tasks: dict[int, asyncio.Task[None]] = {}

    # --- driving ------------------------------------------------------------------------------

    async def on_change(self, change: Change) -> None:
        """The manager listener: start a worker when a machine has a move to make."""
        if self.next_player(change.session) is not None:
            self.kick(change.session.id)

    def resume(self) -> int:
        """After a restart: start a worker for every session waiting for a machine."""
        started = 0
        for session in self.manager.live_sessions():
            if self.next_player(session) is not None:
                self.kick(session.id)
                started += 1
        return started

    def kick(self, session_id: int) -> None:
        task = self._tasks.get(session_id)
        if task is not None and not task.done():
            return  # the running worker looks again before it stops
        self._tasks[session_id] = asyncio.create_task(
            self._run(session_id), name=f"autoplay-{session_id}"
        )

    async def idle(self) -> None:
        """Wait until no worker runs and every change is published (tests; every move a
        machine had to make is made). Workers start from published changes, so this settles
        the manager's publications first, and again after the workers' moves."""
        while True:
            await self.manager.settle()
            pending = [task for task in self._tasks.values() if not task.done()]
            if not pending:
                self._tasks.clear()
                return
            await asyncio.wait(pending)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()

    # --- choosing -----------------------------------------------------------------------------

    def next_player(self, session: Session | None) -> PlayerId | None:
        """The first seat the game waits for that a machine plays, or None."""
        if session is None or session.status is not Status.ACTIVE or session.state is None:
            return None
        engine = self.manager.engines.get(session.game)
        if engine is None:
            return None
        for player in engine.awaiting(session.state):
            seat = session.seat_of(player)
            if seat is not None and seat.autopiloted:
                return player
        return None

    @staticmethod
    def level_of(session: Session, player: PlayerId) -> str:
        seat = session.seat_of(player)
        if seat is not None and seat.is_bot and seat.bot_level in BOT_LEVELS:
            return seat.bot_level
        return STAND_IN_LEVEL

    # --- the worker ---------------------------------------------------------------------------

    async def _run(self, session_id: int) -> None:
        turn_of: PlayerId | None = None  # the seat whose turn runs and is not redrawn yet
        latest: Session | None = None
        while True:
            player = self.next_player(self.manager.get(session_id))
            if turn_of is not None and player != turn_of:
                assert latest is not None
                turn_of = None
                await self._refresh(latest)
                continue  # look again: things may have changed while we redrew
            if player is None:
                return
            await self._sleep(self.pace)
            session = self.manager.get(session_id)
            if session is None or self.next_player(session) != player:
                continue
            try:
                change = await self._move(session, player)
            except StaleVersion:
                continue  # a human moved or came back meanwhile
            except (TableError, IllegalAction) as err:
                log.warning("session %s: the machine could not move for %s: %s",
                            session_id, player, err)
                if turn_of is not None and latest is not None:
                    await self._refresh(latest)
                return
            latest, turn_of = change.session, player

    async def _move(self, session: Session, player: PlayerId) -> Change:
        engine = self.manager.engine(session.game)
        rng = rng_for(session.state.seed, "autoplay", session.version, player)
        action = engine.bot_action(session.state, player, self.level_of(session, player), rng)
        return await self.manager.act(
            session.id, player, session.version, action, autopilot=True, origin=AUTOMATIC
        )

    async def _refresh(self, session: Session) -> None:
        # The turn's own posts (pings, round summaries) go out before the table is redrawn.
        await self.manager.settle(session.id)
        try:
            await self.notifier.refresh(session)
        except Exception:
            log.exception("redrawing the table of session %s failed", session.id)
