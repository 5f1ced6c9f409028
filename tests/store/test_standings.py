"""The stored standings (derived rows written with each game's results) equal today's
replay of OpenSkill over the results rows, on both backends: in every period, after games out
of time order, with bot games, guilds and games mixed; after a rebuild; and when two stores
finish games of one guild at once."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.rankings import rebuild_ratings
from bot.rankings.leaderboard import Board, Leaderboards, Tally, build_board
from bot.records.period_standings import PERIODS, Period, ReplayRow, period_start
from bot.records.ratings import MODEL_ID
from bot.records.session import ResultRow, Seat, Session, Status
from bot.store import Store, open_store
from bot.store.sql import SqlStore
from bot.store.standings_rows import MODEL_KEY

NOW = datetime(2024, 5, 15, 12, 0, tzinfo=UTC)


async def finish(store: Store, places: dict[str, int], when: datetime, *, guild: int = 1,
                 game: str = "count", bots: frozenset[str] = frozenset(),
                 channel: int = 0) -> None:
    """A finished game as the manager stores it: the last action with its results."""
    seats = tuple(Seat(player_id=p, display_name=p, is_bot=p in bots) for p in places)
    session = await store.create_session(Session(
        id=0, guild_id=guild, channel_id=channel, game=game, status=Status.FINISHED,
        host_id=next(iter(places)), seats=seats, created_at=when, updated_at=when,
    ))
    rated = not bots and len(places) >= 2
    rows = [ResultRow(session.id, guild, game, p, place, 7 * place + len(p), p in bots,
                      bool(bots), rated, when) for p, place in places.items()]
    await store.record_action(replace(session, version=2), next(iter(places)), "end", rows)


async def replayed(store: Store, guild: int, game: str, period: Period, now: datetime,
                   min_games: int) -> Board:
    """The leaderboard as it was computed before standings were stored: the period's results
    rows (finished_at >= its start) replayed from scratch."""
    since = period_start(period, now)
    tally = Tally()
    tally.add([
        ReplayRow(r.session_id, r.finished_at.isoformat(), r.user_id, r.placement, r.score,
                  int(r.is_bot_seat), int(r.rated))
        for r in await store.results(guild, game, since=since)
    ])
    return build_board(tally.derived(), guild, game, period, since, min_games)


def random_game(rng: random.Random) -> tuple[dict[str, int], frozenset[str]]:
    players = rng.sample([str(n) for n in range(1, 13)], rng.randint(2, 4))
    places = {p: rng.randint(1, len(players)) for p in players}
    bots = frozenset({"bot:1"}) if rng.random() < 0.2 else frozenset()
    if bots:
        places["bot:1"] = len(players) + 1
    return places, bots


async def assert_all_equal(store: Store, now: datetime, guilds: tuple[int, ...] = (1, 2)) -> None:
    for guild in guilds:
        for period in PERIODS:
            board = await Leaderboards(store, min_games=2, clock=lambda: now).board(
                guild, "count", period)
            assert board == await replayed(store, guild, "count", period, now, 2)


async def test_stored_standings_equal_a_full_replay(store: SqlStore) -> None:
    rng = random.Random(7)
    clock = NOW - timedelta(days=40)
    for batch in range(6):
        for _ in range(rng.randint(3, 12)):
            clock += timedelta(hours=rng.randint(1, 30))
            places, bots = random_game(rng)
            await finish(store, places, clock, bots=bots, guild=rng.choice([1, 1, 2]))
        if batch == 3:
            # Games stamped before ones already counted (a clock step back; another process):
            # one in this week and month, one a month back. The periods are rebuilt.
            for back in (timedelta(hours=2), timedelta(days=30)):
                places, bots = random_game(rng)
                await finish(store, places, clock - back, bots=bots)
        await assert_all_equal(store, clock)
    board = await Leaderboards(store, min_games=2, clock=lambda: clock).board(1, "count")
    assert board.ranked_count > 5 and all(s.rating for s in board.standings if s.rank)


async def test_periods_hold_only_their_games(store: SqlStore) -> None:
    await finish(store, {"1": 1, "2": 2}, datetime(2024, 4, 30, 23, 59, tzinfo=UTC))
    await finish(store, {"1": 2, "2": 1}, datetime(2024, 5, 13, 0, 0, tzinfo=UTC))
    service = Leaderboards(store, min_games=1, clock=lambda: NOW)
    games = {period: {s.line.user_id: s.line.games
                      for s in (await service.board(1, "count", period)).standings}
             for period in PERIODS}
    assert games == {"all": {"1": 2, "2": 2}, "month": {"1": 1, "2": 1},
                     "week": {"1": 1, "2": 1}}
    next_month = Leaderboards(store, min_games=1, clock=lambda: datetime(2024, 6, 2, tzinfo=UTC))
    assert (await next_month.board(1, "count", "month")).standings == ()


async def test_rebuild_gives_the_same_rows_and_repairs_damaged_ones(store: SqlStore) -> None:
    rng = random.Random(3)
    when = NOW - timedelta(days=20)
    for _ in range(25):
        when += timedelta(hours=rng.randint(1, 20))
        places, bots = random_game(rng)
        await finish(store, places, when, bots=bots, guild=rng.choice([1, 2]))
    every_row = ("SELECT guild_id, game, period_key, user_id, games, wins, score_total, best,"
                 " rated_games, mu, sigma FROM standings"
                 " ORDER BY guild_id, game, period_key, user_id")
    marks = "SELECT * FROM standing_marks ORDER BY guild_id, game, period_key"
    before = await store.query(every_row), await store.query(marks)
    assert len(before[0]) > 30
    async with store._transaction() as tx:
        await tx.execute("UPDATE standings SET games = games + 5, mu = 1.0 WHERE guild_id = 1")
    assert await store.rebuild_standings(1, "count") > 0
    assert (await store.query(every_row), await store.query(marks)) == before
    async with store._transaction() as tx:
        await tx.execute("DELETE FROM standings")
        await tx.execute("DELETE FROM standing_marks")
    await store.rebuild_standings()  # everything
    assert (await store.query(every_row), await store.query(marks)) == before
    await assert_all_equal(store, when)


async def test_a_new_rating_model_rebuilds_the_rows_on_open(
    store: SqlStore, db_url: str
) -> None:
    await finish(store, {"1": 1, "2": 2}, NOW - timedelta(days=1))
    assert await store.get_meta(MODEL_KEY) == MODEL_ID
    async with store._transaction() as tx:
        await tx.execute("DELETE FROM standings")
    await store.set_meta(MODEL_KEY, "an older model")
    await store.close()
    reopened = await open_store(db_url)
    try:
        assert await reopened.get_meta(MODEL_KEY) == MODEL_ID
        await assert_all_equal(reopened, NOW, guilds=(1,))
        assert len(await reopened.standings(1, "count", "all")) == 2
    finally:
        await reopened.close()


async def test_two_stores_finishing_games_of_one_guild_at_once(
    store: SqlStore, db_url: str
) -> None:
    other = await open_store(db_url)
    try:
        rng = random.Random(11)
        for round_no in range(8):
            when = NOW - timedelta(hours=10 - round_no)
            games = [random_game(rng) for _ in range(2)]
            await asyncio.gather(
                finish(store, games[0][0], when, bots=games[0][1], channel=1),
                # Another process a few milliseconds apart (either may commit first).
                finish(other, games[1][0], when + timedelta(milliseconds=3), bots=games[1][1],
                       channel=2),
            )
        await assert_all_equal(store, NOW, guilds=(1,))
    finally:
        await other.close()


async def test_the_rebuild_command(store: SqlStore, db_url: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    await finish(store, {"1": 1, "2": 2}, NOW - timedelta(days=1))
    await finish(store, {"1": 2, "3": 1}, NOW - timedelta(hours=1), guild=2)
    async with store._transaction() as tx:
        await tx.execute("DELETE FROM standings")
    assert await asyncio.to_thread(rebuild_ratings.main, ["--database", db_url]) == 0
    assert "from 4 results rows" in capsys.readouterr().out
    await assert_all_equal(store, NOW)
    assert await asyncio.to_thread(
        rebuild_ratings.main, ["--database", db_url, "--guild", "2", "--game", "count"]) == 0
    assert "guild 2, count from 2 results rows" in capsys.readouterr().out
    assert await asyncio.to_thread(rebuild_ratings.main, ["--database", "mysql://x"]) == 2
    assert "DATABASE_URL is invalid" in capsys.readouterr().err
