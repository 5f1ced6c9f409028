"""A machine seat keeps the game going after failures: nothing else would ever move it."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest

from bot.automation.autoplay import MAX_RETRY_DELAY, Autoplay, retry_delay
from bot.records.session import Session, Status
from bot.sessions.manager import SessionManager
from bot.store import Store
from game.base import Event, IllegalAction, PlayerId
from game.search import Budget
from tests.bot.conftest import FakeClock, seat
from tests.bot.recorder import RecordingNotifier
from tests.testgame import Add, CountEngine, CountState

PACE = 0.5


class Sleeps:
    """An injectable sleep that records what it was asked to wait."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)

    @property
    def retries(self) -> list[float]:
        return [s for s in self.asked if s != PACE]


class IllegalBot(CountEngine):
    """An engine bug: the bot's move is one the engine refuses (adding 3)."""

    def __init__(self, default_too: bool = False) -> None:
        self.default_too = default_too

    def bot_action(self, state: CountState, player: PlayerId, level: str,
                   rng: random.Random, limit: Budget | None = None) -> Any:
        return Add.model_construct(add=3)

    def default_action(self, state: CountState, player: PlayerId) -> Any:
        return Add.model_construct(add=3) if self.default_too else Add(add=1)

    def apply(self, state: CountState, player: PlayerId, action: Add) -> list[Event]:
        if action.add not in (1, 2):
            raise IllegalAction("You can only add 1 or 2.")
        return super().apply(state, player, action)


class CrashingBot(CountEngine):
    """bot_action raises an unexpected error ``crashes`` times, then plays."""

    def __init__(self, crashes: int) -> None:
        self.crashes = crashes

    def bot_action(self, state: CountState, player: PlayerId, level: str,
                   rng: random.Random, limit: Budget | None = None) -> Add:
        if self.crashes:
            self.crashes -= 1
            raise RuntimeError("engine bug")
        return Add(add=1)


async def bot_game(
    store: Store, clock: FakeClock, engine: CountEngine | None = None
) -> tuple[SessionManager, Autoplay, Sleeps, Session]:
    """A started COUNT game of P1 and an easy bot, where P1 has just moved (the bot's turn)."""
    manager = SessionManager(store, {"count": engine or CountEngine()}, clock=clock,
                             seed_source=lambda: 1)
    sleeps = Sleeps()
    runner = Autoplay(manager, notifier=RecordingNotifier(), sleep=sleeps, pace=PACE)
    manager.subscribe(runner.on_change)
    session = await manager.open_lobby(1, 10, "count", seat(1))
    session = await manager.add_bot(session.id, "1", "easy")
    session = await manager.start(session.id, "1")
    return manager, runner, sleeps, session


def awaited(manager: SessionManager, session_id: int) -> list[PlayerId]:
    live = manager.get(session_id)
    assert live is not None and live.status is Status.ACTIVE
    return CountEngine().awaiting(live.state)


def test_retry_delay_doubles_up_to_the_cap() -> None:
    assert [retry_delay(n) for n in (1, 2, 3)] == [1.0, 2.0, 4.0]
    assert retry_delay(50) == MAX_RETRY_DELAY


async def test_a_failed_save_is_tried_again_after_a_growing_delay(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    manager, runner, sleeps, session = await bot_game(store, clock)
    real = store.record_action
    failures = iter([False, True, True])  # P1's move is stored; the bot's first two saves fail

    async def flaky(*args: Any, **kwargs: Any) -> None:
        if next(failures, False):
            raise OSError("disk I/O error")
        await real(*args, **kwargs)

    store.record_action = flaky  # type: ignore[method-assign]
    await manager.act(session.id, "1", session.version, Add(add=1))
    await runner.idle()
    assert awaited(manager, session.id) == ["1"]  # the bot moved after all
    assert [a.user_id for a in await store.actions(session.id)] == ["1", "bot:1"]
    assert sleeps.retries == [1.0, 2.0]
    caplog.clear()  # the failed saves were logged on purpose


async def test_an_unexpected_error_restarts_the_worker_after_a_delay(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    manager, runner, sleeps, session = await bot_game(store, clock, CrashingBot(crashes=2))
    await manager.act(session.id, "1", session.version, Add(add=1))
    await runner.idle()
    assert awaited(manager, session.id) == ["1"]
    assert sleeps.retries == [1.0, 2.0]
    crashes = [r for r in caplog.records if r.name == "bot.automation.autoplay" and r.exc_info]
    assert len(crashes) == 2 and all(r.levelno == logging.ERROR for r in crashes)


async def test_an_illegal_bot_move_falls_back_to_the_default_move(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.automation.autoplay")
    manager, runner, _, session = await bot_game(store, clock, IllegalBot())
    await manager.act(session.id, "1", session.version, Add(add=1))
    await runner.idle()
    assert awaited(manager, session.id) == ["1"]
    actions = await store.actions(session.id)
    assert [(a.user_id, a.action) for a in actions] == [("1", {"add": 1}), ("bot:1", {"add": 1})]
    # The engine's refusal text can name a player's cards: DEBUG only, the class above it.
    text = "You can only add 1 or 2."
    assert any(text in r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG)
    assert not any(text in r.getMessage() for r in caplog.records if r.levelno > logging.DEBUG)
    assert any(r.levelno == logging.WARNING and "Refusal" in r.getMessage()
               for r in caplog.records)


async def test_a_refused_default_move_stops_the_worker_with_an_error(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    manager, runner, _, session = await bot_game(store, clock, IllegalBot(default_too=True))
    await manager.act(session.id, "1", session.version, Add(add=1))
    await runner.idle()
    assert awaited(manager, session.id) == ["bot:1"]
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "could not move" in errors[0].getMessage()
    assert runner._tasks == {}


async def test_finished_workers_leave_the_registry(store: Store, clock: FakeClock) -> None:
    manager, runner, _, session = await bot_game(store, clock)
    await manager.act(session.id, "1", session.version, Add(add=1))
    await manager.settle()
    workers = list(runner._tasks.values())
    if workers:  # not idle(), which empties the registry itself
        await asyncio.wait(workers)
    await asyncio.sleep(0)  # the done-callbacks
    assert awaited(manager, session.id) == ["1"]
    assert runner._tasks == {}
