"""The end-of-season claim on both backends: one claim wins, a stale unposted one is taken
over, a posted one never again; two stores (two processes) racing on one database."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.store import open_store
from bot.store.sql import SqlStore

NOW = datetime(2026, 12, 1, 0, 5, tzinfo=UTC)
TIMEOUT = timedelta(minutes=5)


async def claim(store: SqlStore, owner: str, now: datetime = NOW,
                champions: dict[str, str] | None = None) -> bool:
    return await store.claim_season(1, "2026-11", champions or {"split": "7", "ten": "8"},
                                    owner=owner, now=now, stale_before=now - TIMEOUT)


async def test_one_claim_wins_and_stores_the_champions(store: SqlStore) -> None:
    assert await claim(store, "a")
    assert not await claim(store, "b", champions={"split": "9"})
    assert not await claim(store, "a")  # not even its owner claims twice while it is fresh
    assert await store.season_titles(1, "7") == [("2026-11", "split")]
    assert await store.season_titles(1, "8") == [("2026-11", "ten")]
    assert await store.season_titles(1, "9") == [] and await store.season_titles(2, "7") == []


async def test_a_stale_unposted_claim_is_taken_over_once(store: SqlStore) -> None:
    assert await claim(store, "a")
    later = NOW + TIMEOUT + timedelta(seconds=1)
    assert await claim(store, "b", later, champions={"split": "9"})
    assert not await claim(store, "c", later)
    assert await store.season_titles(1, "7") == [("2026-11", "split")]  # the first decision
    assert not await store.finish_season_post(1, "2026-11", owner="a", message_id=1, at=later)
    assert await store.finish_season_post(1, "2026-11", owner="b", message_id=2, at=later)
    assert not await store.finish_season_post(1, "2026-11", owner="b", message_id=3, at=later)
    assert not await claim(store, "d", later + TIMEOUT * 10)  # posted: never again
    rows = await store.query("SELECT claimed_by, message_id FROM season_posts")
    assert rows == [("b", 2)]


async def test_two_stores_racing_claim_once(store: SqlStore, db_url: str) -> None:
    other = await open_store(db_url)
    try:
        for round_no in range(10):
            season = f"2026-{round_no + 1:02d}"
            outcomes = await asyncio.gather(*(
                racer.claim_season(5, season, {"ten": str(n)}, owner=f"p{n}", now=NOW,
                                   stale_before=NOW - TIMEOUT)
                for n, racer in enumerate((store, other))
            ))
            assert sorted(outcomes) == [False, True]
            winner = outcomes.index(True)
            assert (await store.season_titles(5, str(winner)))[0] == (season, "ten")
    finally:
        await other.close()
