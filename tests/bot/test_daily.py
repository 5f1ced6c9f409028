"""The daily deal's core (bot.daily): the seed (the same on two processes for one day,
another the next day, not computable without the key), once per player and day, resuming,
the score recorded when the game ends, and streaks across day boundaries and gaps."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.daily.deal import daily_seed, deal_day, next_deal_at
from bot.daily.service import AlreadyPlayed, DailyDeals, OpenElsewhere
from bot.daily.streaks import Streak, streak_of
from bot.records.session import SessionKind, Status
from bot.sessions.manager import SessionManager
from bot.store import open_store
from game.split import SplitEngine
from game.ten import TenEngine
from tests.bot.conftest import FakeClock, seat

ENGINES = {"split": SplitEngine(), "ten": TenEngine()}
DAY = date(2026, 12, 2)


# --- the seed -------------------------------------------------------------------------------


def test_the_seed_depends_on_the_key_the_game_and_the_day() -> None:
    key = "k" * 64
    seed = daily_seed(key, "ten", DAY)
    assert seed == daily_seed(key.encode(), "ten", DAY)  # the same everywhere it is computed
    assert 0 <= seed < 2**63
    assert daily_seed(key, "ten", DAY + timedelta(days=1)) != seed
    assert daily_seed(key, "split", DAY) != seed
    # Without the key: any other key gives another deal.
    assert daily_seed("x" * 64, "ten", DAY) != seed
    assert daily_seed("", "ten", DAY) != seed


def test_the_day_and_the_next_deal_are_utc() -> None:
    late = datetime(2026, 12, 2, 23, 59, 59, tzinfo=UTC)
    assert deal_day(late) == DAY
    assert next_deal_at(late) == datetime(2026, 12, 3, tzinfo=UTC)
    assert deal_day(late + timedelta(seconds=1)) == DAY + timedelta(days=1)


async def test_two_processes_on_one_database_deal_the_same_cards(tmp_path: Path) -> None:
    url = tmp_path / "shared.sqlite3"
    first, second = await open_store(url), await open_store(url)
    try:
        clock = FakeClock()
        one = DailyDeals(SessionManager(first, ENGINES, clock=clock))
        two = DailyDeals(SessionManager(second, ENGINES, clock=clock))
        keys = await asyncio.gather(one.key(), two.key())  # both claim the key at once
        assert keys[0] == keys[1] and len(keys[0]) == 64
        assert await one.seed("ten", DAY) == await two.seed("ten", DAY)
        assert await one.seed("ten", DAY) != await two.seed("ten", DAY + timedelta(days=1))
    finally:
        await first.close()
        await second.close()


async def test_daily_secret_gives_the_same_deal_on_separate_databases(tmp_path: Path) -> None:
    first = await open_store(tmp_path / "a.sqlite3")
    second = await open_store(tmp_path / "b.sqlite3")
    try:
        one = DailyDeals(SessionManager(first, ENGINES), secret="our secret")
        two = DailyDeals(SessionManager(second, ENGINES), secret="our secret")
        assert await one.seed("split", DAY) == await two.seed("split", DAY)
        assert await first.get_meta("daily_secret") is None  # the setting is never stored
        other = DailyDeals(SessionManager(second, ENGINES))
        assert await other.seed("split", DAY) != await one.seed("split", DAY)
    finally:
        await first.close()
        await second.close()


# --- once a day -----------------------------------------------------------------------------


@pytest.fixture
async def deals(tmp_path: Path) -> DailyDeals:
    store = await open_store(tmp_path / "daily.sqlite3")
    clock = FakeClock()
    clock.now = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)
    manager = SessionManager(store, ENGINES, clock=clock)
    daily = DailyDeals(manager, secret="test secret")
    manager.subscribe(daily.on_change)
    yield daily
    await store.close()


async def finish(daily: DailyDeals, session_id: int) -> None:
    """Play every seat's default move until the game ends."""
    manager = daily.manager
    for _ in range(5000):
        live = manager.get(session_id)
        if live is None:
            await manager.settle()
            return
        player = manager.awaiting(live)[0]
        engine = manager.engine(live.game)
        await manager.act(session_id, player, live.version,
                          engine.default_action(live.state, player),
                          autopilot=live.seat_of(player).is_bot)  # type: ignore[union-attr]
    raise AssertionError("the game did not end")


async def test_once_per_player_and_day_and_a_resume_before_the_end(deals: DailyDeals) -> None:
    opened = await deals.open(1, 100, "ten", seat(7))
    assert not opened.resumed and opened.session.kind is SessionKind.DAILY
    assert [s.bot_level for s in opened.session.seats] == [None, "normal"]
    assert opened.session.state.seed == await deals.seed("ten", DAY)
    again = await deals.open(2, 200, "ten", seat(7))  # another server, the same day
    assert again.resumed and again.session.id == opened.session.id
    other = await deals.open(1, 100, "ten", seat(8))  # another player: the same deal
    assert other.session.state.seed == opened.session.state.seed
    await finish(deals, opened.session.id)
    with pytest.raises(AlreadyPlayed) as refused:
        await deals.open(1, 100, "ten", seat(7))
    assert refused.value.next_at == datetime(2026, 12, 3, tzinfo=UTC)
    play = await deals.store.daily_play("ten", DAY, "7")
    stored = await deals.store.load_session(opened.session.id)
    assert play is not None and stored is not None and stored.status is Status.FINISHED
    assert play.score == deals.score_of(stored)
    assert await deals.store.results(1, "ten") == []  # not rated, not on the leaderboards


