"""Worker processes owned by the bot process, shared by the decision pool
(``bot.automation.decision_pool``) and the review pool (``bot.reviews.pool``): a process pool
spawned on first use, replaced after a worker dies, stopped once on shutdown.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.process import BaseProcess

log = logging.getLogger(__name__)

CLOSE_WAIT = 3.0  # seconds the workers get to stop on shutdown
PARENT_CHECK = 1.0  # seconds between a worker's looks at whether its parent still runs


def worker_start() -> None:
    """What every worker runs first: Ctrl-C ignored, and gone with its parent."""
    # Ctrl-C reaches the whole process group: the parent shuts the pool down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A parent killed outright (SIGKILL, out of memory) cannot: then the worker goes too.
    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)


class WorkerProcesses:
    """``workers`` processes (``initializer`` run first in each), spawned by the first
    :meth:`executor` call, which runs ``started_note`` (for the log)."""

    def __init__(self, workers: int, initializer: Callable[[], None], what: str,
                 started_note: Callable[[], None] | None = None) -> None:
        self.workers = workers
        self._initializer = initializer
        self._what = what  # "decision" / "review": the log's word for a worker
        self._started_note = started_note
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    @property
    def started(self) -> bool:
        return self._pool is not None

    def executor(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError(f"the {self._what} pool is closed")
        if self._pool is None:
            # "spawn": a forked copy of a process with threads and an event loop is unsafe.
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=self._initializer,
            )
            if self._started_note is not None:
                self._started_note()
        return self._pool

    def processes(self) -> list[BaseProcess]:
        pool = self._pool
        return list(getattr(pool, "_processes", {}).values()) if pool is not None else []

    def discard(self, pool: ProcessPoolExecutor) -> None:
        """After ``BrokenProcessPool`` (a worker was killed, ran out of memory): the next
        call gets a fresh pool."""
        log.warning("a %s worker died; the pool is started again", self._what)
        if self._pool is pool:
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self, *, terminate: bool) -> None:
        """Stop the workers: with ``terminate`` at once (the work under way is dropped),
        else the work under way may finish within ``CLOSE_WAIT`` seconds; any worker left
        then is killed."""
        self._closed = True
        processes = self.processes()  # for the last resort
        pool, self._pool = self._pool, None
        if pool is None:
            return
        pool.shutdown(wait=False, cancel_futures=True)
        if terminate:
            for process in processes:
                if process.is_alive():
                    process.terminate()
        waited = 0.0
        while any(p.is_alive() for p in processes) and waited < CLOSE_WAIT:
            await asyncio.sleep(0.05)
            waited += 0.05
        for process in processes:
            if process.is_alive():
                log.warning("a %s worker did not stop; killed", self._what)
                process.kill()
