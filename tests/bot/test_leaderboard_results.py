"""How finished games become results rows: leavers last, abandoned games none, exactly once."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.rankings.leaderboard import Leaderboards
from bot.records.errors import SaveFailed
from bot.records.session import Session, Status
from bot.sessions.manager import SessionManager
from bot.sessions.transitions import leavers_last
from bot.store import Store, open_store
from game.base import PlayerResult
from tests.bot.conftest import FakeClock, make_manager, seat
from tests.testgame import Add


async def started(manager: SessionManager, players: int) -> Session:
    session = await manager.open_lobby(1, 10, "count", seat(1))
    for n in range(2, players + 1):
        session = await manager.join(session.id, seat(n))
    return await manager.start(session.id, "1")


async def move(manager: SessionManager, session_id: int, player: str, *,
               autopilot: bool = False) -> None:
    current = manager.get(session_id)
    assert current is not None
    await manager.act(session_id, player, current.version, Add(add=2), autopilot=autopilot)


def placements(results: list[tuple[str, int]], leavers: set[str]) -> dict[str, int]:
    return leavers_last([PlayerResult(player=p, placement=n, score=0) for p, n in results],
                         leavers)


def test_leavers_are_placed_after_everyone_who_stayed() -> None:
    assert placements([("a", 1), ("b", 2), ("c", 3), ("d", 4)], {"b"}) == {
        "a": 1, "c": 2, "d": 3, "b": 4
    }
    # Ties among those who stayed are kept; several leavers share last place.
    assert placements([("a", 1), ("b", 1), ("c", 1), ("d", 4)], {"a", "d"}) == {
        "b": 1, "c": 1, "a": 3, "d": 3
    }
    assert placements([("a", 1), ("b", 2)], set()) == {"a": 1, "b": 2}


async def test_a_leaver_who_would_have_won_is_placed_last_and_the_game_is_rated(
    manager: SessionManager, store: Store
) -> None:
    session = await started(manager, 3)
    await move(manager, session.id, "1")  # 2
    await manager.leave(session.id, "2")  # a bot plays seat 2 from now on
    await move(manager, session.id, "2", autopilot=True)  # 4
    await move(manager, session.id, "3")  # 6
    await move(manager, session.id, "1")  # 8
    await move(manager, session.id, "2", autopilot=True)  # 10: seat 2 reaches the target
    assert manager.get(session.id) is None
    rows = {r.user_id: r for r in await store.results(1, "count")}
    assert {user: r.placement for user, r in rows.items()} == {"1": 1, "3": 1, "2": 3}
    assert rows["2"].score == 10  # the score stays what the engine counted
    assert all(r.rated and not r.is_bot_seat and not r.bots_in_game for r in rows.values())
    board = await Leaderboards(store, min_games=1).board(1, "count")
    assert [(s.rank, s.line.user_id) for s in board.standings] == [(1, "1"), (1, "3"), (3, "2")]
    (game,) = await Leaderboards(store).channel_history(10)
    assert [(line.user_id, line.placement, line.left) for line in game.lines] == [
        ("1", 1, False), ("3", 1, False), ("2", 3, True)
    ]


async def test_abandoned_games_write_no_results(manager: SessionManager, store: Store) -> None:
    session = await started(manager, 2)
    await move(manager, session.id, "1")
    await manager.cancel(session.id, "1")
    lobby = await manager.open_lobby(1, 11, "count", seat(1))
    await manager.leave(lobby.id, "1")  # an emptied lobby is abandoned too
    assert (await store.load_session(session.id)).status is Status.ABANDONED  # type: ignore[union-attr]
    assert (await store.load_session(lobby.id)).status is Status.ABANDONED  # type: ignore[union-attr]
    assert await store.results(1, "count") == []
    assert (await Leaderboards(store).board(1, "count")).standings == ()
    assert await Leaderboards(store).channel_history(10) == []


async def _play_until_last_move(manager: SessionManager, session_id: int) -> str:
    """Play COUNT (target 10) up to the move that ends it; returns who makes that move."""
    player = "1"
    for _ in range(4):  # 2, 4, 6, 8
        await move(manager, session_id, player)
        player = "2" if player == "1" else "1"
    return player


def _result_count(db_path: Path) -> int:
    conn = sqlite3.connect(db_path)
    try:
        return int(conn.execute("SELECT count(*) FROM results").fetchone()[0])
    finally:
        conn.close()


async def test_results_written_exactly_once_across_a_crash_during_the_finish(
    store: Store, clock: FakeClock, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = make_manager(store, clock)
    session = await started(manager, 2)
    last = await _play_until_last_move(manager, session.id)
    insert = store._insert_result
    written = 0

    async def dies_after_the_first_row(tx: object, result: object) -> None:
        nonlocal written
        if written == 1:
            raise OSError("power cut")
        written += 1
        await insert(tx, result)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "_insert_result", dies_after_the_first_row)
    with pytest.raises(SaveFailed):
        await move(manager, session.id, last)
    monkeypatch.undo()
    await store.close()
    assert _result_count(db_path) == 0  # the half-written finish was rolled back entirely

    # The bot restarts: the game is still running, one move from the end.
    reopened = await open_store(db_path)
    try:
        restarted = make_manager(reopened, clock)
        assert (await restarted.restore()).restored == 1
        await move(restarted, session.id, last)
        assert restarted.get(session.id) is None
        assert sorted((r.user_id, r.placement) for r in await reopened.results(1, "count")) == [
            (last, 1), ("2" if last == "1" else "1", 2)
        ]
    finally:
        await reopened.close()

    # Another restart after the finish: nothing is restored, nothing is written again.
    again = await open_store(db_path)
    try:
        assert (await make_manager(again, clock).restore()).restored == 0
        board = await Leaderboards(again, min_games=1).board(1, "count")
        assert [s.line.games for s in board.standings] == [1, 1]
    finally:
        await again.close()
    assert _result_count(db_path) == 2


async def test_a_second_write_of_the_same_results_is_refused(
    manager: SessionManager, store: Store
) -> None:
    session = await started(manager, 2)
    last = await _play_until_last_move(manager, session.id)
    await move(manager, session.id, last)
    finished = await store.load_session(session.id)
    assert finished is not None and finished.status is Status.FINISHED
    rows = await store.results(1, "count")
    later = replace(finished, version=finished.version + 1)
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        await store.record_action(later, last, {"add": 2}, rows)
    assert await store.results(1, "count") == rows
    assert await store.load_session(session.id) == finished  # the whole write was undone
