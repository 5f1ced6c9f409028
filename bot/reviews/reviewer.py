"""When reviews are computed, and where they are kept.

A review costs seconds of CPU (``REVIEW_CPU_SECONDS`` at most), about as much as all the rest
of a whole game's work at the bot, so by default (``REVIEW_AT_END`` off) it is computed only
when its player **first asks for it** (My review): the CPU goes to the reviews players open.
With ``REVIEW_AT_END`` on, each human seat's review is also queued when a game ends, but only
while the backlog is under half of its bound (the other half stays free for the reviews players
ask for); past that the game's reviews at the end are dropped (nothing stored: a player who
asks later gets theirs computed then). It is also queued again when a stop or a crash left it
pending (:meth:`Reviewer.resume`, up to the bound). Each is stored once
(``Store.finish_review`` only writes a pending row) and never recomputed.

The backlog (the reviews queued or being computed, ``REVIEW_BACKLOG``) is bounded, so the
pending reviews cannot grow without bound when games end faster than the workers review them:
a request past the bound is not queued and nothing is stored; its player is told the reviews
are busy (:data:`BUSY`) and may ask again. The reviews of one game queued together are computed
in one job (one export read and sent, one worker round trip).

Reviews run one job after another per worker (``REVIEW_WORKERS``), each in the low-priority
pool (``bot.reviews.pool``: niceness 19, ``SCHED_IDLE``, so they take only CPU nothing else
wants) under ``REVIEW_CPU_SECONDS`` of CPU per player. Whoever asked for one that is not ready
yet may :meth:`Reviewer.wait` for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.records.change import Change, ChangeKind
from bot.records.errors import Refusal
from bot.records.session import Status
from bot.records.shards import ShardSet
from bot.reviews.model import Review
from bot.reviews.pool import ReviewPool
from bot.sessions.export import dump_export, export_session
from bot.store import Store

log = logging.getLogger(__name__)

Key = tuple[int, str]  # (session id, player id)

PENDING = "pending"
DONE = "done"
FAILED = "failed"
BUSY = "busy"  # not stored: the backlog was full when it was asked for, nothing was queued
DEFAULT_BACKLOG = 20


@dataclass(frozen=True)
class Stored:
    """A review's row: ``status`` (pending, done, failed) and, once done, the review."""

    status: str
    review: Review | None = None


def _stored(row: tuple[str, str | None]) -> Stored:
    status, body = row
    return Stored(status, Review.model_validate_json(body) if body is not None else None)


