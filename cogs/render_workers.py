"""Worker processes that draw pictures, fed from the event loop without a thread in the bot.

``concurrent.futures.ProcessPoolExecutor`` runs two threads in the calling process (its
manager thread, and the feeder thread of its call queue) that take the GIL for every job: a
submit wakes the manager through a pipe, and the event loop then waits for the GIL to come
back (about a millisecond per picture, measured under ``bench.image_ack``), which lands in
the answer of whatever click is being handled. Here the bot side is the event loop alone:

* each worker has a request pipe and a result pipe; the loop writes one pickled job to an
  idle worker (a few KiB into an empty pipe: the write does not wait) and reads the result
  with ``loop.add_reader`` on a non-blocking pipe, a frame at a time;
* jobs wait in the bot, not in the pipes: a job that is no longer wanted when a worker frees
  up (its picture shows a version the game has left) is dropped without being drawn;
* a worker runs at a lower CPU priority and exits when its request pipe closes, which is also
  what happens when the bot dies (no watcher thread); a worker that dies is replaced for the
  next job, the job it had fails.

The frames are ``multiprocessing.connection``'s (a 4-byte big-endian length, then the bytes),
so the worker uses ``Connection.recv_bytes`` / ``send_bytes`` as they are.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import struct
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

Job = Callable[[], bytes | None]  # picklable (module-level functions and their partials)
Wanted = Callable[[], bool]
NICENESS = 10  # how much lower a worker's CPU priority is than the bot's
READ_CHUNK = 1 << 17
_HEADER = struct.Struct("!i")
_LONG_HEADER = struct.Struct("!Q")  # after a header of -1, as multiprocessing writes it


class BrokenWorker(RuntimeError):
    """A worker process died (killed, out of memory) while drawing."""


class WorkerError(RuntimeError):
    """A job raised in the worker; the message holds its traceback."""


def serve(requests: multiprocessing.connection.Connection,
          results: multiprocessing.connection.Connection,
          warm: Callable[[], object] | None = None) -> None:
    """A worker's life: draw each job it is sent and send back ``(ok, bytes or error)``;
    end when the bot closes the request pipe (or dies)."""
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    if warm is not None:
        warm()
    while True:
        try:
            request = requests.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            job: Job = pickle.loads(request)
            answer: tuple[bool, object] = (True, job())
        except Exception:
            answer = (False, traceback.format_exc())
        results.send_bytes(pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))


@dataclass
class _Task:
    job: Job
    wanted: Wanted | None
    future: asyncio.Future[bytes | None]


@dataclass
class _Worker:
    process: Any  # multiprocessing's SpawnProcess
    requests: multiprocessing.connection.Connection
    results: multiprocessing.connection.Connection
    task: _Task | None = None
    buffer: bytearray = field(default_factory=bytearray)
    alive: bool = True


class RenderWorkers:
    """``size`` worker processes (started on first use or by :meth:`start`)."""

    def __init__(self, size: int, *, warm: Callable[[], object] | None = None) -> None:
        if size < 1:
            raise ValueError("a pool of worker processes has at least one")
        self.size = size
        self._warm = warm
        self._workers: list[_Worker] = []
        self._queue: collections.deque[_Task] = collections.deque()
        self._context = multiprocessing.get_context("spawn")  # a fork of a loop is unsafe
        self._loop: asyncio.AbstractEventLoop | None = None
        self.dropped = 0  # jobs no longer wanted when their turn came

    @property
    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.alive and w.process.pid is not None]

    def start(self) -> None:
        """Start the workers now (each imports the renderers before its first job)."""
        self._loop = asyncio.get_running_loop()
        self._workers = [w for w in self._workers if w.alive]
        while len(self._workers) < self.size:
            self._workers.append(self._spawn())

    async def run(self, job: Job, wanted: Wanted | None = None) -> bytes | None:
        """``job()`` in a worker; None without drawing when ``wanted()`` is False by the time
        a worker is free for it."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self.close()
            self._loop = loop
        future: asyncio.Future[bytes | None] = loop.create_future()
        self._queue.append(_Task(job, wanted, future))
        if len(self._workers) < self.size or any(not w.alive for w in self._workers):
            self.start()
        self._dispatch()
        return await future

    def close(self) -> None:
        """Stop the workers; jobs waiting or being drawn are cancelled."""
        for worker in self._workers:
            self._retire(worker)
            if worker.task is not None:
                worker.task.future.cancel()
        while self._queue:
            self._queue.popleft().future.cancel()
        for worker in self._workers:
            worker.process.join(timeout=1.0)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=1.0)
        self._workers = []

    # --- internals ------------------------------------------------------------------------

    def _spawn(self) -> _Worker:
        assert self._loop is not None
        child_requests, requests = self._context.Pipe(duplex=False)
        results, child_results = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=serve, args=(child_requests, child_results, self._warm),
            name="picture-worker", daemon=True,
        )
        process.start()
        child_requests.close()  # the worker's ends live in the worker only: its EOF is ours
        child_results.close()
        worker = _Worker(process, requests, results)
        os.set_blocking(results.fileno(), False)
        self._loop.add_reader(results.fileno(), self._readable, worker)
        return worker

    def _dispatch(self) -> None:
        for worker in self._workers:
            if not self._queue:
                return
            if worker.alive and worker.task is None:
                task = self._next_task()
                if task is None:
                    return
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
        except Exception as error:
            task.future.set_exception(error)
            return
        worker.task = task
        try:
            worker.requests.send_bytes(payload)
        except OSError:
            self._died(worker)

    def _readable(self, worker: _Worker) -> None:
        try:
            chunk = os.read(worker.results.fileno(), READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._died(worker)
            return
        worker.buffer += chunk
        while (frame := _frame(worker.buffer)) is not None:
            self._finished(worker, frame)

    def _finished(self, worker: _Worker, frame: bytes) -> None:
        task, worker.task = worker.task, None
        if task is not None and not task.future.done():
            try:
                ok, value = pickle.loads(frame)
            except Exception as error:
                task.future.set_exception(error)
            else:
                if ok:
                    task.future.set_result(value)
                else:
                    task.future.set_exception(WorkerError(str(value)))
        self._dispatch()

    def _died(self, worker: _Worker) -> None:
        log.warning("a picture worker process ended (exit code %s); a new one takes over",
                    worker.process.exitcode)
        self._retire(worker)
        task, worker.task = worker.task, None
        if task is not None and not task.future.done():
            task.future.set_exception(BrokenWorker("the picture worker process died"))
        self._workers = [w for w in self._workers if w.alive]
        if self._queue:
            self.start()
            self._dispatch()

    def _retire(self, worker: _Worker) -> None:
        if not worker.alive:
            return
        worker.alive = False
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(worker.results.fileno())
        worker.requests.close()
        worker.results.close()


def _frame(buffer: bytearray) -> bytes | None:
    """The first complete frame in ``buffer`` (removed from it), or None."""
    if len(buffer) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack_from(buffer)
    start = _HEADER.size
    if size == -1:
        if len(buffer) < start + _LONG_HEADER.size:
            return None
        (size,) = _LONG_HEADER.unpack_from(buffer, start)
        start += _LONG_HEADER.size
    if len(buffer) < start + size:
        return None
    frame = bytes(buffer[start:start + size])
    del buffer[:start + size]
    return frame
