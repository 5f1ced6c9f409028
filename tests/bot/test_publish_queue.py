"""The per-session publish queue: operations return before the listeners run; listeners get a
session's changes one at a time in version order; ``settle`` and ``drain`` wait for them."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.records.change import Change
from bot.sessions.manager import SessionManager
from bot.store import open_store
from game.base import rng_for
from tests.bot.conftest import FakeClock, seat
from tests.testgame import Add, CountEngine

# Only a guard against a hang: an operation that waited for the blocked listener never returns.
GUARD = 10.0


async def started(manager: SessionManager, channel: int = 10):
    session = await manager.open_lobby(1, channel, "count", seat(1))
    await manager.join(session.id, seat(2))
    return await manager.start(session.id, "1")


class Gate:
    """A listener that blocks on an asyncio.Event for one session and records what it got."""

    def __init__(self, session_id: int) -> None:
        self.session_id = session_id
        self.open = asyncio.Event()
        self.running = 0
        self.most_running = 0
        self.delivered: list[int] = []

    async def __call__(self, change: Change) -> None:
        if change.session.id != self.session_id:
            return
        self.running += 1
        self.most_running = max(self.most_running, self.running)
        try:
            await self.open.wait()
            self.delivered.append(change.session.version)
        finally:
            self.running -= 1


async def play(manager: SessionManager, session_id: int, moves: int) -> list[int]:
    """``moves`` quick actions by whoever is awaited; the versions they made."""
    versions = []
    for _ in range(moves):
        current = manager.get(session_id)
        assert current is not None
        player = manager.engine("count").awaiting(current.state)[0]
        change = await asyncio.wait_for(
            manager.act(session_id, player, current.version, Add(add=1)), GUARD
        )
        versions.append(change.session.version)
    return versions


async def test_a_blocked_listener_does_not_hold_up_act_and_order_is_kept(
    manager: SessionManager,
) -> None:
    session = await started(manager)
    await manager.settle()
    gate = Gate(session.id)
    after: list[int] = []

    async def broken(change: Change) -> None:
        raise RuntimeError("renderer bug")

    async def record(change: Change) -> None:
        after.append(change.session.version)

    manager.subscribe(gate)
    manager.subscribe(broken)
    manager.subscribe(record)
    versions = await play(manager, session.id, 3)  # returns although the listener blocks
    assert versions == [session.version + 1, session.version + 2, session.version + 3]
    assert gate.delivered == [] and after == []

    settling = asyncio.create_task(manager.settle(session.id))
    await asyncio.sleep(0)
    assert not settling.done()  # the first change still waits at the gate
    gate.open.set()
    await settling
    assert gate.delivered == versions and after == versions  # version order, none lost
    assert gate.most_running == 1  # one change at a time


async def test_sessions_publish_independently(manager: SessionManager) -> None:
    blocked = await started(manager, channel=10)
    free = await started(manager, channel=11)
    await manager.settle()
    gate = Gate(blocked.id)
    seen: list[tuple[int, int]] = []

    async def record(change: Change) -> None:
        seen.append((change.session.id, change.session.version))

    manager.subscribe(gate)
    manager.subscribe(record)
    await play(manager, blocked.id, 1)
    [version] = await play(manager, free.id, 1)
    await asyncio.wait_for(manager.settle(free.id), GUARD)
    assert seen == [(free.id, version)]  # the blocked session's change is still at the gate
    gate.open.set()
    await manager.settle()
    assert [sid for sid, _ in seen] == [free.id, blocked.id]


async def test_drain_waits_for_queued_publications(manager: SessionManager) -> None:
    session = await started(manager)
    await manager.settle()
    gate = Gate(session.id)
    manager.subscribe(gate)
    versions = await play(manager, session.id, 2)
    draining = asyncio.create_task(manager.drain())
    await asyncio.sleep(0)
    assert not draining.done()
    gate.open.set()
    await draining
    assert gate.delivered == versions


async def test_settle_with_nothing_queued_returns(manager: SessionManager) -> None:
    await manager.settle()
    await manager.settle(12345)


async def test_game_seed_fixes_each_games_seed_by_session_id(
    tmp_path: Path, clock: FakeClock
) -> None:
    seeds = []
    for run in ("a", "b"):
        store = await open_store(tmp_path / f"{run}.sqlite3")
        try:
            manager = SessionManager(store, {"count": CountEngine()}, clock=clock,
                                     seed_source=lambda: 42, game_seed=2024)
            first = await started(manager, channel=10)
            second = await started(manager, channel=11)
            seeds.append((first.state.seed, second.state.seed))
        finally:
            await store.close()
    assert seeds[0] == seeds[1]
    first_seed, second_seed = seeds[0]
    assert first_seed == rng_for(2024, "session", 1).getrandbits(63)
    assert second_seed == rng_for(2024, "session", 2).getrandbits(63)
    assert first_seed != second_seed and 42 not in seeds[0]
