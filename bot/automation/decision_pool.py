"""Expert decisions off the event loop: a process pool owned by the bot process.

An expert move is a search of up to a few hundred milliseconds of CPU; made in the event loop
it would hold up every other table's interactions. :class:`DecisionPool` runs it in a worker
process instead (``EXPERT_WORKERS`` of them, started on the first expert move), and the loop
only awaits the answer.

Each decision has a hard deadline (``EXPERT_DEADLINE_MS``): :class:`Deadline` is a
``game.search`` budget that watches the worker's monotonic clock (``game/`` never reads the
clock), so a search the deadline cuts returns its best move so far. The level's own
simulation count still caps the search, so on an idle machine the move depends only on the
random generator (derived from the game seed, version and seat). Moves are stored in the
action log, so a replay or a restart reads them back; only a move decided afresh after a
crash, and cut by the deadline the first time, may come out different.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from bot.automation.hints import Hint, advise
from bot.ops.metrics import METRICS
from game.base import PlayerId, rng_for
from game.registry import engines

log = logging.getLogger(__name__)

# Levels whose moves are worth a trip to the pool; the others are decided in the loop.
POOLED_LEVELS = frozenset({"expert"})
CLOSE_WAIT = 3.0  # seconds the workers get to stop on shutdown
PARENT_CHECK = 1.0  # seconds between a worker's looks at whether its parent still runs


@dataclass(frozen=True)
class Deadline:
    """A search budget: once ``time.monotonic()`` reached ``until`` no simulation starts, and
    the one under way is abandoned at its playout's next check (``game.search.interrupt``)."""

    until: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(time.monotonic() + seconds)

    def exhausted(self, simulations: int) -> bool:
        return time.monotonic() >= self.until


def move_rng(seed: int, version: int, player: PlayerId) -> random.Random:
    """The generator of a machine move for ``player`` at ``version`` of the game dealt from
    ``seed`` (``bot.automation.autoplay``), and of a hint for that seat then."""
    return rng_for(seed, "autoplay", version, player)


def decide(
    game: str, state: Any, player: PlayerId, level: str, rng: random.Random, seconds: float
) -> Any:
    """One machine move, within ``seconds`` from now (what a worker process runs)."""
    return engines()[game].bot_action(state, player, level, rng, Deadline.after(seconds))


def suggest(game: str, state: Any, player: PlayerId, rng: random.Random, seconds: float) -> Hint:
    """The expert's hint for ``player``, within ``seconds`` from now (a worker runs it)."""
    return advise(game, state, player, rng, Deadline.after(seconds))


def _worker_start() -> None:
    # Ctrl-C reaches the whole process group: the parent shuts the pool down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A parent killed outright (SIGKILL, out of memory) cannot: then the worker goes too.
    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)


class DecisionPool:
    """``workers`` processes for machine moves; created on first use, closed by
    :meth:`close` (waits for the decisions under way, each bounded by its deadline)."""

    def __init__(self, workers: int, deadline: float) -> None:
        self.workers = workers
        self.deadline = deadline  # seconds per decision
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    @property
    def started(self) -> bool:
        """Whether the worker processes run (they start with the first pooled move)."""
        return self._pool is not None

    def _executor(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the decision pool is closed")
        if self._pool is None:
            # "spawn": a forked copy of a process with threads and an event loop is unsafe.
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
            )
            log.info("machine moves: %d decision worker process(es), deadline %.0f ms",
                     self.workers, self.deadline * 1000)
        return self._pool

    async def bot_action(
        self, game: str, state: Any, player: PlayerId, level: str, rng: random.Random
    ) -> Any:
        """The engine's ``bot_action``, run in a worker under the deadline."""
        with METRICS.timed(METRICS.expert_decision, game=game):
            return await self._run(decide, game, state, player, level, rng, self.deadline)

    async def hint(self, game: str, state: Any, player: PlayerId, rng: random.Random) -> Hint:
        """The expert's hint for ``player`` (``bot.automation.hints``): the expert seat's
        search, run in a worker under the same deadline; only its summary comes back."""
        result: Hint = await self._run(suggest, game, state, player, rng, self.deadline)
        return result

    async def _run(self, work: Any, *args: Any) -> Any:
        pool = self._executor()
        loop = asyncio.get_running_loop()
        try:
            with METRICS.expert_in_progress.track_inprogress():
                return await loop.run_in_executor(pool, work, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next move gets a fresh pool.
            log.warning("a decision worker died; the pool is started again")
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    async def close(self) -> None:
        """Stop the workers: the searches under way may finish within ``CLOSE_WAIT``
        seconds (each one ends at its deadline), then any worker left is killed."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list(getattr(pool, "_processes", {}).values())  # for the last resort
        pool.shutdown(wait=False, cancel_futures=True)
        waited = 0.0
        while any(p.is_alive() for p in processes) and waited < CLOSE_WAIT:
            await asyncio.sleep(0.05)
            waited += 0.05
        for process in processes:
            if process.is_alive():
                log.warning("a decision worker did not stop; killed")
                process.kill()
