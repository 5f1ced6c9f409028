"""This process's share of Discord's global rate limit: the globally-limited requests the cogs
make (channel posts, edits, deletions) wait here for a slot; interaction answers never do.

Discord allows one bot token 50 requests per second in all, shared by every process and shard
of the bot; interaction endpoints (the callback, follow-ups and their edits made with the
interaction's token) are not bound to it (https://discord.com/developers/docs/topics/rate-limits,
"Global Rate Limit"). ``GLOBAL_RATE_SHARE`` gives this process its part (1.0: all of it; 0.5
for each of two processes), :func:`budget_for_share` turns it into slots.

The slots form a sliding window: at most ``limit`` requests start within any ``window``
seconds, which keeps Discord's fixed one-second windows under the limit too (the window is a
little longer than Discord's, so that a request that left last in one of our windows and
arrives late is still counted in the right one). Requests start in the order they asked, so
messages keep their order and none is dropped; only a request that names a ``key`` (the edit
of one message) and finds one of the same key still waiting takes that one's place: the
waiting edit would be overwritten at once, so only the newest state goes out, and both callers
get its outcome. :attr:`RequestBudget.near` tells the callers when the budget is almost spent,
so they can stop waiting for edits they need not see done.

Discord-free and game-agnostic: a request is any coroutine function.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.ops.metrics import METRICS, Metrics

DISCORD_GLOBAL_PER_SECOND = 50  # per bot token (Discord's rate-limit documentation)
WINDOW = 1.1  # seconds; Discord's window is one second (see the module's doc for the tenth)
NEAR = 0.8  # the share of the slots in use (and waiting) from which the budget is "near"

Result = TypeVar("Result")
Call = Callable[[], Awaitable[Any]]


@dataclass
class _Waiting:
    call: Call
    key: Hashable | None
    done: asyncio.Future[Any] = field(default_factory=lambda: asyncio.get_running_loop()
                                      .create_future())
    callers: int = 1


class RequestBudget:
    """At most ``limit`` requests started per ``window`` seconds, in order, edits merged."""

    def __init__(
        self,
        limit: int,
        window: float = WINDOW,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        metrics: Metrics = METRICS,
    ) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("a budget needs at least one request per window")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._sleep = sleep
        self._metrics = metrics
        self._started: deque[float] = deque()  # start times within the last window
        self._queue: deque[_Waiting] = deque()
        self._keyed: dict[Hashable, _Waiting] = {}
        self._pump: asyncio.Task[None] | None = None
        self._running: set[asyncio.Future[Any]] = set()
        self.started = 0  # requests started through the budget
        self.merged = 0  # requests that took a waiting one's place (one request saved each)
        self.waited = 0  # requests that could not start at once

    # --- what the callers read --------------------------------------------------------------

    def used(self) -> int:
        """Requests started within the last window."""
        self._expire(self._clock())
        return len(self._started)

    @property
    def waiting(self) -> int:
        return len(self._queue)

    @property
    def near(self) -> bool:
        """Whether the slots in use and the requests waiting reach :data:`NEAR` of the
        budget."""
        return self.used() + len(self._queue) >= NEAR * self.limit

    # --- requests -----------------------------------------------------------------------------

    async def run(self, call: Callable[[], Awaitable[Result]], *,
                  key: Hashable | None = None) -> Result:
        """Make the request ``call`` in its turn and return its outcome (or raise its error).
        ``key``: a waiting request of the same key is replaced by this one."""
        if not self._queue and self._free():
            self._take()
            return await call()
        result: Result = await self._enqueue(call, key)
        return result

    def submit(self, call: Call, *, key: Hashable | None = None) -> asyncio.Future[Any]:
        """Queue ``call`` without waiting for it (its error, if any, is kept on the future,
        which the budget retrieves so that nothing is logged as never retrieved)."""
        if not self._queue and self._free():
            self._take()
            waiting = _Waiting(call, key)
            waiting.done.add_done_callback(_retrieve)
            self._start(waiting)
            return waiting.done
        future = self._enqueue(call, key)
        self._running.add(future)
        future.add_done_callback(self._running.discard)
        return future

    async def drain(self) -> None:
        """Wait until every queued and running request is done (shutdown)."""
        while self._queue or self._running or (self._pump is not None and not self._pump.done()):
            pending = [*self._running, *([self._pump] if self._pump is not None else [])]
            if not pending:
                await asyncio.sleep(0)
                continue
            await asyncio.wait(pending)

    # --- internals ----------------------------------------------------------------------------

    def _enqueue(self, call: Call, key: Hashable | None) -> asyncio.Future[Any]:
        waiting = self._keyed.get(key) if key is not None else None
        if waiting is not None:
            waiting.call = call  # the newest state only: the older edit is never made
            waiting.callers += 1
            self.merged += 1
            self._metrics.global_merged.inc()
            return waiting.done
        waiting = _Waiting(call, key)
        waiting.done.add_done_callback(_retrieve)
        self._queue.append(waiting)
        if key is not None:
            self._keyed[key] = waiting
        self.waited += 1
        self._metrics.global_waited.inc()
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._serve(), name="request-budget")
        return waiting.done

    async def _serve(self) -> None:
        while self._queue:
            wait = self._wait()
            if wait > 0:
                await self._sleep(wait)
                continue
            waiting = self._queue.popleft()
            if waiting.key is not None:
                self._keyed.pop(waiting.key, None)
            self._take()
            self._start(waiting)

    def _start(self, waiting: _Waiting) -> None:
        task = asyncio.create_task(self._make(waiting))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    @staticmethod
    async def _make(waiting: _Waiting) -> None:
        try:
            result = await waiting.call()
        except asyncio.CancelledError:
            waiting.done.cancel()
            raise
        except Exception as error:  # the callers get it, as from a direct call
            if not waiting.done.done():
                waiting.done.set_exception(error)
            return
        if not waiting.done.done():
            waiting.done.set_result(result)

    def _expire(self, now: float) -> None:
        while self._started and now - self._started[0] >= self.window:
            self._started.popleft()

    def _free(self) -> bool:
        self._expire(self._clock())
        return len(self._started) < self.limit

    def _wait(self) -> float:
        """Seconds until a slot is free (0: one is)."""
        now = self._clock()
        self._expire(now)
        if len(self._started) < self.limit:
            return 0.0
        return max(self._started[0] + self.window - now, 1e-3)

    def _take(self) -> None:
        self._started.append(self._clock())
        self.started += 1
        self._metrics.global_budgeted.inc()


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


def budget_for_share(share: float, **options: Any) -> RequestBudget:
    """The budget of a process that may use ``share`` (0 < share <= 1) of Discord's global
    limit."""
    if not 0 < share <= 1:
        raise ValueError("GLOBAL_RATE_SHARE is a share of Discord's limit: above 0, at most 1")
    return RequestBudget(max(1, math.floor(DISCORD_GLOBAL_PER_SECOND * share)), **options)
