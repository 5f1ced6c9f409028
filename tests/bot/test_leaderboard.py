from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.rankings.leaderboard import Board, Leaderboards, period_start
from bot.records.session import ResultRow, Seat, Session, Status
from bot.store import Store

NOW = datetime(2024, 5, 15, 12, 0, tzinfo=UTC)  # a Wednesday
_channels = itertools.count(1000)


async def finish(
    store: Store,
    places: dict[str, int],
    when: datetime,
    *,
    guild: int = 1,
    game: str = "count",
    channel: int | None = None,
    bots: frozenset[str] = frozenset(),
    scores: dict[str, int] | None = None,
) -> int:
    """Store a finished game the way the manager does: the last action plus its results."""
    seats = tuple(Seat(player_id=p, display_name=f"P{p}", is_bot=p in bots) for p in places)
    session = await store.create_session(Session(
        id=0, guild_id=guild, channel_id=channel or next(_channels), game=game,
        status=Status.FINISHED, host_id=next(iter(places)), seats=seats, created_at=when,
        updated_at=when,
    ))
    rated = not bots and len(places) >= 2
    rows = [
        ResultRow(session.id, guild, game, player, place,
                  (scores or {}).get(player, 10 * (len(places) - place)), player in bots,
                  bool(bots), rated, when)
        for player, place in places.items()
    ]
    await store.record_action(replace(session, version=2), next(iter(places)), "end", rows)
    return session.id


def boards(store: Store, min_games: int = 1, now: datetime = NOW) -> Leaderboards:
    return Leaderboards(store, min_games=min_games, clock=lambda: now)


def order(board: Board) -> list[tuple[int | None, str]]:
    return [(s.rank, s.line.user_id) for s in board.standings]


# --- periods ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "month", "week"),
    [
        (NOW, datetime(2024, 5, 1, tzinfo=UTC), datetime(2024, 5, 13, tzinfo=UTC)),
        # Monday 00:00 starts its own week; Sunday 23:59 still belongs to the previous one.
        (datetime(2024, 5, 13, 0, 0, tzinfo=UTC), datetime(2024, 5, 1, tzinfo=UTC),
         datetime(2024, 5, 13, tzinfo=UTC)),
        (datetime(2024, 5, 12, 23, 59, tzinfo=UTC), datetime(2024, 5, 1, tzinfo=UTC),
         datetime(2024, 5, 6, tzinfo=UTC)),
        # A week that began in the previous month (and year).
        (datetime(2025, 1, 1, 8, 0, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC),
         datetime(2024, 12, 30, tzinfo=UTC)),
        # Local time is converted to UTC first: 01:00 at +02:00 is still the previous day.
        (datetime(2024, 6, 1, 1, 0, tzinfo=timezone(timedelta(hours=2))),
         datetime(2024, 5, 1, tzinfo=UTC), datetime(2024, 5, 27, tzinfo=UTC)),
    ],
)
def test_period_starts_are_calendar_periods_in_utc(
    now: datetime, month: datetime, week: datetime
) -> None:
    assert period_start("all", now) is None
    assert period_start("month", now) == month
    assert period_start("week", now) == week


async def test_period_filters(store: Store) -> None:
    await finish(store, {"1": 1, "2": 2}, datetime(2024, 4, 30, 23, 59, tzinfo=UTC))  # April
    await finish(store, {"1": 1, "2": 2}, datetime(2024, 5, 1, 0, 0, tzinfo=UTC))  # month start
    await finish(store, {"1": 1, "3": 2}, datetime(2024, 5, 12, 23, 59, tzinfo=UTC))  # last week
    await finish(store, {"2": 1, "3": 2}, datetime(2024, 5, 13, 0, 0, tzinfo=UTC))  # week start
    service = boards(store)

    def games(board: Board) -> dict[str, int]:
        return {s.line.user_id: s.line.games for s in board.standings}

    assert games(await service.board(1, "count", "all")) == {"1": 3, "2": 3, "3": 2}
    assert games(await service.board(1, "count", "month")) == {"1": 2, "2": 2, "3": 2}
    week = await service.board(1, "count", "week")
    assert games(week) == {"2": 1, "3": 1}
    assert week.since == datetime(2024, 5, 13, tzinfo=UTC)
    # Ratings are per period: this week 2 beat 3 once, whatever happened before.
    assert order(week) == [(1, "2"), (2, "3")]


