"""Leaderboard latency on a server with 100,000 results rows, on SQLite and PostgreSQL.

Builds a database with one guild: 25,000 four-player SPLIT games (100,000 results rows; about
5% of them with a bot seat) among 300 players, spread over the last 365 days, written as bare
rows; then derives the stored standings from them once (``Store.rebuild_standings``, timed:
what ``python -m bot.rankings.rebuild_ratings`` does). Then times, for each period (all / month /
week):

- cold: a fresh :class:`bot.rankings.leaderboard.Leaderboards` (the first board a process answers):
  one indexed read of the period's stored standings;
- warm: the same instance again;
- warm +4: four more games stored through ``Store.record_action`` (each moves the standings
  on in its own transaction), then the board;
- replay: the board computed the old way, replaying OpenSkill over the period's results rows
  from scratch (for comparison; the stored figures equal it, see tests/store).

SQLite always; PostgreSQL too when a server answers at ``--postgres`` (default:
``TEST_DATABASE_URL``), in a temporary schema dropped afterwards. Each figure is the median of
``--repeats`` runs, in milliseconds. The target is a cold board under 100 ms.

    python -m bench.leaderboard            # 25,000 games (100,000 rows)
    python -m bench.leaderboard --games 2000 --repeats 2   # a quick run
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg

from bench._common import machine_line, median, table
from bot.rankings.leaderboard import PERIODS, Leaderboards, Tally, build_board
from bot.records.period_standings import Period, ReplayRow, period_start
from bot.records.session import ResultRow, Seat, Session, Status, utcnow
from bot.store import Store, open_store

GUILD = 7
GAME = "split"
PLAYERS_PER_GAME = 4
_SESSION_INSERT = (
    "INSERT INTO sessions (id, guild_id, channel_id, game, status, host_id, seats, version,"
    " created_at, updated_at) VALUES (?, ?, ?, ?, 'finished', ?, ?, 100, ?, ?)"
)
_RESULT_INSERT = (
    "INSERT INTO results (session_id, guild_id, game, user_id, placement, score, is_bot_seat,"
    " bots_in_game, rated, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def generate(games: int, players: int, seed: int = 1
             ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """``games`` finished games: their sessions rows and results rows."""
    rng = random.Random(seed)
    now = utcnow()
    users = [str(10**17 + n) for n in range(players)]
    skill = {user: rng.gauss(0, 1) for user in users}
    stamps = sorted(now - timedelta(seconds=rng.uniform(60, 365 * 86400)) for _ in range(games))
    sessions, results = [], []
    for number, finished in enumerate(stamps, start=1):
        seated = rng.sample(users, PLAYERS_PER_GAME)
        bot = rng.random() < 0.05
        if bot:
            seated[-1] = "bot:1"
        performance = {u: skill.get(u, 0.0) + rng.gauss(0, 1.5) for u in seated}
        ordered = sorted(seated, key=performance.__getitem__, reverse=True)
        seats = [{"player_id": u, "display_name": f"P{u[-3:]}", "is_bot": u == "bot:1"}
                 for u in seated]
        stamp = finished.isoformat()
        sessions.append((number, GUILD, 1000 + number % 40, GAME, seated[0], json.dumps(seats),
                         stamp, stamp))
        results += [
            (number, GUILD, GAME, user, place, rng.randint(20, 140) // place,
             int(user == "bot:1"), int(bot), int(not bot), stamp)
            for place, user in enumerate(ordered, start=1)
        ]
    return sessions, results


def fill_sqlite(path: Path, sessions: Sequence[tuple[Any, ...]],
                results: Sequence[tuple[Any, ...]]) -> None:
    conn = sqlite3.connect(path)
    with conn:
        conn.executemany(_SESSION_INSERT, sessions)
        conn.executemany(_RESULT_INSERT, results)
    conn.close()


async def fill_postgres(url: str, sessions: Sequence[tuple[Any, ...]],
                        results: Sequence[tuple[Any, ...]]) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.copy_records_to_table(
            "sessions", records=[(*s[:4], "finished", *s[4:6], 100, *s[6:]) for s in sessions],
            columns=["id", "guild_id", "channel_id", "game", "status", "host_id", "seats",
                     "version", "created_at", "updated_at"],
        )
        await conn.copy_records_to_table(
            "results", records=results,
            columns=["session_id", "guild_id", "game", "user_id", "placement", "score",
                     "is_bot_seat", "bots_in_game", "rated", "finished_at"],
        )
        await conn.execute("SELECT setval(pg_get_serial_sequence('sessions', 'id'),"
                           " (SELECT max(id) FROM sessions))")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def add_games(store: Store, count: int, rng: random.Random) -> None:
    """``count`` new finished games through the real write path (action + results)."""
    users = [str(10**17 + n) for n in range(50)]
    for _ in range(count):
        seated = rng.sample(users, PLAYERS_PER_GAME)
        now = utcnow()
        session = await store.create_session(Session(
            id=0, guild_id=GUILD, channel_id=999, game=GAME, status=Status.FINISHED,
            host_id=seated[0], seats=tuple(Seat(player_id=u, display_name="P") for u in seated),
            created_at=now, updated_at=now,
        ))
        rows = [ResultRow(session.id, GUILD, GAME, u, place, 100 // place, False, False, True,
                          now) for place, u in enumerate(seated, start=1)]
        await store.record_action(replace(session, version=2), seated[0], "end", rows)


async def replay_board(store: Store, period: Period) -> float:
    """Seconds for the board the old way: read the period's rows, replay them from scratch."""
    started = time.perf_counter()
    now = utcnow()
    since = period_start(period, now)
    tally = Tally()
    tally.add([
        ReplayRow(r.session_id, r.finished_at.isoformat(), r.user_id, r.placement, r.score,
                  int(r.is_bot_seat), int(r.rated))
        for r in await store.results(GUILD, GAME, since=since)
    ])
    build_board(tally.derived(), GUILD, GAME, period, since, 3)
    return time.perf_counter() - started


