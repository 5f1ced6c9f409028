"""Machine players: bot seats, and the seats of players who are away or left the game.

A manager listener. When the game waits for a seat that a machine plays, it starts one worker
task for that session (never more), which moves through ``SessionManager.act`` like any
player (every move stored and logged) until the game waits only for humans. Working in a task
of its own keeps a long run of bot moves off the listener call stack.

Moves are paced (``pace`` seconds through the injectable ``sleep``; tests pass a no-op; a
private table's are not, its player sees each run once it is over) and
made with ``origin=AUTOMATIC``; the table is redrawn through the notifier once per bot turn,
when the game stops waiting for that seat. Bot seats play their own level; away and left
players are played at "normal". Expert moves are searched in the bot's process pool
(``bot.automation.decision_pool``, when one is given) so the event loop stays free. The random
generator of a move is derived from the game seed, the version and the seat, so a restarted process
makes the same choices (an expert move in the pool: unless its deadline cut the search short).

Nothing else would ever move a machine's seat (they have no turn clock), so a worker does not
give up on a failure that may pass: a failed save, or an unexpected error, is tried again after
a delay that doubles up to ``MAX_RETRY_DELAY``. A move the engine itself refuses (an engine
bug) is replaced once by the engine's default move; if that is refused too, the worker stops
with an ERROR log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.automation.decision_pool import POOLED_LEVELS, DecisionPool, move_rng
from bot.automation.notices import Notifier, SilentNotifier
from bot.records.change import AUTOMATIC, Change
from bot.records.errors import SaveFailed, StaleVersion, TableError
from bot.records.session import Session, Status
from bot.sessions.manager import BOT_LEVELS, SessionManager
from game.base import IllegalAction, PlayerId

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[object]]
DEFAULT_PACE = 1.0  # seconds between two machine moves
STAND_IN_LEVEL = "normal"  # how a machine plays for a player who is away or left
FIRST_RETRY_DELAY = 1.0  # seconds before trying again after a failure; doubles each time
MAX_RETRY_DELAY = 60.0


def retry_delay(failures: int) -> float:
    """The wait before the next try, after ``failures`` (>= 1) failures in a row."""
    return min(FIRST_RETRY_DELAY * 2 ** (failures - 1), MAX_RETRY_DELAY)


class Autoplay:
    def __init__(
        self,
        manager: SessionManager,
        *,
        notifier: Notifier | None = None,
        sleep: Sleep = asyncio.sleep,
        pace: float = DEFAULT_PACE,
        decisions: DecisionPool | None = None,
    ) -> None:
        self.manager = manager
        self.decisions = decisions  # None: every move is decided in the loop (tests)
        self.notifier = notifier or SilentNotifier()
        self._sleep = sleep
        self.pace = pace
        self._tasks: dict[int, asyncio.Task[None]] = {}

    # --- driving ------------------------------------------------------------------------------

    async def on_change(self, change: Change) -> None:
        """The manager listener: start a worker when a machine has a move to make (whom the
        game awaits comes with the change)."""
        if self.machine_of(change.session, change.awaiting) is not None:
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
        session = self.manager.get(session_id)
        # The worker's log lines name the session and its shard (a task keeps the context
        # it was started in).
        with self.manager.log_bound(session) if session is not None else contextlib.nullcontext():
            task = asyncio.create_task(self._work(session_id), name=f"autoplay-{session_id}")
        self._tasks[session_id] = task
        task.add_done_callback(lambda done: self._forget(session_id, done))

    def _forget(self, session_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(session_id) is task:
            del self._tasks[session_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("the machine player of session %s stopped", session_id,
                      exc_info=task.exception())

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
        if session is None:
            return None
        return self.machine_of(session, self.manager.awaiting(session))

    @staticmethod
    def machine_of(session: Session, awaiting: Sequence[PlayerId]) -> PlayerId | None:
        """The first seat of ``awaiting`` (whom ``session``'s game awaits) that a machine
        plays, or None."""
        if session.status is not Status.ACTIVE:
            return None
        for player in awaiting:
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

    async def _work(self, session_id: int) -> None:
        """The worker: :meth:`_run`, started again after an unexpected error."""
        failures = 0
        while True:
            try:
                await self._run(session_id)
                return
            except Exception:  # whatever failed, the seat is retried after a back-off
                failures += 1
                delay = retry_delay(failures)
                log.exception("the machine player of session %s failed; again in %.0f s",
                              session_id, delay)
                await self._sleep(delay)

    async def _run(self, session_id: int) -> None:
        turn_of: PlayerId | None = None  # the seat whose turn runs and is not redrawn yet
        latest: Session | None = None
        failed_saves = 0
        refused_at: int | None = None  # the version at which the engine's bot move was refused
        while True:
            live = self.manager.get(session_id)
            player = self.next_player(live)
            if turn_of is not None and player != turn_of:
                assert latest is not None
                turn_of = None
                await self._refresh(latest)
                continue  # look again: things may have changed while we redrew
            if player is None:
                return
            if live is not None and not live.is_private:
                # A private table shows a machine's run once it is over: nobody watches it.
                await self._sleep(self.pace)
            session = self.manager.get(session_id)
            if session is None or self.next_player(session) != player:
                continue
            fallback = refused_at == session.version
            try:
                change = await self._move(session, player, fallback=fallback)
            except StaleVersion:
                continue  # a human moved or came back meanwhile
            except SaveFailed:
                failed_saves += 1
                delay = retry_delay(failed_saves)
                log.warning("session %s: a machine move for %s was not stored; again in %.0f s",
                            session_id, player, delay)
                await self._sleep(delay)
                continue
            except (TableError, IllegalAction) as err:
                if self.manager.closing:
                    return  # shutting down: the move is made again after the restart
                # The text can come from the engine and name a player's cards: DEBUG only.
                log.debug("session %s: machine move for %s refused: %s", session_id, player, err)
                if not fallback:
                    log.warning("session %s: the machine's move for %s was refused (%s); "
                                "playing the default move", session_id, player,
                                type(err).__name__)
                    refused_at = session.version
                    continue
                log.error("session %s: the machine could not move for %s (%s); it stops",
                          session_id, player, type(err).__name__)
                if turn_of is not None and latest is not None:
                    await self._refresh(latest)
                return
            failed_saves = 0
            latest, turn_of = change.session, player

    async def _move(self, session: Session, player: PlayerId, *, fallback: bool = False) -> Change:
        engine = self.manager.engine(session.game)
        if fallback:
            action = engine.default_action(session.state, player)
        else:
            rng = move_rng(session.state.seed, session.version, player)
            level = self.level_of(session, player)
            if self.decisions is not None and level in POOLED_LEVELS:
                action = await self.decisions.bot_action(
                    session.game, session.state, player, level, rng
                )
            else:
                action = engine.bot_action(session.state, player, level, rng)
        return await self.manager.act(
            session.id, player, session.version, action, autopilot=True, origin=AUTOMATIC
        )

    async def _refresh(self, session: Session) -> None:
        # The turn's own posts (pings, round summaries) go out before the table is redrawn.
        await self.manager.settle(session.id)
        try:
            await self.notifier.refresh(session)
        except Exception:  # a failed redraw (Discord) must not stop the machine seats
            log.exception("redrawing the table of session %s failed", session.id)
