"""Seasons: their arithmetic, and the end-of-season post made once (restarts, two watchers on
one store, a crash between claim and post, a notifier that fails)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.automation.season_watcher import (
    CLAIM_TIMEOUT,
    GRACE,
    SeasonEnd,
    SeasonWatcher,
    champions_of,
)
from bot.rankings.leaderboard import Leaderboards
from bot.rankings.seasons import (
    CHAMPION_ROLE_KEY,
    SEASON_CHANNEL_KEY,
    SEASON_KEY,
    Season,
    ended_seasons,
    last_ended,
    parse_season,
    season_kind,
    season_of,
)
from bot.store import Store, open_store
from tests.bot.test_leaderboard import finish

NOVEMBER = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
DECEMBER = datetime(2026, 12, 1, 0, 0, tzinfo=UTC) + GRACE


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


# --- arithmetic ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "when", "name", "start", "end"),
    [
        ("month", utc(2026, 11, 30, 23, 59, 59), "2026-11", utc(2026, 11, 1), utc(2026, 12, 1)),
        ("month", utc(2026, 12, 1), "2026-12", utc(2026, 12, 1), utc(2027, 1, 1)),
        ("month", utc(2024, 2, 29, 12), "2024-02", utc(2024, 2, 1), utc(2024, 3, 1)),
        ("quarter", utc(2026, 12, 31, 23), "2026-Q4", utc(2026, 10, 1), utc(2027, 1, 1)),
        ("quarter", utc(2027, 1, 1), "2027-Q1", utc(2027, 1, 1), utc(2027, 4, 1)),
        ("quarter", utc(2026, 6, 30), "2026-Q2", utc(2026, 4, 1), utc(2026, 7, 1)),
    ],
)
def test_a_season_is_a_calendar_month_or_quarter_in_utc(
    kind: str, when: datetime, name: str, start: datetime, end: datetime
) -> None:
    season = season_of(kind, when)  # type: ignore[arg-type]
    assert (season.name, season.start, season.end) == (name, start, end)
    assert parse_season(name) == season
    assert season.next().start == season.end and season.next().previous() == season


def test_local_time_is_converted_to_utc_first() -> None:
    from datetime import timezone
    late = datetime(2026, 12, 1, 1, 0, tzinfo=timezone(timedelta(hours=2)))  # 23:00 UTC
    assert season_of("month", late).name == "2026-11"


def test_the_last_ended_season_and_the_seasons_since() -> None:
    assert last_ended("month", utc(2027, 1, 1)).name == "2026-12"
    assert last_ended("month", utc(2026, 12, 31, 23, 59)).name == "2026-11"
    assert last_ended("quarter", utc(2027, 1, 15)).name == "2026-Q4"
    assert [s.name for s in ended_seasons("month", utc(2026, 9, 30), utc(2026, 12, 2))] == [
        "2026-11", "2026-10", "2026-09"]
    assert ended_seasons("quarter", utc(2026, 11, 2), utc(2026, 12, 2)) == []


@pytest.mark.parametrize("name", ["2026-13", "2026-00", "2026-Q5", "26-11", "2026/11", "",
                                  "2026-11-01", "1999-01", "２０２６-11", "2026-q4x"])
def test_anything_else_is_not_a_season_name(name: str) -> None:
    assert parse_season(name) is None


def test_names_are_read_leniently_but_written_one_way() -> None:
    parsed = parse_season(" 2026-q4 ")
    assert parsed is not None and parsed.name == "2026-Q4"


def test_the_setting_defaults_to_months() -> None:
    assert season_kind(None) == "month" and season_kind("bogus") == "month"
    assert season_kind("quarter") == "quarter" and season_kind("off") is None


# --- the watcher -------------------------------------------------------------------------------


class Recorder:
    """A notifier that records each post; ``fail`` raises instead, ``hang`` never returns."""

    def __init__(self, *, fail: bool = False) -> None:
        self.ends: list[SeasonEnd] = []
        self.fail = fail
        self.next_id = 9000

    async def season_ended(self, end: SeasonEnd) -> int | None:
        if self.fail:
            raise ConnectionError("Discord is unreachable")
        self.ends.append(end)
        self.next_id += 1
        return self.next_id if end.channel_id is not None else None


def watcher(store: Store, notifier: Recorder, now: list[datetime], *, owner: str | None = None,
            ) -> SeasonWatcher:
    board = Leaderboards(store, min_games=1, clock=lambda: now[0])
    return SeasonWatcher(store, board, ["count"], clock=lambda: now[0], notifier=notifier,
                         owner=owner)


async def november_games(store: Store, guild: int = 1) -> None:
    # "1" wins two of three rated games; "3" plays once, in December (not this season).
    await finish(store, {"1": 1, "2": 2}, NOVEMBER, guild=guild)
    await finish(store, {"2": 1, "1": 2}, NOVEMBER + timedelta(hours=1), guild=guild)
    await finish(store, {"1": 1, "2": 2}, NOVEMBER + timedelta(hours=2), guild=guild)
    await finish(store, {"3": 1, "1": 2}, DECEMBER + timedelta(days=1), guild=guild)


async def set_channel(store: Store, guild: int = 1, channel: int = 77) -> None:
    await store.set_guild_setting(guild, SEASON_CHANNEL_KEY, str(channel), by="9", at=NOVEMBER)


async def test_nothing_is_posted_before_the_season_is_over(store: Store) -> None:
    await november_games(store)
    await set_channel(store)
    posts = Recorder()
    now = [DECEMBER - GRACE - timedelta(seconds=1)]
    assert await watcher(store, posts, now).tick() == 0
    now[0] = DECEMBER - timedelta(seconds=1)  # over, but games finishing at 00:00 may be writing
    assert await watcher(store, posts, now).tick() == 0
    assert posts.ends == []


async def test_the_end_of_a_season_is_posted_once_with_its_champion(store: Store) -> None:
    await november_games(store)
    await set_channel(store)
    await store.set_guild_setting(1, CHAMPION_ROLE_KEY, "555", by="9", at=NOVEMBER)
    posts = Recorder()
    now = [DECEMBER]
    seasons = watcher(store, posts, now)
    assert await seasons.tick() == 1
    assert await seasons.tick() == 0
    [end] = posts.ends
    assert (end.guild_id, end.season.name, end.channel_id, end.role_id) == (1, "2026-11", 77, 555)
    assert end.champions == {"count": "1"}
    [board] = end.boards
    assert [s.line.user_id for s in board.standings] == ["1", "2"]  # "3" played in December
    assert [s.line.games for s in board.standings] == [3, 3]
    assert await store.season_titles(1, "1") == [("2026-11", "count")]
    assert await store.season_titles(1, "2") == []
    rows = await store.query("SELECT message_id, posted_at FROM season_posts")
    assert rows[0][0] == 9001 and rows[0][1] is not None


async def test_the_former_champions_are_the_previous_seasons_not_champions_now(
    store: Store,
) -> None:
    await november_games(store)
    await set_channel(store)
    october = NOVEMBER - timedelta(days=3)
    assert await store.claim_season(1, "2026-10", {"count": "2", "other": "1"}, owner="x",
                                    now=october, stale_before=october)
    posts = Recorder()
    assert await watcher(store, posts, [DECEMBER]).tick() == 1
    [end] = posts.ends
    assert end.champions == {"count": "1"} and end.former == ("2",)  # "1" keeps the role


async def test_a_restart_between_two_ticks_posts_nothing_again(db_path: object) -> None:
    first = await open_store(db_path)  # type: ignore[arg-type]
    await november_games(first)
    await set_channel(first)
    posts = Recorder()
    now = [DECEMBER]
    assert await watcher(first, posts, now).tick() == 1
    await first.close()
    # A new process: a new store and a new watcher (its own owner id, nothing in memory).
    second = await open_store(db_path)  # type: ignore[arg-type]
    try:
        now[0] = DECEMBER + timedelta(hours=3)
        assert await watcher(second, posts, now).tick() == 0
        assert len(posts.ends) == 1
        assert await second.season_titles(1, "1") == [("2026-11", "count")]
    finally:
        await second.close()


async def test_two_watchers_racing_on_one_store_post_once(db_path: object) -> None:
    stores = [await open_store(db_path) for _ in range(2)]  # type: ignore[arg-type]
    try:
        for guild in (1, 2, 3):
            await november_games(stores[0], guild)
            await set_channel(stores[0], guild)
        posts = Recorder()
        now = [DECEMBER]
        racers = [watcher(store, posts, now, owner=f"process-{n}")
                  for n, store in enumerate(stores)]
        made = await asyncio.gather(*(racer.tick() for racer in racers))
        assert sum(made) == 3
        assert sorted(end.guild_id for end in posts.ends) == [1, 2, 3]
        assert sum(await asyncio.gather(*(racer.tick() for racer in racers))) == 0
    finally:
        for store in stores:
            await store.close()


async def test_a_crash_between_claim_and_post_is_posted_after_the_claim_timeout(
    store: Store,
) -> None:
    await november_games(store)
    await set_channel(store)
    now = [DECEMBER]
    # The first owner claims, then dies before its post went out (nothing marks it posted).
    assert await store.claim_season(1, "2026-11", {"count": "1"}, owner="dead", now=now[0],
                                    stale_before=now[0] - CLAIM_TIMEOUT)
    posts = Recorder()
    survivor = watcher(store, posts, now, owner="alive")
    assert await survivor.tick() == 0  # the claim is fresh: its owner may still post
    now[0] += CLAIM_TIMEOUT - timedelta(seconds=1)
    assert await survivor.tick() == 0
    now[0] += timedelta(seconds=2)
    assert await survivor.tick() == 1
    assert [end.champions for end in posts.ends] == [{"count": "1"}]
    now[0] += CLAIM_TIMEOUT * 3
    assert await survivor.tick() == 0
    # The dead owner, had it come back, may no longer mark the post as its own.
    assert not await store.finish_season_post(1, "2026-11", owner="dead", message_id=1,
                                              at=now[0])


async def test_a_failed_post_is_retried_and_then_made_once(store: Store) -> None:
    await november_games(store)
    await set_channel(store)
    now = [DECEMBER]
    failing = Recorder(fail=True)
    seasons = watcher(store, failing, now)
    assert await seasons.tick() == 0
    working = Recorder()
    seasons.notifier = working
    assert await seasons.tick() == 0  # its own claim is still fresh
    now[0] += CLAIM_TIMEOUT + timedelta(seconds=1)
    assert await seasons.tick() == 1
    assert await seasons.tick() == 0
    assert len(working.ends) == 1


async def test_without_a_channel_titles_are_kept_and_nothing_is_posted(store: Store) -> None:
    await november_games(store)
    posts = Recorder()
    assert await watcher(store, posts, [DECEMBER]).tick() == 1
    assert [end.channel_id for end in posts.ends] == [None]
    assert await store.season_titles(1, "1") == [("2026-11", "count")]
    rows = await store.query("SELECT message_id, posted_at FROM season_posts")
    assert rows[0][0] is None and rows[0][1] is not None


async def test_quarters_and_off_follow_the_setting(store: Store) -> None:
    await november_games(store, guild=1)
    await november_games(store, guild=2)
    await store.set_guild_setting(1, SEASON_KEY, "quarter", by="9", at=NOVEMBER)
    await store.set_guild_setting(2, SEASON_KEY, "off", by="9", at=NOVEMBER)
    posts = Recorder()
    now = [DECEMBER]
    seasons = watcher(store, posts, now)
    assert await seasons.tick() == 0  # Q4 is not over; guild 2 has no seasons
    now[0] = datetime(2027, 1, 1, tzinfo=UTC) + GRACE
    assert await seasons.tick() == 1
    assert [(end.guild_id, end.season.name) for end in posts.ends] == [(1, "2026-Q4")]
    # The December game of "3" counts in the quarter: one game, one win.
    [board] = posts.ends[0].boards
    assert {s.line.user_id: s.line.games for s in board.standings} == {"1": 4, "2": 3, "3": 1}


async def test_nobody_ranked_means_no_champion(store: Store) -> None:
    await november_games(store)
    board = await Leaderboards(store, min_games=5).season_board(
        1, "count", Season(utc(2026, 11, 1), utc(2026, 12, 1), "month"))
    assert board.ranked_count == 0 and champions_of([board]) == {}


async def test_only_the_owner_of_a_guilds_shard_posts_its_season(store: Store) -> None:
    from bot.records.shards import ShardSet, shard_of
    first, second = 1, 1 << 22  # on shards 0 and 1 of 2
    assert (shard_of(first, 2), shard_of(second, 2)) == (0, 1)
    for guild in (first, second):
        await november_games(store, guild)
    now = [DECEMBER]
    posts = {shard: Recorder() for shard in (0, 1)}
    watchers = {
        shard: SeasonWatcher(store, Leaderboards(store, min_games=1), ["count"],
                             clock=lambda: now[0], shards=ShardSet.of(2, [shard]),
                             notifier=posts[shard])
        for shard in (0, 1)
    }
    assert await watchers[0].tick() == 1 and await watchers[1].tick() == 1
    assert [end.guild_id for end in posts[0].ends] == [first]
    assert [end.guild_id for end in posts[1].ends] == [second]


async def test_a_chats_season_is_seen_to_by_the_owner_of_shard_0(store: Store) -> None:
    """A DM's or group DM's place is its channel (issue 39): Discord delivers its clicks, which
    carry the season's end there, on shard 0, whatever shard its id would fall on."""
    from bot.records.shards import ShardSet, shard_of
    chat = 1 << 22  # as a server's id it would fall on shard 1 of 2
    assert shard_of(chat, 2) == 1
    for when in (NOVEMBER, NOVEMBER + timedelta(hours=1)):
        await finish(store, {"1": 1, "2": 2}, when, guild=chat, channel=chat)
    now = [DECEMBER]
    posts = {shard: Recorder() for shard in (0, 1)}
    watchers = {
        shard: SeasonWatcher(store, Leaderboards(store, min_games=1), ["count"],
                             clock=lambda: now[0], shards=ShardSet.of(2, [shard]),
                             notifier=posts[shard])
        for shard in (0, 1)
    }
    await watchers[0].tick()
    await watchers[1].tick()
    assert [end.guild_id for end in posts[0].ends] == [chat]
    assert posts[1].ends == []