# --- ranking ------------------------------------------------------------------------------------


async def test_ranked_by_ordinal_with_counts(store: Store) -> None:
    when = NOW - timedelta(days=1)
    for minute in range(4):
        await finish(store, {"1": 1, "2": 2, "3": 3}, when + timedelta(minutes=minute),
                     scores={"1": 50 + minute, "2": 30, "3": 10})
    await finish(store, {"3": 1, "2": 2, "1": 3}, when + timedelta(minutes=9),
                 scores={"1": 5, "2": 30, "3": 60})
    board = await boards(store).board(1, "count", "all")
    assert order(board) == [(1, "1"), (2, "2"), (3, "3")]
    ordinals = [s.rating.ordinal for s in board.standings if s.rating]
    assert ordinals == sorted(ordinals, reverse=True)
    first = board.standings[0].line
    assert (first.games, first.wins, first.best, first.rated_games) == (5, 4, 53, 5)
    assert first.win_rate == pytest.approx(0.8)
    assert first.average == pytest.approx((50 + 51 + 52 + 53 + 5) / 5)


async def test_equal_ratings_share_a_rank(store: Store) -> None:
    when = NOW - timedelta(days=1)
    for minute in range(3):
        await finish(store, {"1": 1, "2": 1, "3": 3}, when + timedelta(minutes=minute))
    board = await boards(store).board(1, "count", "all")
    assert order(board) == [(1, "1"), (1, "2"), (3, "3")]  # ties ordered by user id
    assert board.standings[0].rating == board.standings[1].rating


async def test_minimum_rated_games_lists_newcomers_after_the_ranked(store: Store) -> None:
    when = NOW - timedelta(days=1)
    for minute in range(3):
        await finish(store, {"1": 1, "2": 2}, when + timedelta(minutes=minute))
    # 9 beats everyone twice: a higher rating than 2, but only two rated games.
    await finish(store, {"9": 1, "1": 2}, when + timedelta(minutes=10))
    await finish(store, {"9": 1, "2": 2}, when + timedelta(minutes=11))
    board = await boards(store, min_games=3).board(1, "count", "all")
    assert order(board) == [(1, "1"), (2, "2"), (None, "9")]
    newcomer, second = board.standings[2].rating, board.standings[1].rating
    assert newcomer is not None and second is not None
    assert newcomer.ordinal > second.ordinal
    assert board.ranked_count == 2
    # With a lower minimum the same rating ranks them.
    assert order(await boards(store, min_games=2).board(1, "count", "all"))[0] == (1, "9")


async def test_bot_games_are_unrated_and_bots_are_not_listed(store: Store) -> None:
    when = NOW - timedelta(days=1)
    await finish(store, {"1": 1, "2": 2}, when)
    # 2 beats 1 twice, but with a bot seat at the table: not rated.
    for minute in (1, 2):
        await finish(store, {"2": 1, "1": 2, "bot:1": 3}, when + timedelta(minutes=minute),
                     bots=frozenset({"bot:1"}))
    board = await boards(store).board(1, "count", "all")
    lines = {s.line.user_id: s for s in board.standings}
    assert set(lines) == {"1", "2"}
    assert (lines["2"].line.games, lines["2"].line.wins, lines["2"].line.rated_games) == (3, 2, 1)
    assert order(board) == [(1, "1"), (2, "2")]  # the bot games did not lift 2
    rows = await store.results(1, "count")
    assert [r.is_bot_seat for r in rows if r.user_id == "bot:1"] == [True, True]


