"""The process's share of Discord's global limit (``bot.ops.request_budget``), on a fake clock:
slots per window, order, merged edits, errors, shutdown."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.ops.metrics import Metrics
from bot.ops.request_budget import RequestBudget, budget_for_share


class FakeClock:
    """``now`` moves only when the budget sleeps."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        for _ in range(3):  # what started before the sleep runs at the time it started
            await asyncio.sleep(0)
        self.now += seconds


def budget(limit: int, window: float = 1.0) -> tuple[RequestBudget, FakeClock]:
    clock = FakeClock()
    return RequestBudget(limit, window, clock=clock, sleep=clock.sleep,
                         metrics=Metrics()), clock


def recorder(made: list[tuple[str, float]], clock: FakeClock) -> Callable[
        [str], Callable[[], Awaitable[str]]]:
    def request(name: str) -> Callable[[], Awaitable[str]]:
        async def call() -> str:
            made.append((name, clock.now))
            return name
        return call
    return request


async def test_at_most_limit_requests_start_per_window_in_the_order_asked() -> None:
    limited, clock = budget(3, 1.0)
    made: list[tuple[str, float]] = []
    request = recorder(made, clock)
    results = await asyncio.gather(*(limited.run(request(f"post {i}")) for i in range(7)))
    assert results == [f"post {i}" for i in range(7)]
    assert [name for name, _ in made] == [f"post {i}" for i in range(7)]
    starts = [at for _, at in made]
    for index, at in enumerate(starts):  # any window holds at most 3 starts
        assert sum(1 for other in starts[index:] if other < at + 1.0) <= 3
    assert starts[-1] - starts[0] == pytest.approx(2.0)  # 3 + 3 + 1 over three windows
    assert limited.started == 7 and limited.waited == 4 and limited.merged == 0


async def test_a_request_with_room_starts_at_once_without_queueing() -> None:
    limited, clock = budget(2)
    made: list[tuple[str, float]] = []
    assert await limited.run(recorder(made, clock)("edit")) == "edit"
    assert made == [("edit", 100.0)] and limited.waited == 0 and limited.used() == 1
    clock.now += 1.0
    assert limited.used() == 0  # the slot came back after one window


async def test_a_waiting_edit_of_the_same_message_is_replaced_by_the_newest() -> None:
    limited, clock = budget(1)
    made: list[tuple[str, float]] = []
    request = recorder(made, clock)
    await limited.run(request("post 0"))  # the window is spent
    first = limited.submit(request("table v1"), key=("edit", 42))
    ping = limited.submit(request("ping"))
    newest = limited.submit(request("table v2"), key=("edit", 42))
    other = limited.submit(request("other table v1"), key=("edit", 43))
    assert limited.near and limited.waiting == 3
    await limited.drain()
    # v1 never went out: v2 took its place in the queue, ahead of the ping it followed.
    assert [name for name, _ in made] == ["post 0", "table v2", "ping", "other table v1"]
    assert first.result() == newest.result() == "table v2" and ping.result() == "ping"
    assert other.result() == "other table v1"
    assert limited.merged == 1 and limited.started == 4


async def test_an_edit_that_started_already_is_not_replaced() -> None:
    limited, clock = budget(1)
    made: list[tuple[str, float]] = []
    request = recorder(made, clock)
    started = limited.submit(request("table v1"), key=("edit", 42))  # starts at once
    later = limited.submit(request("table v2"), key=("edit", 42))
    await limited.drain()
    assert [name for name, _ in made] == ["table v1", "table v2"]
    assert (started.result(), later.result()) == ("table v1", "table v2")


async def test_a_failed_request_raises_to_its_caller_and_the_queue_goes_on() -> None:
    limited, clock = budget(1)
    made: list[tuple[str, float]] = []
    request = recorder(made, clock)

    async def refused() -> str:
        raise RuntimeError("403")

    await limited.run(request("post 0"))
    failing = limited.run(refused)
    after = limited.run(request("post 1"))
    outcomes = await asyncio.gather(failing, after, return_exceptions=True)
    assert isinstance(outcomes[0], RuntimeError) and outcomes[1] == "post 1"
    dropped = limited.submit(refused)  # nobody awaits it: kept on the future, not logged
    await limited.drain()
    assert isinstance(dropped.exception(), RuntimeError)


async def test_near_counts_the_slots_in_use_and_the_waiting() -> None:
    limited, clock = budget(5)
    made: list[tuple[str, float]] = []
    request = recorder(made, clock)
    for index in range(3):
        await limited.run(request(f"post {index}"))
    assert not limited.near  # 3 of 5
    await limited.run(request("post 3"))
    assert limited.near  # 4 of 5: 80 %
    clock.now += 1.0
    assert not limited.near


def test_the_share_of_discords_fifty_per_second() -> None:
    assert budget_for_share(1.0, metrics=Metrics()).limit == 50
    assert budget_for_share(0.5, metrics=Metrics()).limit == 25
    assert budget_for_share(0.001, metrics=Metrics()).limit == 1
    for wrong in (0.0, -0.5, 1.5):
        with pytest.raises(ValueError, match="GLOBAL_RATE_SHARE"):
            budget_for_share(wrong)