async def test_two_commands_at_once_deal_one_table(deals: DailyDeals) -> None:
    first, second = await asyncio.gather(deals.open(1, 100, "split", seat(7)),
                                         deals.open(1, 100, "split", seat(7)))
    assert first.session.id == second.session.id
    assert [s.bot_level for s in first.session.seats] == [None, "expert", "expert"]
    assert len(deals.manager.private_of("7", SessionKind.DAILY)) == 1


async def test_the_next_day_deals_again_and_abandons_an_unfinished_one(
    deals: DailyDeals,
) -> None:
    clock = deals.manager.clock
    assert isinstance(clock, FakeClock)
    yesterday = await deals.open(1, 100, "ten", seat(7))
    clock.advance(days=1)
    today = await deals.open(1, 100, "ten", seat(7))
    assert not today.resumed and today.session.id != yesterday.session.id
    assert today.session.state.seed == await deals.seed("ten", DAY + timedelta(days=1))
    assert today.session.state.seed != yesterday.session.state.seed
    left = await deals.store.load_session(yesterday.session.id)
    assert left is not None and left.status is Status.ABANDONED
    assert (await deals.store.daily_play("ten", DAY, "7")).score is None  # type: ignore[union-attr]


async def test_a_game_finished_after_its_day_does_not_count(deals: DailyDeals) -> None:
    clock = deals.manager.clock
    assert isinstance(clock, FakeClock)
    opened = await deals.open(1, 100, "ten", seat(7))
    clock.advance(days=1)
    await finish(deals, opened.session.id)
    assert (await deals.store.daily_play("ten", DAY, "7")).score is None  # type: ignore[union-attr]
    assert await deals.summary(await deals.store.load_session(opened.session.id)) is None  # type: ignore[arg-type]


async def test_the_summary_board_best_and_streak(deals: DailyDeals) -> None:
    clock = deals.manager.clock
    assert isinstance(clock, FakeClock)
    for player, guild in (("7", 1), ("8", 1), ("9", 2)):
        opened = await deals.open(guild, 100, "ten", seat(int(player)))
        await finish(deals, opened.session.id)
    ended = await deals.store.load_session(opened.session.id)
    summary = await deals.summary(ended)  # type: ignore[arg-type]
    assert summary is not None and summary.play.user_id == "9"
    assert [p.user_id for p in summary.board] == ["9"]  # server 2's board
    board = await deals.board(1, "ten", DAY)
    assert sorted(p.user_id for p in board) == ["7", "8"]
    assert [p.score for p in board] == sorted((p.score for p in board), reverse=True)
    assert summary.best == max(p.score for p in [*board, summary.play])  # type: ignore[type-var]
    assert summary.streak == Streak(1, 1, DAY)
    clock.advance(days=1)
    assert (await deals.streak("9", "ten")).current == 1  # today's still to play
    clock.advance(days=1)
    assert (await deals.streak("9", "ten")) == Streak(0, 1, DAY)  # a day missed


async def test_a_daily_held_by_another_process_is_resumed_from_its_server(
    tmp_path: Path,
) -> None:
    url = tmp_path / "shards.sqlite3"
    first, second = await open_store(url), await open_store(url)
    try:
        clock = FakeClock()
        owner = DailyDeals(SessionManager(first, ENGINES, clock=clock), secret="s")
        other = DailyDeals(SessionManager(second, ENGINES, clock=clock), secret="s")
        await owner.open(1, 100, "ten", seat(7))  # server 1, on the first process's shards
        with pytest.raises(OpenElsewhere) as elsewhere:
            await other.open(2, 200, "ten", seat(7))
        assert elsewhere.value.guild_id == 1
    finally:
        await first.close()
        await second.close()


# --- streaks --------------------------------------------------------------------------------


def test_streak_arithmetic_across_a_day_boundary_and_a_gap() -> None:
    d = DAY
    assert streak_of([], d) == Streak(0, 0, None)
    assert streak_of([d], d) == Streak(1, 1, d)
    run = [d - timedelta(days=n) for n in range(3)]
    assert streak_of(run, d) == Streak(3, 3, d)
    # The next day, before playing: the run stands; played: it grows; a day missed: it ends.
    assert streak_of(run, d + timedelta(days=1)) == Streak(3, 3, d)
    assert streak_of([*run, d + timedelta(days=1)], d + timedelta(days=1)).current == 4
    assert streak_of(run, d + timedelta(days=2)) == Streak(0, 3, d)
    # A gap: the best run stays, the current one starts again.
    gapped = [*run, d + timedelta(days=2), d + timedelta(days=3)]
    assert streak_of(gapped, d + timedelta(days=3)) == Streak(2, 3, d + timedelta(days=3))
    assert streak_of([d, d, d], d) == Streak(1, 1, d)  # one day counts once
    # Across the month and year boundaries.
    assert streak_of([date(2026, 12, 31), date(2027, 1, 1)], date(2027, 1, 1)).current == 2
    assert streak_of([date(2026, 11, 30), date(2026, 12, 1)], date(2026, 12, 1)).current == 2
