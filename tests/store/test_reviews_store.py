"""The reviews' rows on both backends (migration 12): queued once, stored once, never
recomputed; pending rows listed for the next start (of the owned guilds only)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.records.session import Session, Status
from bot.records.shards import ShardSet
from bot.store.sql import SqlStore
from tests.bot.conftest import seat

NOW = datetime(2026, 12, 2, 4, 0, tzinfo=UTC)


def finished(guild_id: int = 1, channel_id: int = 10) -> Session:
    return Session(id=0, guild_id=guild_id, channel_id=channel_id, game="count",
                   status=Status.FINISHED, host_id="1", seats=(seat(1), seat(2)),
                   state={"n": 0})


async def test_a_review_is_queued_once_and_stored_once(store: SqlStore) -> None:
    session = await store.create_session(finished())
    assert await store.stored_review(session.id, "1") is None
    assert await store.queue_review(session.id, "1", at=NOW) == ("pending", None)
    assert await store.queue_review(session.id, "1", at=NOW) == ("pending", None)
    assert await store.pending_reviews() == [(session.id, "1")]
    assert await store.finish_review(session.id, "1", '{"a": 1}', at=NOW)
    assert not await store.finish_review(session.id, "1", '{"a": 2}', at=NOW)  # never again
    assert await store.stored_review(session.id, "1") == ("done", '{"a": 1}')
    assert await store.queue_review(session.id, "1", at=NOW) == ("done", '{"a": 1}')
    assert await store.pending_reviews() == []


async def test_a_review_that_cannot_be_made_is_stored_as_failed(store: SqlStore) -> None:
    session = await store.create_session(finished())
    await store.queue_review(session.id, "2", at=NOW)
    assert await store.finish_review(session.id, "2", None, at=NOW)
    assert await store.stored_review(session.id, "2") == ("failed", None)
    assert await store.pending_reviews() == []


async def test_pending_reviews_of_the_owned_shards_only(store: SqlStore) -> None:
    mine = await store.create_session(finished(guild_id=0 << 22, channel_id=10))
    theirs = await store.create_session(finished(guild_id=1 << 22, channel_id=11))
    for session in (mine, theirs):
        await store.queue_review(session.id, "1", at=NOW)
    assert await store.pending_reviews() == [(mine.id, "1"), (theirs.id, "1")]
    assert await store.pending_reviews(shards=ShardSet.of(2, {0})) == [(mine.id, "1")]