async def measure(url: str, repeats: int) -> tuple[float, list[list[object]]]:
    store = await open_store(url)
    rng = random.Random(5)
    out: list[list[object]] = []
    try:
        started = time.perf_counter()
        await store.rebuild_standings()
        rebuild = time.perf_counter() - started
        for period in PERIODS:
            cold, warm, warm_new = [], [], []
            rows_read = players = 0
            for _ in range(repeats):
                service = Leaderboards(store)
                started = time.perf_counter()
                board = await service.board(GUILD, GAME, period)
                cold.append(time.perf_counter() - started)
                for _ in range(5):
                    started = time.perf_counter()
                    await service.board(GUILD, GAME, period)
                    warm.append(time.perf_counter() - started)
                await add_games(store, 4, rng)
                started = time.perf_counter()
                await service.board(GUILD, GAME, period)
                warm_new.append(time.perf_counter() - started)
                players = len(board.standings)
                rows_read = sum(s.line.games for s in board.standings)
            replay = await replay_board(store, period)
            out.append([period, rows_read, players, 1000 * median(cold), 1000 * max(cold),
                        1000 * median(warm), 1000 * median(warm_new), 1000 * replay])
    finally:
        await store.close()
    return rebuild, out


async def postgres_schema(server: str, drop: str | None = None) -> str | None:
    """A new schema on ``server`` (None when it does not answer), or drop ``drop``."""
    try:
        conn = await asyncpg.connect(server, timeout=5)
    except (OSError, asyncpg.PostgresError) as err:
        print(f"PostgreSQL: skipped, no server at --postgres ({type(err).__name__})")
        return None
    try:
        if drop:
            await conn.execute(f"DROP SCHEMA {drop} CASCADE")
            return drop
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        await conn.execute(f"CREATE SCHEMA {schema}")
        return schema
    finally:
        await conn.close()


def with_search_path(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


def report(name: str, built: float, rebuild: float, rows: list[list[object]]) -> None:
    print(f"\n{name}: rows written in {built:.1f} s; standings derived from them (the rebuild"
          f" command) in {rebuild:.1f} s")
    print(table(
        ["period", "human rows", "players", "cold ms (median)", "cold ms (max)", "warm ms",
         "warm +4 games ms", "replay ms (old way)"],
        rows,
    ))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=25_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--postgres", default=os.environ.get("TEST_DATABASE_URL"),
                        help="a PostgreSQL server URL (default: TEST_DATABASE_URL)")
    args = parser.parse_args()
    sessions, results = generate(args.games, args.players)
    print(f"{args.games:,} games ({len(results):,} results rows, {args.players} players)")
    print(machine_line())
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        asyncio.run(_migrate(url))
        started = time.perf_counter()
        fill_sqlite(Path(folder) / "bench.sqlite3", sessions, results)
        built = time.perf_counter() - started
        rebuild, rows = asyncio.run(measure(url, args.repeats))
        report("SQLite (file, WAL)", built, rebuild, rows)
    if not args.postgres:
        print("\nPostgreSQL: skipped (no --postgres and no TEST_DATABASE_URL)")
        return
    schema = asyncio.run(postgres_schema(args.postgres))
    if schema is None:
        return
    try:
        url = with_search_path(args.postgres, schema)
        asyncio.run(_migrate(url))
        started = time.perf_counter()
        asyncio.run(fill_postgres(url, sessions, results))
        built = time.perf_counter() - started
        rebuild, rows = asyncio.run(measure(url, args.repeats))
        report("PostgreSQL", built, rebuild, rows)
    finally:
        asyncio.run(postgres_schema(args.postgres, drop=schema))


async def _migrate(url: str) -> None:
    store = await open_store(url)
    await store.close()


if __name__ == "__main__":
    main()