async def test_seasons_that_ended_while_no_process_ran_are_posted_at_the_next_start_once(
    db_path: object,
) -> None:
    """A watcher saw October through; then no process ran until January: November (which
    ended while none ran, through the whole of December) and December are posted at the next
    start, oldest first, and a restart posts neither again."""
    first = await open_store(db_path)  # type: ignore[arg-type]
    october = NOVEMBER - timedelta(days=25)
    assert await first.claim_season(1, "2026-10", {}, owner="x", now=october,
                                    stale_before=october)
    await first.finish_season_post(1, "2026-10", owner="x", message_id=None, at=october)
    await november_games(first)
    await set_channel(first)
    posts = Recorder()
    now = [datetime(2027, 1, 10, tzinfo=UTC)]
    try:
        assert await watcher(first, posts, now).tick() == 2
    finally:
        await first.close()
    assert [end.season.name for end in posts.ends] == ["2026-11", "2026-12"]
    assert posts.ends[0].champions == {"count": "1"}
    second = await open_store(db_path)  # type: ignore[arg-type]
    try:
        now[0] += timedelta(hours=1)
        assert await watcher(second, posts, now).tick() == 0
        assert len(posts.ends) == 2
    finally:
        await second.close()


async def test_a_first_start_posts_only_the_last_ended_season(store: Store) -> None:
    """With no season seen through before (a new install), older seasons are history: only
    the last ended one is posted."""
    await november_games(store)
    await set_channel(store)
    posts = Recorder()
    assert await watcher(store, posts, [datetime(2027, 1, 10, tzinfo=UTC)]).tick() == 1
    assert [end.season.name for end in posts.ends] == ["2026-12"]
