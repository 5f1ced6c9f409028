from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.sessions.manager import SessionManager
from bot.store import open_store
from cogs.commands.game_commands import GameCog
from cogs.listeners.table_publisher import TablePublisher
from tests.fakes import FakeChannel, FakeClient, FakeInteraction, FakeMessage, FakeUser
from tests.testgame import CountEngine, CountUI

ANA = FakeUser(1, "Ana")
BEN = FakeUser(2, "Ben")
CY = FakeUser(3, "Cy")
DEE = FakeUser(4, "Dee")


class Table:
    """One fake guild channel with the real manager, the COUNT UI and the table publisher."""

    def __init__(self, manager: SessionManager) -> None:
        engine = CountEngine()
        self.manager = manager
        self.client = FakeClient(manager, {"count": CountUI(engine)})
        self.channel: FakeChannel = self.client.channel(100)
        self.cog: GameCog = self.client.cog
        manager.subscribe(TablePublisher(self.client, self.client.services).on_change)  # type: ignore[arg-type]

    def interaction(self, user: FakeUser, message: FakeMessage | None = None,
                    **kwargs: object) -> FakeInteraction:
        return FakeInteraction(self.client, user=user, channel=self.channel, message=message,
                               **kwargs)  # type: ignore[arg-type]


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    store = await open_store(tmp_path / "cogs.sqlite3")
    manager = SessionManager(store, {"count": CountEngine()}, seed_source=lambda: 7)
    yield Table(manager)
    await store.close()


@pytest.fixture(autouse=True)
def no_unexpected_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail a test whose handler crashed: the error hook in ``cogs.kit.unexpected_errors`` answers
    the user politely, which would otherwise hide the bug from the test. A test that provokes an
    error on purpose checks the records and then calls ``caplog.clear()``."""
    yield
    crashed = [r for r in caplog.get_records("call") if r.name == "cogs.kit.unexpected_errors"]
    assert not crashed, [r.getMessage() for r in crashed]
