"""Two processes on one database: the write of the one that is behind is refused as stale,
changes nothing, and the live session becomes the stored one (the next click works)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.records.errors import StaleVersion
from bot.store import open_store
from tests.bot.conftest import FakeClock, make_manager, seat
from tests.testgame import Add


async def test_a_write_refused_as_stale_reloads_the_stored_session(
    db_path: Path, clock: FakeClock
) -> None:
    first_store = await open_store(db_path)
    second_store = await open_store(db_path)
    try:
        first = make_manager(first_store, clock)
        lobby = await first.open_lobby(1, 10, "count", seat(1))
        await first.join(lobby.id, seat(2))
        started = await first.start(lobby.id, "1")

        second = make_manager(second_store, clock)
        await second.restore()
        assert second.get(started.id).version == started.version

        moved = await first.act(started.id, "1", started.version, Add(add=1))
        with pytest.raises(StaleVersion):
            await second.act(started.id, "1", started.version, Add(add=2))

        reloaded = second.get(started.id)
        assert reloaded.version == moved.session.version
        assert reloaded.state == moved.session.state
        assert len(await second_store.actions(started.id)) == 1  # nothing written twice
        after = await second.act(started.id, "2", reloaded.version, Add(add=2))
        assert after.session.version == moved.session.version + 1
    finally:
        await first_store.close()
        await second_store.close()
