"""The picture worker processes (``cogs.rendering.render_workers``): jobs run in another process at
a lower priority, a job's error comes back with its traceback, a job nobody wants any more is not
run, the worker ends with its pipe, and one that dies before it ever drew fails the jobs waiting
instead of being restarted in a loop."""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import AsyncIterator

import pytest

from cogs.rendering.render_workers import NICENESS, BrokenWorker, RenderWorkers, WorkerError


def where_and_how_nice() -> bytes:
    return f"{os.getpid()} {os.nice(0)}".encode()


def fail(message: str) -> bytes:
    raise ValueError(message)


def echo(data: bytes) -> bytes:
    return data


@pytest.fixture
async def workers() -> AsyncIterator[RenderWorkers]:
    pool = RenderWorkers(1)
    yield pool
    pool.close()


async def test_a_job_runs_in_a_worker_process_at_a_lower_priority(
    workers: RenderWorkers,
) -> None:
    pid, niceness = (await workers.run(where_and_how_nice) or b"").decode().split()
    assert int(pid) != os.getpid() and [int(pid)] == workers.pids
    assert int(niceness) >= min(19, os.nice(0) + NICENESS)
    big = bytes(range(256)) * 4096  # 1 MiB: answers longer than a pipe's buffer arrive whole
    assert await workers.run(functools.partial(echo, big)) == big


async def test_an_error_in_a_job_comes_back_with_its_traceback(workers: RenderWorkers) -> None:
    with pytest.raises(WorkerError, match="ValueError: no such card"):
        await workers.run(functools.partial(fail, "no such card"))
    assert await workers.run(functools.partial(echo, b"still here")) == b"still here"


async def test_a_job_no_longer_wanted_is_not_run(workers: RenderWorkers) -> None:
    first = asyncio.ensure_future(workers.run(functools.partial(echo, b"first")))
    unwanted = asyncio.ensure_future(
        workers.run(functools.partial(fail, "drawn after all"), lambda: False))
    assert await first == b"first"
    assert await unwanted is None and workers.dropped == 1


async def test_a_worker_ends_when_the_pool_closes(workers: RenderWorkers) -> None:
    await workers.run(functools.partial(echo, b"x"))
    [pid] = workers.pids
    workers.close()
    for _ in range(200):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        await asyncio.sleep(0.02)
    pytest.fail("the worker process outlived its pool")


async def test_a_worker_that_cannot_start_fails_the_waiting_jobs() -> None:
    pool = RenderWorkers(1, warm="cogs.no_such_module_to_warm")
    try:
        with pytest.raises(BrokenWorker):
            await asyncio.wait_for(pool.run(functools.partial(echo, b"x")), 30)
        assert pool.pids == []
    finally:
        pool.close()
