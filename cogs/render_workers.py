"""Worker processes that draw pictures, fed by the event loop itself: no thread of the bot
takes the GIL for a picture (asyncio's child watcher thread only waits for a worker to exit).

Why not ``concurrent.futures.ProcessPoolExecutor`` (measured under ``bench.image_ack``):

* it runs two threads in the bot (its manager thread and its call queue's feeder thread)
  that take the GIL for every job: a submit wakes the manager through a pipe and the event
  loop then waits for the GIL to come back, about a millisecond per picture, which lands in
  the answer of whatever click is being handled;
* its workers are ``multiprocessing`` spawn children, which import the parent's ``__main__``
  (for ``python -m bot``: the whole bot, discord.py included) before they can lower their
  priority: a second of CPU at the bot's priority while the bot starts taking clicks (the
  first games' answers took 300-400 ms instead of 30-70 ms).

Here each worker is ``python -m cogs.render_workers``: it lowers its priority first, then
imports only what its jobs need. The bot talks to it through its stdin and stdout with
asyncio's own pipes (length-prefixed pickles: a job in, ``(ok, bytes or traceback)`` out):

* jobs wait in the bot, not in the pipes: a worker gets its next job when it is free, and a
  job no longer wanted by then (its picture shows a version the game has left) is dropped
  without being drawn;
* a worker keeps its caches small (:class:`CacheBudget`), so its memory stops growing
  within the first games;
* a worker exits when its stdin closes, which is also what happens when the bot dies (quietly
  also when its answer meets the closed pipe of a bot that died mid-picture); one
  that dies is replaced for the next job (the job it had fails; one that died before it drew
  anything fails the waiting jobs too, rather than being restarted in a loop).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import os
import pickle
import struct
import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, BinaryIO, cast

log = logging.getLogger(__name__)

Job = Callable[[], bytes | None]  # picklable (module-level functions and their partials)
Wanted = Callable[[], bool]
AFFINITIES = 4096  # the tables whose last worker the pool remembers (least recent out first)
NICENESS = 10  # how much lower a worker's CPU priority is than the bot's
_HEADER = struct.Struct("!I")


class BrokenWorker(RuntimeError):
    """A worker process died (killed, out of memory) while drawing."""


class WorkerError(RuntimeError):
    """A job raised in the worker; the message holds its traceback."""


@dataclass
class _Task:
    job: Job
    wanted: Wanted | None
    future: asyncio.Future[bytes | None]
    affinity: Hashable | None = None


class _Worker(asyncio.SubprocessProtocol):
    """One worker process: its pipes, the job it draws, the bytes of its answer so far."""

    def __init__(self, pool: RenderWorkers) -> None:
        self.pool = pool
        self.transport: asyncio.SubprocessTransport | None = None
        self.task: _Task | None = None
        self.alive = True
        self.answered = 0  # jobs it finished
        self._buffer = bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A subprocess transport, but not always a subclass of asyncio's: uvloop's are its own
        # classes (bot.process.event_loop), so this is a cast, not an isinstance check.
        self.transport = cast(asyncio.SubprocessTransport, transport)

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        self._buffer += data
        while len(self._buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buffer)
            end = _HEADER.size + size
            if len(self._buffer) < end:
                return
            frame = bytes(self._buffer[_HEADER.size:end])
            del self._buffer[:end]
            self.pool._finished(self, frame)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        self.pool._died(self)

    def process_exited(self) -> None:
        self.pool._died(self)

    def send(self, data: bytes) -> None:
        assert self.transport is not None
        stdin = cast(asyncio.WriteTransport, self.transport.get_pipe_transport(0))  # as above
        stdin.write(data)  # buffered by the loop: never waits

    def close(self) -> None:
        self.alive = False
        if self.transport is not None:
            with contextlib.suppress(RuntimeError):  # its event loop is closed already
                self.transport.close()  # kills a worker still running, closes its pipes

    @property
    def pid(self) -> int | None:
        return None if self.transport is None else self.transport.get_pid()


class RenderWorkers:
    """``size`` worker processes (started on first use or by :meth:`start`); ``warm``: a
    module the workers import before their first job (``"package.module"``)."""

    def __init__(self, size: int, *, warm: str | None = None) -> None:
        if size < 1:
            raise ValueError("a pool of worker processes has at least one")
        self.size = size
        self._warm = warm
        self._workers: list[_Worker] = []
        self._starting: set[asyncio.Task[None]] = set()
        self._queue: collections.deque[_Task] = collections.deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.dropped = 0  # jobs no longer wanted when their turn came
        self._last: collections.OrderedDict[Hashable, _Worker] = collections.OrderedDict()

    @property
    def pids(self) -> list[int]:
        return [pid for w in self._workers if w.alive and (pid := w.pid) is not None]

    def start(self) -> None:
        """Start the missing workers (in the background: a worker takes a moment to start)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self.close()
            self._loop = loop
        missing = self.size - len(self._workers) - len(self._starting)
        for _ in range(max(0, missing)):
            starting = loop.create_task(self._spawn())
            self._starting.add(starting)
            starting.add_done_callback(self._started)

    async def run(self, job: Job, wanted: Wanted | None = None,
                  affinity: Hashable | None = None) -> bytes | None:
        """``job()`` in a worker; None without drawing when ``wanted()`` is False by the time
        a worker is free for it. ``affinity`` (a table's session id): when the worker that
        drew the last job of the same affinity is free, it draws this one too, since its
        caches hold that table's strips (``cogs.imaging.strips``); otherwise any free worker
        does (a job never waits for its worker: the load stays balanced, the order in which
        jobs start is the queue's)."""
        self.start()
        assert self._loop is not None
        future: asyncio.Future[bytes | None] = self._loop.create_future()
        self._queue.append(_Task(job, wanted, future, affinity))
        self._dispatch()
        return await future

    def close(self) -> None:
        """Stop the workers; jobs waiting or being drawn are cancelled."""
        self._last.clear()
        for starting in self._starting:
            starting.cancel()
        self._starting.clear()
        workers, self._workers = self._workers, []
        for worker in workers:
            if worker.task is not None:
                worker.task.future.cancel()
            worker.close()
        while self._queue:
            self._queue.popleft().future.cancel()

    # --- internals ------------------------------------------------------------------------

    async def _spawn(self) -> None:
        env = dict(os.environ)
        # The worker finds the bot's modules where the bot found them.
        env["PYTHONPATH"] = os.pathsep.join(path for path in sys.path if path)
        loop = asyncio.get_running_loop()
        _, worker = await loop.subprocess_exec(
            lambda: _Worker(self), sys.executable, "-m", __name__,
            *([self._warm] if self._warm else []),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None, env=env,
        )
        self._workers.append(worker)

    def _started(self, starting: asyncio.Task[None]) -> None:
        self._starting.discard(starting)
        if starting.cancelled():
            return
        error = starting.exception()
        if error is not None:
            log.error("could not start a picture worker: %s", error)
            if not self._workers and not self._starting:
                while self._queue:
                    task = self._queue.popleft()
                    if not task.future.done():
                        task.future.set_exception(BrokenWorker(f"no picture worker: {error}"))
            return
        self._dispatch()

    def _dispatch(self) -> None:
        while self._queue:
            free = [w for w in self._workers if w.alive and w.task is None]
            if not free:
                return
            task = self._next_task()
            if task is None:
                return
            worker = free[0]
            if task.affinity is not None:
                last = self._last.get(task.affinity)
                if last in free:
                    worker = last
                self._last[task.affinity] = worker
                self._last.move_to_end(task.affinity)
                while len(self._last) > AFFINITIES:
                    self._last.popitem(last=False)
            self._send(worker, task)

    def _next_task(self) -> _Task | None:
        while self._queue:
            task = self._queue.popleft()
            if task.future.done():
                continue  # nobody waits for it any more
            if task.wanted is not None and not task.wanted():
                self.dropped += 1
                task.future.set_result(None)
                continue
            return task
        return None

    def _send(self, worker: _Worker, task: _Task) -> None:
        try:
            payload = pickle.dumps(task.job, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an unpicklable job fails its own future, not the pool
            task.future.set_exception(error)
            return
        worker.task = task
        worker.send(_HEADER.pack(len(payload)) + payload)

    def _finished(self, worker: _Worker, frame: bytes) -> None:
        worker.answered += 1
        task, worker.task = worker.task, None
        if task is not None and not task.future.done():
            try:
                ok, value = pickle.loads(frame)
            except Exception as error:  # a garbled answer fails its own future, not the pool
                task.future.set_exception(error)
            else:
                if ok:
                    task.future.set_result(value)
                else:
                    task.future.set_exception(WorkerError(str(value)))
        self._dispatch()

    def _died(self, worker: _Worker) -> None:
        if not worker.alive:
            return
        log.warning("a picture worker process ended; a new one takes over")
        worker.close()
        task, worker.task = worker.task, None
        if task is not None and not task.future.done():
            task.future.set_exception(BrokenWorker("the picture worker process died"))
        self._workers = [w for w in self._workers if w.alive]
        if not worker.answered:  # it never drew: a new one would likely die the same way
            while self._queue:
                waiting = self._queue.popleft()
                if not waiting.future.done():
                    waiting.future.set_exception(BrokenWorker("a picture worker could not start"))
        elif self._queue:
            self.start()


# --- the worker process ----------------------------------------------------------------------


def _read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


CACHE_ENTRIES = 512  # the most entries a worker's cache keeps (see CacheBudget)
CACHED_PACKAGES = ("cogs", "game")


class CacheBudget:
    """Keeps the ``functools`` caches of a worker's modules under :data:`CACHE_ENTRIES`
    entries each: one that has grown past it is emptied after the job, and refills with what
    the next pictures use.

    Why (issue 34, ``bench/soak.py``): the caches a worker fills are sized for long runs, the
    engines' (TEN's score caches: 65,536 entries each, made for the expert's search, filled
    here by every view a picture shows) and the drawing toolkit's (card tiles, text masks,
    text widths: 768 to 8,192 entries). A worker was still filling them after 40 games, so
    its memory rose game after game (+3.6 MB over games 20-40) while the bot's stayed flat.
    Capped, they reach their size within the first games; a game's pictures reuse far fewer
    entries than the cap, so little is drawn again.
    """

    def __init__(self, limit: int = CACHE_ENTRIES,
                 packages: tuple[str, ...] = CACHED_PACKAGES) -> None:
        self.limit = limit
        self._packages = packages
        self._modules = 0  # how many modules were loaded at the last look
        self._caches: list[functools._lru_cache_wrapper[Any]] = []
        self.cleared = 0

    def _find(self) -> None:
        found: dict[int, Any] = {}
        for name, module in list(sys.modules.items()):
            if name.split(".", 1)[0] not in self._packages or module is None:
                continue
            for value in list(vars(module).values()):
                # lru_cache and cache wrappers (the type is functools' own, undocumented)
                if isinstance(value, functools._lru_cache_wrapper):
                    found[id(value)] = value
        self._caches = list(found.values())
        self._modules = len(sys.modules)

    def trim(self) -> None:
        """Empty every cache over the limit (a job may have imported more modules: look
        again when the module count changed)."""
        if len(sys.modules) != self._modules:
            self._find()
        for cache in self._caches:
            if cache.cache_info().currsize > self.limit:
                cache.cache_clear()
                self.cleared += 1


def serve(requests: BinaryIO, results: BinaryIO,
          after_job: Callable[[], None] | None = None) -> None:
    """Draw each job read from ``requests`` and write ``(ok, bytes or traceback)`` to
    ``results``, until ``requests`` ends; ``after_job`` runs once each answer is out."""
    import traceback

    while (header := _read_exactly(requests, _HEADER.size)) is not None:
        payload = _read_exactly(requests, _HEADER.unpack(header)[0])
        if payload is None:
            return
        try:
            job: Job = pickle.loads(payload)
            answer: tuple[bool, object] = (True, job())
        except Exception:  # the worker survives a failed drawing: the error goes back
            answer = (False, traceback.format_exc())
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            results.write(_HEADER.pack(len(data)) + data)
            results.flush()
        except BrokenPipeError:  # the bot is gone (it died mid-picture): nobody to answer
            _discard(results)
            return
        if after_job is not None:
            after_job()


def _discard(stream: BinaryIO) -> None:
    """Point ``stream``'s descriptor at /dev/null, so that the answer still in its buffer
    is dropped when it closes instead of failing again at exit."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, stream.fileno())
    finally:
        os.close(null)


def main(argv: list[str]) -> None:
    import importlib
    import signal

    with contextlib.suppress(OSError):
        os.nice(NICENESS)  # before any import that costs CPU
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the bot's to handle
    requests = os.fdopen(os.dup(0), "rb", buffering=0)
    results = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything a renderer prints goes to stderr, not into the results
    for module in argv:
        importlib.import_module(module)
    serve(requests, results, CacheBudget().trim)


if __name__ == "__main__":
    main(sys.argv[1:])
