"""The review workers: processes at the lowest CPU priority, apart from the expert's pool.

A review searches every decision of a player's game (seconds of CPU); run beside the
decision pool (``bot.automation.decision_pool``) at the same priority it would slow the
expert seats' moves and the event loop's answers. Its workers (``REVIEW_WORKERS``, default 1)
run at the lowest priority (niceness 19 and Linux's SCHED_IDLE policy: set by the bot as soon
as they are spawned, and by each worker itself at start), so the scheduler gives them only the
CPU nothing else wants;
each review is bounded by its CPU budget (``REVIEW_CPU_SECONDS``, ``bot.reviews.cpu_budget``),
not by a wall-clock deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from bot.automation.worker_processes import WorkerProcesses, worker_start
from bot.reviews.analysis import review_json

log = logging.getLogger(__name__)

NICENESS = 19  # the lowest priority a process may give itself
T = TypeVar("T")


def review_jsons(export_json: str, players: Sequence[str], cpu_seconds: float) -> list[str | None]:
    """The reviews of several players of one game in one job (``review_json`` each, within
    ``cpu_seconds`` each): the export crosses to the worker once. Their expert searches are not
    shared: each is from its own player's view at that player's own decisions."""
    return [review_json(export_json, player, cpu_seconds) for player in players]


def lowest_priority(pid: int) -> None:
    """Niceness 19 and, where Linux offers it, the SCHED_IDLE policy (the scheduler runs the
    process only when nothing else wants the core, and any waking task preempts it)."""
    os.setpriority(os.PRIO_PROCESS, pid, NICENESS)
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(pid, idle, os.sched_param(0))


def _review_worker_start() -> None:
    lowest_priority(0)
    worker_start()  # Ctrl-C ignored; the worker exits with its parent


class ReviewPool:
    """``workers`` low-priority processes; created on the first review, closed by
    :meth:`close` (a review under way is abandoned: its row stays pending and is redone at
    the next start)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._processes = WorkerProcesses(workers, _review_worker_start, "review",
                                          self._started)
        self._lowered: set[int] = set()  # worker pids whose priority was lowered

    def _started(self) -> None:
        log.info("reviews: %d worker process(es) at niceness %d", self.workers, NICENESS)

    @property
    def started(self) -> bool:
        return self._processes.started

    async def review(self, export_json: str, player: str, cpu_seconds: float) -> str | None:
        """The review's JSON (``bot.reviews.analysis.review_json``; None: the game cannot be
        reviewed), computed in a worker."""
        return await self._run(review_json, export_json, player, cpu_seconds)

    async def reviews(self, export_json: str, players: Sequence[str],
                      cpu_seconds: float) -> dict[str, str | None]:
        """The reviews of ``players`` of one game (by player), in one job."""
        if len(players) == 1:
            return {players[0]: await self.review(export_json, players[0], cpu_seconds)}
        answers = await self._run(review_jsons, export_json, list(players), cpu_seconds)
        return dict(zip(players, answers, strict=True))

    async def _run(self, job: Callable[..., T], *args: object) -> T:
        pool = self._processes.executor()
        try:
            # Submitted from a thread: the first submit spawns the workers (a fork and exec
            # each), which would hold up the event loop's answers meanwhile.
            answer = await asyncio.to_thread(pool.submit, job, *args)
            self._lower_priority()
            return await asyncio.wrap_future(answer)
        except BrokenProcessPool:
            self._processes.discard(pool)
            raise

    def _lower_priority(self) -> None:
        """Lower the new workers' priority from here at once: a spawned worker imports the
        bot's modules (a second of CPU) before its initializer runs, and at the normal
        priority that start would compete with the answers."""
        for process in self._processes.processes():
            pid = process.pid
            if pid is None or pid in self._lowered:
                continue
            self._lowered.add(pid)
            with contextlib.suppress(OSError):  # it ended meanwhile
                lowest_priority(pid)

    async def close(self) -> None:
        """Stop the workers: a review under way is not waited for (it may take seconds)."""
        await self._processes.close(terminate=True)
