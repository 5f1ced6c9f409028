from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.records.session import Seat
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from tests.testgame import CountEngine


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def seat(n: int) -> Seat:
    return Seat(player_id=str(n), display_name=f"P{n}")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "test.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(db_path)
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def make_manager(store: Store, clock: FakeClock) -> SessionManager:
    return SessionManager(store, {"count": CountEngine()}, clock=clock, seed_source=lambda: 42)


@pytest.fixture
def manager(store: Store, clock: FakeClock) -> SessionManager:
    return make_manager(store, clock)
