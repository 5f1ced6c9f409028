"""``cogs.kit.keyed_locks.Turns`` (and ``message_turn``, made of one): one holder per key at a
time, in arrival order; the map keeps a key only while it has a holder or a waiter, a waiter
cancelled or a holder that raised included."""

from __future__ import annotations

import asyncio

import pytest

from cogs.kit.keyed_locks import Turns
from cogs.rendering import message_delivery
from cogs.rendering.message_delivery import message_turn


async def test_holders_of_a_key_take_turns_and_the_map_empties() -> None:
    turns = Turns()
    order: list[str] = []
    entered = asyncio.Event()
    go_on = asyncio.Event()

    async def first() -> None:
        async with turns.of("k"):
            order.append("first in")
            entered.set()
            await go_on.wait()
            order.append("first out")

    async def second() -> None:
        async with turns.of("k"):
            order.append("second in")

    one = asyncio.create_task(first())
    await entered.wait()
    two = asyncio.create_task(second())
    async with turns.of("other"):  # another key does not wait
        order.append("other")
    cancelled = asyncio.create_task(second())
    while turns._locks["k"][1] < 3:
        await asyncio.sleep(0)  # let both waiters queue on the key
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert turns._locks["k"][1] == 2
    go_on.set()
    await asyncio.gather(one, two)
    assert order == ["first in", "other", "first out", "second in"]
    assert len(turns) == 0
    with pytest.raises(ValueError):
        async with turns.of("k"):
            raise ValueError("a failed write")
    assert len(turns) == 0
    async with turns.of("k"):
        pass


async def test_message_turn_waits_only_for_a_known_message() -> None:
    async with message_turn(None), message_turn(None):
        pass  # no message: no turn, nested freely
    async with message_turn(5):
        assert len(message_delivery._TURNS) == 1
    assert len(message_delivery._TURNS) == 0