class Reviewer:
    """The queue of reviews to compute, its workers' loop, and the waiters."""

    def __init__(
        self, store: Store, pool: ReviewPool, cpu_seconds: float,
        clock: Callable[[], datetime], *, shards: ShardSet | None = None, at_end: bool = False,
        backlog: int = DEFAULT_BACKLOG,
    ) -> None:
        self._store = store
        self._pool = pool
        self.cpu_seconds = cpu_seconds
        self._clock = clock
        self._shards = shards
        self.at_end = at_end  # queue each human seat's review when a game ends
        self.backlog = backlog  # reviews queued or being computed, at most
        # Session id -> its players whose reviews wait for a worker, oldest session first.
        self._waiting: dict[int, list[str]] = {}
        self._ready = asyncio.Event()  # set while something waits
        self._queued: set[Key] = set()  # waiting or being computed
        self._waiters: dict[Key, list[asyncio.Future[Stored]]] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Start the loop that hands queued reviews to the workers (one per worker)."""
        if not self._tasks:
            self._tasks = [asyncio.create_task(self._run(), name=f"reviews-{n}")
                           for n in range(self._pool.workers)]

    @property
    def queued(self) -> int:
        """Reviews queued or being computed (at most :attr:`backlog`)."""
        return len(self._queued)

    async def resume(self) -> int:
        """Queue the reviews a stop or a crash left pending, oldest first, as many as the
        backlog takes (the others stay pending: each is queued when its player asks);
        returns how many were queued."""
        pending = await self._store.pending_reviews(shards=self._shards)
        queued = sum(1 for key in pending if self._put(key))
        if pending:
            log.info("reviews: %d pending review(s) queued again, %d left until asked for",
                     queued, len(pending) - queued)
        return queued

    async def on_change(self, change: Change) -> None:
        """A manager listener: with ``at_end``, when a game ends each human seat's review is
        queued, while the backlog is under half its bound (else they are dropped)."""
        session = change.session
        if (not self.at_end or change.kind != ChangeKind.FINISHED
                or session.status is not Status.FINISHED):
            return
        humans = [seat.player_id for seat in session.seats if not seat.is_bot]
        if self.queued + len(humans) > self.backlog // 2:
            log.info("reviews: backlog %d of %d, the reviews at the end of session %s dropped"
                     " (computed when asked for)", self.queued, self.backlog, session.id)
            return
        for player in humans:
            await self.request(session.id, player)

    async def stored(self, session_id: int, player: str) -> Stored | None:
        row = await self._store.stored_review(session_id, player)
        return None if row is None else _stored(row)

    async def request(self, session_id: int, player: str) -> Stored:
        """The stored review, or its pending row (then queued, unless it is already), or
        :data:`BUSY` (nothing stored or queued) when the backlog is full."""
        key = (session_id, player)
        row = await self._store.stored_review(session_id, player)  # a read: pages are clicked
        if (row is None or row[0] == PENDING) and not self._has_room(key):
            return Stored(BUSY)
        if row is None:
            row = await self._store.queue_review(session_id, player, at=self._clock())
        stored = _stored(row)
        if stored.status == PENDING and not self._put(key):
            return Stored(BUSY)  # the backlog filled up during the write
        return stored

    async def wait(self, session_id: int, player: str) -> Stored:
        """The review once it is stored (done or failed); queue it if nobody did."""
        key = (session_id, player)
        future: asyncio.Future[Stored] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(key, []).append(future)
        try:
            stored = await self.request(session_id, player)
            if stored.status != PENDING:
                return stored  # stored, or BUSY
            return await future
        finally:
            waiters = self._waiters.get(key, [])
            if future in waiters:
                waiters.remove(future)
            if not waiters:
                self._waiters.pop(key, None)

    def _has_room(self, key: Key) -> bool:
        return key in self._queued or len(self._queued) < self.backlog

    def _put(self, key: Key) -> bool:
        """Queue ``key`` unless it is already; False when the backlog has no room for it."""
        if key in self._queued:
            return True
        if len(self._queued) >= self.backlog:
            return False
        self._queued.add(key)
        self._waiting.setdefault(key[0], []).append(key[1])
        self._ready.set()
        return True

    async def _next_game(self) -> tuple[int, list[str]]:
        """The oldest waiting session and its players waiting for a review (taken together:
        one job)."""
        while not self._waiting:
            self._ready.clear()
            await self._ready.wait()
        session_id = next(iter(self._waiting))
        return session_id, self._waiting.pop(session_id)

    async def _run(self) -> None:
        while True:
            session_id, players = await self._next_game()
            try:
                done = await self._compute(session_id, players)
            except asyncio.CancelledError:
                raise
            except Exception:  # a worker died: the rows stay pending, redone when asked
                log.exception("review of session %s failed", session_id)
                done = {}
            finally:
                self._queued.difference_update((session_id, player) for player in players)
            for player, stored in done.items():
                for future in self._waiters.get((session_id, player), []):
                    if not future.done():
                        future.set_result(stored)

    async def _compute(self, session_id: int, players: list[str]) -> dict[str, Stored]:
        """Compute and store the reviews of ``players`` in ``session_id`` (those not stored
        meanwhile by another process: never recomputed), in one job."""
        done: dict[str, Stored] = {}
        todo: list[str] = []
        for player in players:
            stored = await self.stored(session_id, player)
            if stored is not None and stored.status != PENDING:
                done[player] = stored
            else:
                todo.append(player)
        if not todo:
            return done
        try:
            export = await export_session(self._store, session_id)
        except Refusal:
            bodies: dict[str, str | None] = dict.fromkeys(todo)  # gone or never finished
        else:
            bodies = await self._pool.reviews(dump_export(export), todo, self.cpu_seconds)
        for player in todo:
            await self._store.finish_review(session_id, player, bodies.get(player),
                                            at=self._clock())
            self._queued.discard((session_id, player))  # stored: its place is free at once
            stored = await self.stored(session_id, player)
            assert stored is not None
            review = stored.review
            log.info("review of session %s stored (%s; %.1f CPU s)", session_id,
                     stored.status, review.cpu_seconds if review else 0.0)
            done[player] = stored
        return done

    async def close(self) -> None:
        """Stop the loop and the workers; reviews not stored stay pending."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        for futures in self._waiters.values():
            for future in futures:
                future.cancel()
        await self._pool.close()
