"""Exactly once, in order, across processes: two stores on one database (as two bot processes
would have) race to write the same next version of a session; exactly one wins each time, the
other is refused as stale and writes nothing."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.records.errors import StaleWrite
from bot.records.session import ResultRow, Session, Status
from bot.store import open_store
from bot.store.sql import SqlStore
from tests.bot.conftest import seat


def active() -> Session:
    return Session(id=0, guild_id=1, channel_id=10, game="count", status=Status.ACTIVE,
                   host_id="1", seats=(seat(1), seat(2)), state={"n": 0})


async def test_two_stores_racing_for_one_version_one_wins(store: SqlStore, db_url: str) -> None:
    other = await open_store(db_url)
    try:
        session = await store.create_session(active())
        winners: list[str] = []
        for round_no in range(1, 21):
            mine = replace(session, state={"n": round_no, "by": "a"}, version=session.version + 1)
            theirs = replace(mine, state={"n": round_no, "by": "b"})
            outcomes = await asyncio.gather(
                store.record_action(mine, "1", {"add": round_no, "by": "a"}),
                other.record_action(theirs, "2", {"add": round_no, "by": "b"}),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleWrite"]
            won = mine if outcomes[0] is None else theirs
            winners.append(won.state["by"])
            session = won
            # Each store reads what the winner wrote.
            assert await store.load_session(session.id) == won
            assert await other.load_session(session.id) == won
        logged = await store.actions(session.id)
        # One action per version, in order, each by the writer whose snapshot was kept.
        assert [a.seq for a in logged] == list(range(2, 22))
        assert [a.action["by"] for a in logged] == winners  # type: ignore[index]
    finally:
        await other.close()


async def test_the_loser_of_a_finishing_race_writes_no_results(
    store: SqlStore, db_url: str
) -> None:
    other = await open_store(db_url)
    try:
        session = await store.create_session(active())
        done = replace(session, status=Status.FINISHED, version=2)

        def rows(winner: str) -> list[ResultRow]:
            loser = "2" if winner == "1" else "1"
            return [ResultRow(session.id, 1, "count", winner, 1, 10, False, False, True,
                              done.updated_at),
                    ResultRow(session.id, 1, "count", loser, 2, 5, False, False, True,
                              done.updated_at)]

        outcomes = await asyncio.gather(
            store.record_action(done, "1", "end", rows("1")),
            other.record_action(done, "2", "end", rows("2")),
            return_exceptions=True,
        )
        assert sum(isinstance(o, StaleWrite) for o in outcomes) == 1
        winner = "1" if outcomes[0] is None else "2"
        assert await store.results(1, "count") == sorted(rows(winner), key=lambda r: r.user_id)
        board = {line.line.user_id: line.line.games for line in
                 await store.standings(1, "count", "all")}
        assert board == {"1": 1, "2": 1}  # standings counted the game once
    finally:
        await other.close()
