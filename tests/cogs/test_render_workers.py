"""The picture worker processes (``cogs.render_workers``): jobs run in another process at
a lower priority, a job's error comes back with its traceback, a job nobody wants any more is not
run, the worker ends with its pipe, and one that dies before it ever drew fails the jobs waiting
instead of being restarted in a loop."""

from __future__ import annotations

import asyncio
import functools
import os
import pickle
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from functools import lru_cache
from importlib import import_module
from pathlib import Path

import pytest

from bot.process import event_loop
from bot.process.event_loop import LOOPS
from cogs.render_workers import (
    _HEADER,
    CACHE_ENTRIES,
    NICENESS,
    BrokenWorker,
    CacheBudget,
    RenderWorkers,
    WorkerError,
)


def where_and_how_nice() -> bytes:
    return f"{os.getpid()} {os.nice(0)}".encode()


def fail(message: str) -> bytes:
    raise ValueError(message)


def echo(data: bytes) -> bytes:
    return data


@lru_cache(maxsize=65536)  # sized for a long run, as the engines' score caches are
def squared(number: int) -> int:
    return number * number


def draw_when_told(folder: str) -> bytes:
    """A job that says it started, then waits for ``go`` (the test's bot dies meanwhile)."""
    (Path(folder) / "started").touch()
    deadline = time.monotonic() + 30
    while not (Path(folder) / "go").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return b"a picture" * 10_000


def wait_for_file(path: Path) -> None:
    deadline = time.monotonic() + 30
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.01)


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


@pytest.mark.parametrize("loop", LOOPS)
def test_the_workers_run_on_every_event_loop_the_bot_runs_on(loop: str) -> None:
    """uvloop's subprocess transports are not subclasses of asyncio's (issue 42)."""

    async def round_trip() -> bytes | None:
        pool = RenderWorkers(1)
        try:
            return await asyncio.wait_for(pool.run(functools.partial(echo, big)), 60)
        finally:
            pool.close()

    big = bytes(range(256)) * 4096
    assert event_loop.run(round_trip(), loop) == big


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


def test_a_worker_whose_bot_died_mid_picture_exits_quietly(tmp_path: Path) -> None:
    """The bot dies while its worker draws: the worker's answer meets a closed pipe, and it
    exits without a traceback (issue 34)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    worker = subprocess.Popen(
        [sys.executable, "-m", "cogs.render_workers"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
    assert worker.stdin is not None and worker.stdout is not None
    job = pickle.dumps(functools.partial(draw_when_told, str(tmp_path)))
    worker.stdin.write(_HEADER.pack(len(job)) + job)
    worker.stdin.flush()
    wait_for_file(tmp_path / "started")
    worker.stdout.close()  # the bot's end of the answers is gone
    (tmp_path / "go").touch()
    worker.stdin.close()
    assert worker.stderr is not None
    errors = worker.stderr.read().decode()  # until the worker exits
    assert worker.wait(timeout=30) == 0
    assert errors == ""


def test_a_workers_caches_stay_under_their_budget() -> None:
    """A cache that grew past the budget is emptied after the job; one under it is kept
    (issue 34: the worker's memory stopped growing once its caches were capped)."""
    budget = CacheBudget(limit=100, packages=("tests",))
    squared.cache_clear()
    for number in range(101):
        squared(number)
    budget.trim()
    assert squared.cache_info().currsize == 0 and budget.cleared >= 1
    for number in range(100):
        squared(number)
    budget.trim()
    assert squared.cache_info().currsize == 100


def test_no_bounded_cache_of_the_drawing_modules_is_larger_than_the_budget() -> None:
    """A cache of the drawing code (``cogs``) bounded above the workers' budget would be
    emptied after every job and refilled on the next (the formatted numbers' cache was, at
    2048): each bounded one fits the budget."""
    for module in ("cogs.i18n.words", "cogs.imaging.cache", "cogs.split.image_parts",
                   "cogs.ten.image_parts"):
        import_module(module)
    too_large = [
        f"{name}.{attribute}: {cached.cache_info().maxsize}"
        for name, module in list(sys.modules.items()) if name.startswith("cogs")
        for attribute, cached in list(vars(module).items())
        if callable(getattr(cached, "cache_info", None))
        and (cached.cache_info().maxsize or 0) > CACHE_ENTRIES
    ]
    assert too_large == []


def pid() -> bytes:
    return str(os.getpid()).encode()


async def test_a_tables_job_goes_to_the_worker_of_its_last_when_that_one_is_free(
    tmp_path: Path,
) -> None:
    pool = RenderWorkers(2)
    try:
        pool.start()
        deadline = time.monotonic() + 30
        while len(pool.pids) < 2:
            assert time.monotonic() < deadline, "the two workers never started"
            await asyncio.sleep(0.01)
        busy = asyncio.ensure_future(
            pool.run(functools.partial(draw_when_told, str(tmp_path)), affinity="a"))
        await asyncio.to_thread(wait_for_file, tmp_path / "started")
        by_b = await pool.run(pid, affinity="b")  # a is busy: b does not wait for it
        (tmp_path / "go").touch()
        await busy
        # Both free now: each table's job goes to the worker that drew its last one.
        assert await pool.run(pid, affinity="b") == by_b
        by_a = await pool.run(pid, affinity="a")
        assert by_a != by_b and {by_a, by_b} == {str(p).encode() for p in pool.pids}
        assert await pool.run(pid, affinity="b") == by_b
    finally:
        pool.close()
