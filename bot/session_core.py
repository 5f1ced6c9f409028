"""The session manager's core: live sessions, per-session locks, the store and listeners.

:class:`ManagerCore` holds the state every operation shares and the few steps they all take:
plan the next version (:meth:`ManagerCore._next`), apply one checked action
(:meth:`ManagerCore._apply`), store and swap in a new version (:meth:`ManagerCore._commit`)
and publish a :class:`Change`.

Publishing only queues: each session has an ordered queue of changes and, while it holds any,
one worker task that hands them to the listeners one at a time, in version order. So an
operation returns as soon as its change is stored, and the click that made it is answered
before the channel posts (table edit, pings, summaries) go out. :meth:`ManagerCore.settle`
waits for the queued publications; ``drain`` waits for them too.

The operations themselves live in ``bot.session_lobby``, ``bot.session_moves`` and
``bot.session_clock``; ``bot.manager.SessionManager`` combines them.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar

from pydantic import BaseModel

from bot import errors
from bot.deadlines import plan
from bot.errors import Refusal, SaveFailed
from bot.models import LIVE_STATUSES, Seat, Session, Status, utcnow
from bot.results import result_rows
from bot.sharding import ShardSet
from bot.store import Store
from bot.table_log import extend_log
from game.base import Engine, Event, IllegalAction, PlayerId, play, rng_for

log = logging.getLogger(__name__)

ChangeKind = Literal["lobby", "started", "action", "finished", "abandoned", "seat"]


@dataclass(frozen=True)
class Change:
    """What a listener receives after a stored change.

    ``kind``: ``lobby`` (opened, joined, left, table message set), ``started``, ``action``,
    ``finished`` (the action that ended the game; ``events`` included), ``abandoned``
    (cancelled, emptied, or idle on restart) or ``seat`` (in a running game a player left,
    went away or came back). ``origin`` is whatever the caller passed (the
    cogs pass the id of the message they re-render themselves, so the table publisher can skip
    a second edit).
    """

    kind: ChangeKind
    session: Session
    events: tuple[Event, ...] = ()
    actor: PlayerId | None = None
    origin: object = None


Listener = Callable[[Change], Awaitable[None]]
Clock = Callable[[], datetime]


@dataclass(frozen=True)
class RestoreReport:
    restored: int
    abandoned: int


Core = TypeVar("Core", bound="ManagerCore")
Params = ParamSpec("Params")
Result = TypeVar("Result")


def in_flight(
    method: Callable[Concatenate[Core, Params], Awaitable[Result]],
) -> Callable[Concatenate[Core, Params], Awaitable[Result]]:
    """Count the call as a change in flight (checks, store, queueing for the listeners) so
    ``drain`` waits for it."""

    @functools.wraps(method)
    async def wrapper(self: Core, *args: Params.args, **kwargs: Params.kwargs) -> Result:
        if self._closing:
            raise Refusal(errors.SHUTTING_DOWN)
        self._in_flight += 1
        self._idle.clear()
        try:
            return await method(self, *args, **kwargs)
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()

    return wrapper


class ManagerCore:
    """Owns every live (lobby or active) session; one per channel."""

    def __init__(
        self,
        store: Store,
        engines: Mapping[str, Engine[Any, Any]],
        *,
        clock: Clock = utcnow,
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
        game_seed: int | None = None,
        idle_after: timedelta = timedelta(days=7),
        turn_minutes: int = 0,
    ) -> None:
        """``game_seed`` (tests and replays only): every game's seed is derived from it and
        the session id instead of taken from ``seed_source``."""
        self.store = store
        self.turn_minutes = turn_minutes  # the turn clock of a new lobby unless it names one
        self.engines = dict(engines)
        self.clock = clock
        self._seed_source = seed_source
        self._game_seed = game_seed
        self._idle_after = idle_after
        self._sessions: dict[int, Session] = {}
        self._by_channel: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._open_lock = asyncio.Lock()
        self._listeners: list[Listener] = []
        self._outbox: dict[int, deque[Change]] = {}  # session id -> changes not yet published
        self._publishers: dict[int, asyncio.Task[None]] = {}  # session id -> its worker
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._closing = False

    # --- lookups --------------------------------------------------------------------------

    def get(self, session_id: int) -> Session | None:
        """The live session with this id, or None."""
        return self._sessions.get(session_id)

    def in_channel(self, channel_id: int) -> Session | None:
        """The live session of a channel (text channel or thread), or None."""
        session_id = self._by_channel.get(channel_id)
        return self._sessions.get(session_id) if session_id is not None else None

    def live_sessions(self) -> list[Session]:
        return list(self._sessions.values())

    def engine(self, game: str) -> Engine[Any, Any]:
        try:
            return self.engines[game]
        except KeyError:
            raise Refusal(errors.unknown_game(game)) from None

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(change)`` after every stored change (from the session's publish
        worker, in version order). A listener must not ``settle`` its own session."""
        self._listeners.append(listener)

    def seed_for(self, session_id: int) -> int:
        """The seed of the game dealt in session ``session_id``."""
        if self._game_seed is not None:
            return rng_for(self._game_seed, "session", session_id).getrandbits(63)
        return self._seed_source()

    # --- start-up and shutdown --------------------------------------------------------------

    async def restore(self, shards: ShardSet | None = None) -> RestoreReport:
        """Load every lobby and active session (of the guilds on ``shards`` when given); mark
        the idle ones (and unknown games) abandoned.

        The cyclic garbage collector is paused meanwhile: decoding thousands of snapshots
        allocates millions of objects, and its passes over the growing heap would take most of
        the time. Afterwards the restored sessions (with the rest of the start-up heap) are
        frozen (``gc.freeze``): they are long-lived, and later full collections need not
        traverse them again; refcounting still frees them when their game ends.
        """
        collecting = gc.isenabled()
        gc.disable()
        try:
            report = await self._restore(shards)
        finally:
            if collecting:
                gc.enable()
        gc.freeze()
        log.info("restored %d sessions, abandoned %d", report.restored, report.abandoned)
        return report

    async def _restore(self, shards: ShardSet | None) -> RestoreReport:
        now = self.clock()
        restored = abandoned = 0
        for stored in await self.store.load_sessions(LIVE_STATUSES, raw_state=True,
                                                     shards=shards):
            engine = self.engines.get(stored.game)
            idle = now - stored.updated_at > self._idle_after
            if engine is None or idle:
                state = json.loads(stored.state) if stored.state is not None else None
                await self.store.save_session(
                    replace(stored, state=state, status=Status.ABANDONED,
                            version=stored.version + 1, updated_at=now)
                )
                abandoned += 1
                log.info("session %s (%s) abandoned on start: %s", stored.id, stored.game,
                         "idle" if engine else "unknown game")
                continue
            state = (
                engine.state_model.model_validate_json(stored.state)
                if stored.state is not None
                else None
            )
            self._register(replace(stored, state=state))
            restored += 1
        return RestoreReport(restored, abandoned)

    async def drain(self) -> None:
        """Refuse new changes and wait until the ones in flight are stored and published."""
        self._closing = True
        await self._idle.wait()
        await self.settle()

    async def settle(self, session_id: int | None = None) -> None:
        """Wait until every change queued so far (of ``session_id``, or of every session) has
        been handed to the listeners, and any queued meanwhile too."""
        while True:
            if session_id is None:
                workers = list(self._publishers.values())
            else:
                worker = self._publishers.get(session_id)
                workers = [worker] if worker is not None else []
            if not workers:
                return
            # asyncio.wait, unlike gather, leaves the workers running if the caller is cancelled.
            await asyncio.wait(workers)

    # --- the steps every operation shares ----------------------------------------------------

    async def _apply(
        self,
        session: Session,
        engine: Engine[Any, Any],
        player_id: PlayerId,
        parsed: BaseModel,
        seats: tuple[Seat, ...],
        origin: object,
    ) -> Change:
        """Apply, store and swap in one checked action (under the session lock)."""
        try:
            state, events = play(engine, session.state, player_id, parsed)
        except IllegalAction as err:
            raise Refusal(str(err)) from None
        finished = engine.is_over(state)
        new = self._next(
            session,
            state=state,
            status=Status.FINISHED if finished else Status.ACTIVE,
            log=extend_log(session, engine, events),
            seats=seats,
            actor=player_id,
        )
        results = result_rows(new, engine) if finished else []
        await self._store_then_swap(
            self.store.record_action(new, player_id, parsed.model_dump(mode="json"), results), new
        )
        log.debug("session %s: action by %s -> version %s", new.id, player_id, new.version)
        if finished:
            log.info("session %s: %s finished: %s", new.id, new.game,
                     ", ".join(f"{r.user_id} #{r.placement} ({r.score})" for r in results))
        return Change("finished" if finished else "action", new, tuple(events), player_id, origin)

    def _next(self, session: Session, *, actor: PlayerId | None = None, **changes: Any) -> Session:
        """The next version of ``session``, with its turn deadlines planned for the new state."""
        now = self.clock()
        new = replace(session, version=session.version + 1, updated_at=now, **changes)
        engine = self.engines.get(new.game)
        if new.status is not Status.ACTIVE or new.state is None or engine is None:
            return replace(new, deadlines=()) if new.deadlines else new
        deadlines = plan(
            session.deadlines, engine.awaiting(new.state), new.seats,
            actor=actor, now=now, minutes=new.turn_minutes,
        )
        return replace(new, deadlines=deadlines)

    async def _commit(self, new: Session) -> None:
        """Store ``new`` (a session row change, no action) and make it the live version."""
        await self._store_then_swap(self.store.save_session(new), new)

    def _register(self, session: Session) -> None:
        self._sessions[session.id] = session
        self._by_channel[session.channel_id] = session.id
        self._locks.setdefault(session.id, asyncio.Lock())

    def _swap(self, session: Session) -> None:
        if session.is_live:
            self._register(session)
            return
        self._sessions.pop(session.id, None)
        if self._by_channel.get(session.channel_id) == session.id:
            del self._by_channel[session.channel_id]
        self._locks.pop(session.id, None)

    async def _store_then_swap(self, write: Awaitable[object], new: Session) -> None:
        """Store ``new``, then make it the live version. A caller cancelled meanwhile does not
        stop it halfway (a stored row without the swap would make every later write collide
        with it): the step finishes, still under the session lock, before the cancellation
        goes on."""

        async def step() -> None:
            await self._save(write)
            self._swap(new)

        task = asyncio.ensure_future(step())
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            await asyncio.wait([task])
            if not task.cancelled():
                task.exception()  # retrieved: the caller sees its cancellation instead
            raise

    async def _save(self, write: Awaitable[Result]) -> Result:
        try:
            return await write
        except Exception:
            log.exception("storing a session change failed")
            raise SaveFailed(errors.SAVE_FAILED) from None

    def _locked(self, session_id: int) -> _SessionLock:
        return _SessionLock(self, session_id)

    def _publish(self, change: Change) -> None:
        """Queue ``change`` for the listeners; called under the session lock (or right after
        the store wrote it, for a new lobby), so a session's queue is in version order."""
        session_id = change.session.id
        queue = self._outbox.setdefault(session_id, deque())
        queue.append(change)
        if session_id not in self._publishers:
            self._publishers[session_id] = asyncio.create_task(
                self._deliver(session_id, queue), name=f"publish-{session_id}"
            )

    async def _deliver(self, session_id: int, queue: deque[Change]) -> None:
        """The session's publish worker: one change at a time, until its queue is empty."""
        try:
            while queue:
                await self._notify(queue.popleft())
        finally:
            # No await between the empty check and here: nothing can be queued unseen.
            del self._outbox[session_id]
            del self._publishers[session_id]

    async def _notify(self, change: Change) -> None:
        for listener in list(self._listeners):
            try:
                await listener(change)
            except Exception:
                log.exception("listener %r failed on %s of session %s",
                              listener, change.kind, change.session.id)


class _SessionLock:
    """``async with``: hold the session's lock and yield its current live version."""

    def __init__(self, manager: ManagerCore, session_id: int) -> None:
        self._manager = manager
        self._session_id = session_id
        self._lock: asyncio.Lock | None = None

    async def __aenter__(self) -> Session:
        lock = self._manager._locks.get(self._session_id)
        if lock is None:
            raise Refusal(errors.NO_GAME)
        await lock.acquire()
        self._lock = lock
        session = self._manager._sessions.get(self._session_id)
        if session is None:  # ended while we waited for the lock
            await self.__aexit__()
            raise Refusal(errors.NO_GAME)
        return session

    async def __aexit__(self, *exc: object) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None
