"""Migration 9: the table log keeps public events; a store written before it (a log of English
lines) still opens, and its sessions read with those lines in their order. Both backends."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import bot.store.postgres
import bot.store.sqlite
from bot.records.session import OLD_LINE, Session, Status, old_line
from bot.store import open_store
from bot.store.migrations import MIGRATIONS, POSTGRES_MIGRATIONS
from bot.store.sql import SqlStore
from cogs.game_ui import event_line
from cogs.i18n import Language, words_for
from cogs.split.ui import SplitUI
from game.base import Event
from game.split import SplitEngine
from tests.bot.conftest import seat

BEFORE = 8  # the migrations of a store written before the log kept events
OLD_LINES = ["Round 1: Ana deals; Ben goes first. The discard row starts with 7♥.",
             "Ben drew a card; 75 cards left in the draw pile.", 'Ben said "hi" \\ {ok}']


def lobby(channel_id: int) -> Session:
    return Session(id=0, guild_id=1, channel_id=channel_id, game="split", status=Status.LOBBY,
                   host_id="1", seats=(seat(1), seat(2)))


async def _set_log(store: SqlStore, session_id: int, raw: str) -> None:
    async with store._transaction() as tx:
        await tx.execute("UPDATE sessions SET log = ? WHERE id = ?", (raw, session_id))


async def test_a_store_from_before_reads_its_old_lines(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(bot.store.sqlite, "MIGRATIONS", MIGRATIONS[:BEFORE])
        patch.setattr(bot.store.postgres, "POSTGRES_MIGRATIONS", POSTGRES_MIGRATIONS[:BEFORE])
        old = await open_store(db_url)
        assert isinstance(old, SqlStore) and await old.schema_version() == BEFORE
        try:
            with_lines = await old.create_session(lobby(10))
            empty = await old.create_session(lobby(11))
            await _set_log(old, with_lines.id, json.dumps(OLD_LINES))
        finally:
            await old.close()

    store = await open_store(db_url)  # migrates
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        loaded = await store.load_session(with_lines.id)
        assert loaded is not None and loaded.log == tuple(old_line(t) for t in OLD_LINES)
        assert all(entry.kind == OLD_LINE for entry in loaded.log)
        unchanged = await store.load_session(empty.id)
        assert unchanged is not None and unchanged.log == ()
        # an old line stays as it was in every language (it was English when stored) ...
        ui = SplitUI(SplitEngine())
        for language in Language:
            words = words_for(language)
            assert [event_line(ui, e, None, loaded.names, words) for e in loaded.log] == OLD_LINES
        # ... and the next events are kept as events next to it
        newer = Event("discard", "2", {"card": "7♥", "left": 8})
        saved = replace(loaded, log=(*loaded.log, newer), version=loaded.version + 1)
        await store.save_session(saved)
        again = await store.load_session(loaded.id)
        assert again is not None and again.log == saved.log
    finally:
        await store.close()
