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
import random
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from bot.automation.hints import Hint, advise
from bot.automation.worker_processes import WorkerProcesses, worker_start
from bot.ops.metrics import METRICS
from game.base import PlayerId, rng_for
from game.registry import engines

log = logging.getLogger(__name__)

# Levels whose moves are worth a trip to the pool; the others are decided in the loop.
POOLED_LEVELS = frozenset({"expert"})


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


class DecisionPool:
    """``workers`` processes for machine moves; created on first use, closed by
    :meth:`close` (waits for the decisions under way, each bounded by its deadline)."""

    def __init__(self, workers: int, deadline: float) -> None:
        self.workers = workers
        self.deadline = deadline  # seconds per decision
        self._processes = WorkerProcesses(workers, worker_start, "decision", self._started)

    def _started(self) -> None:
        log.info("machine moves: %d decision worker process(es), deadline %.0f ms",
                 self.workers, self.deadline * 1000)

    @property
    def started(self) -> bool:
        """Whether the worker processes run (they start with the first pooled move)."""
        return self._processes.started

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
        pool = self._processes.executor()
        loop = asyncio.get_running_loop()
        try:
            with METRICS.expert_in_progress.track_inprogress():
                return await loop.run_in_executor(pool, work, *args)
        except BrokenProcessPool:
            self._processes.discard(pool)
            raise

    async def close(self) -> None:
        """Stop the workers: the searches under way may finish within ``CLOSE_WAIT``
        seconds (each one ends at its deadline), then any worker left is killed."""
        await self._processes.close(terminate=False)
