"""When reviews are computed, and where they are kept.

A review is **queued when a game ends**, for each human seat (a manager listener, like the
machine seats): a player who opens it minutes later usually finds it ready, and the
low-priority worker uses CPU that nothing else wants. It is also queued on the first request
for a game that ended before reviews existed, and only then with ``REVIEW_AT_END`` off (a
host that would rather spend CPU only on the reviews players open). Each is stored once
(``Store.finish_review`` only writes a pending row) and never recomputed; a row left pending
by a crash or a stop is queued again at the next start (:meth:`Reviewer.resume`).

Reviews run one after another per worker (``REVIEW_WORKERS``), each in the low-priority
pool (``bot.reviews.pool``) under ``REVIEW_CPU_SECONDS`` of CPU. Whoever asked for one that
is not ready yet may :meth:`Reviewer.wait` for it.
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
        clock: Callable[[], datetime], *, shards: ShardSet | None = None, at_end: bool = True,
    ) -> None:
        self._store = store
        self._pool = pool
        self.cpu_seconds = cpu_seconds
        self._clock = clock
        self._shards = shards
        self.at_end = at_end  # queue each human seat's review when a game ends
        self._queue: asyncio.Queue[Key] = asyncio.Queue()
        self._queued: set[Key] = set()
        self._waiters: dict[Key, list[asyncio.Future[Stored]]] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Start the loop that hands queued reviews to the workers (one per worker)."""
        if not self._tasks:
            self._tasks = [asyncio.create_task(self._run(), name=f"reviews-{n}")
                           for n in range(self._pool.workers)]

    async def resume(self) -> int:
        """Queue the reviews a stop or a crash left pending; returns how many."""
        pending = await self._store.pending_reviews(shards=self._shards)
        for key in pending:
            self._put(key)
        if pending:
            log.info("reviews: %d pending review(s) queued again", len(pending))
        return len(pending)

    async def on_change(self, change: Change) -> None:
        """A manager listener: when a game ends, each human seat's review is queued."""
        session = change.session
        if (not self.at_end or change.kind != ChangeKind.FINISHED
                or session.status is not Status.FINISHED):
            return
        for seat in session.seats:
            if not seat.is_bot:
                await self.request(session.id, seat.player_id)

    async def stored(self, session_id: int, player: str) -> Stored | None:
        row = await self._store.stored_review(session_id, player)
        return None if row is None else _stored(row)

    async def request(self, session_id: int, player: str) -> Stored:
        """The stored review, or its pending row (then queued, unless it is already)."""
        row = await self._store.stored_review(session_id, player)  # a read: pages are clicked
        if row is None:
            row = await self._store.queue_review(session_id, player, at=self._clock())
        stored = _stored(row)
        if stored.status == PENDING:
            self._put((session_id, player))
        return stored

    async def wait(self, session_id: int, player: str) -> Stored:
        """The review once it is stored (done or failed); queue it if nobody did."""
        key = (session_id, player)
        future: asyncio.Future[Stored] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(key, []).append(future)
        try:
            stored = await self.request(session_id, player)
            if stored.status != PENDING:
                return stored
            return await future
        finally:
            waiters = self._waiters.get(key, [])
            if future in waiters:
                waiters.remove(future)
            if not waiters:
                self._waiters.pop(key, None)

    def _put(self, key: Key) -> None:
        if key not in self._queued:
            self._queued.add(key)
            self._queue.put_nowait(key)

    async def _run(self) -> None:
        while True:
            key = await self._queue.get()
            try:
                stored = await self._compute(*key)
            except asyncio.CancelledError:
                raise
            except Exception:  # a worker died: the row stays pending, redone at next start
                log.exception("review of session %s failed", key[0])
                continue
            finally:
                self._queued.discard(key)
            for future in self._waiters.get(key, []):
                if not future.done():
                    future.set_result(stored)

    async def _compute(self, session_id: int, player: str) -> Stored:
        stored = await self.stored(session_id, player)
        if stored is not None and stored.status != PENDING:
            return stored  # stored meanwhile (another process): never recomputed
        try:
            export = await export_session(self._store, session_id)
        except Refusal:
            body = None  # the game is gone or never finished
        else:
            body = await self._pool.review(dump_export(export), player, self.cpu_seconds)
        await self._store.finish_review(session_id, player, body, at=self._clock())
        stored = await self.stored(session_id, player)
        assert stored is not None
        review = stored.review
        log.info("review of session %s stored (%s; %.1f CPU s)", session_id, stored.status,
                 review.cpu_seconds if review else 0.0)
        return stored

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