async def test_guilds_and_games_are_separate(store: Store) -> None:
    when = NOW - timedelta(days=1)
    await finish(store, {"1": 1, "2": 2}, when)
    await finish(store, {"3": 1, "4": 2}, when, guild=2)
    await finish(store, {"5": 1, "6": 2}, when, game="other")
    service = boards(store)
    assert {s.line.user_id for s in (await service.board(1, "count")).standings} == {"1", "2"}
    assert {s.line.user_id for s in (await service.board(2, "count")).standings} == {"3", "4"}
    assert {s.line.user_id for s in (await service.board(1, "other")).standings} == {"5", "6"}
    assert (await service.board(3, "count")).standings == ()


async def test_pages(store: Store) -> None:
    when = NOW - timedelta(days=1)
    for n in range(12):
        await finish(store, {str(100 + n): 1, str(200 + n): 2}, when + timedelta(minutes=n))
    board = await boards(store).board(1, "count", "all")
    assert board.page_count(10) == 3
    assert [len(board.page(n, 10)[1]) for n in range(3)] == [10, 10, 4]
    assert board.page(7, 10)[0] == 2  # a stale page number is clamped
    assert board.page(-1, 10)[0] == 0
    everyone = [s for n in range(3) for s in board.page(n, 10)[1]]
    assert everyone == list(board.standings)
    assert Board(1, "count", "all", None, 3, ()).page_count(10) == 1


# --- reads -------------------------------------------------------------------------------------
# (That the stored standings equal a full replay is tested on both backends in
# tests/store/test_standings.py.)


async def test_an_answered_board_is_not_changed_by_later_games(store: Store) -> None:
    await finish(store, {"1": 1, "2": 2}, NOW - timedelta(days=1))
    service = boards(store)
    before = await service.board(1, "count")
    await finish(store, {"1": 1, "2": 2}, NOW - timedelta(hours=1))
    after = await service.board(1, "count")
    assert before.standings[0].line.games == 1
    assert after.standings[0].line.games == 2


# --- player records and history -----------------------------------------------------------------


async def test_recent_games_newest_first(store: Store) -> None:
    when = NOW - timedelta(days=10)
    for day in range(7):
        await finish(store, {"1": 1 + day % 2, "2": 2 - day % 2, "3": 3},
                     when + timedelta(days=day), scores={"1": day, "2": 0, "3": 0})
    await finish(store, {"1": 1, "2": 2}, NOW, game="other")
    recent = await boards(store).recent_games(1, ["count"], "1", 5)
    assert [g.score for g in recent] == [6, 5, 4, 3, 2]
    assert [(g.placement, g.players) for g in recent[:2]] == [(1, 3), (2, 3)]
    both = await boards(store).recent_games(1, ["count", "other"], "1", 2)
    assert [g.game for g in both] == ["other", "count"]
    assert await boards(store).recent_games(1, ["count"], "99", 5) == []


async def test_channel_history(store: Store) -> None:
    when = NOW - timedelta(days=1)
    ids = [await finish(store, {"1": 1, "2": 2}, when + timedelta(minutes=n), channel=50)
           for n in range(12)]
    await finish(store, {"1": 1, "bot:1": 2}, when + timedelta(hours=1), channel=50,
                 bots=frozenset({"bot:1"}))
    await finish(store, {"7": 1, "8": 2}, when, channel=51)
    abandoned = await store.create_session(Session(
        id=0, guild_id=1, channel_id=50, game="count", status=Status.ABANDONED, host_id="1",
        seats=(Seat(player_id="1", display_name="P1"),),
    ))
    history = await boards(store).channel_history(50, 10)
    assert len(history) == 10
    assert abandoned.id not in {g.session_id for g in history}
    newest = history[0]
    assert not newest.rated
    assert [(line.user_id, line.placement, line.is_bot, line.name) for line in newest.lines] == [
        ("1", 1, False, "P1"), ("bot:1", 2, True, "Pbot:1"),
    ]
    assert [g.session_id for g in history[1:]] == list(reversed(ids))[:9]
    assert await boards(store).channel_history(52, 10) == []
