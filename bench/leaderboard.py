"""Leaderboard latency on a server with 100,000 results rows.

Builds a temporary database with one guild: 25,000 four-player SPLIT games (100,000 results
rows; about 5% of them with a bot seat) among 300 players, spread over the last 365 days. Then
times, for each period (all / month / week):

- cold: a fresh :class:`bot.leaderboard.Leaderboards` (empty cache): the indexed read of the
  period's rows plus the full rating replay;
- warm: the same instance again, nothing new (one ``max(rowid)`` look-up);
- warm +4: four more games stored through ``Store.record_action``, then the board (reads only
  the new rows and rates them on top of the cache).

Each figure is the median of ``--repeats`` runs, in milliseconds. Discord wants an answer to an
interaction within 3 seconds.

    python -m bench.leaderboard            # 25,000 games (100,000 rows)
    python -m bench.leaderboard --games 2000 --repeats 2   # a quick run
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench._common import machine_line, median, table
from bot.leaderboard import PERIODS, Leaderboards
from bot.models import ResultRow, Seat, Session, Status, utcnow
from bot.store import Store

GUILD = 7
GAME = "split"
PLAYERS_PER_GAME = 4


def build(path: Path, games: int, players: int, seed: int = 1) -> None:
    """Fill ``path`` (already migrated) with ``games`` finished games in one transaction."""
    rng = random.Random(seed)
    now = utcnow()
    users = [str(10**17 + n) for n in range(players)]
    skill = {user: rng.gauss(0, 1) for user in users}
    stamps = sorted(now - timedelta(seconds=rng.uniform(60, 365 * 86400)) for _ in range(games))
    conn = sqlite3.connect(path)
    with conn:
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
            conn.execute(
                "INSERT INTO sessions (id, guild_id, channel_id, game, status, host_id, seats,"
                " version, created_at, updated_at) VALUES (?, ?, ?, ?, 'finished', ?, ?, 100,"
                " ?, ?)",
                (number, GUILD, 1000 + number % 40, GAME, seated[0], json.dumps(seats), stamp,
                 stamp),
            )
            conn.executemany(
                "INSERT INTO results (session_id, guild_id, game, user_id, placement, score,"
                " is_bot_seat, bots_in_game, rated, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [
                    (number, GUILD, GAME, user, place, rng.randint(20, 140) // place,
                     int(user == "bot:1"), int(bot), int(not bot), stamp)
                    for place, user in enumerate(ordered, start=1)
                ],
            )
    conn.close()


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


async def measure(path: Path, repeats: int) -> list[list[object]]:
    store = await Store.open(path)
    rng = random.Random(5)
    out: list[list[object]] = []
    try:
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
            out.append([period, rows_read, players, 1000 * median(cold), 1000 * max(cold),
                        1000 * median(warm), 1000 * median(warm_new)])
    finally:
        await store.close()
    return out


def query_plan(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        plan = conn.execute(
            "EXPLAIN QUERY PLAN SELECT rowid, session_id, finished_at, user_id, placement, score,"
            " is_bot_seat, rated FROM results WHERE guild_id = ? AND game = ?"
            " AND finished_at >= ? ORDER BY finished_at, session_id, user_id",
            (GUILD, GAME, datetime(2000, 1, 1, tzinfo=UTC).isoformat()),
        ).fetchall()
    finally:
        conn.close()
    return "; ".join(row[-1] for row in plan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=25_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        asyncio.run(_migrate(path))
        started = time.perf_counter()
        build(path, args.games, args.players)
        print(f"built {args.games:,} games ({args.games * PLAYERS_PER_GAME:,} results rows, "
              f"{args.players} players) in {time.perf_counter() - started:.1f} s")
        print(machine_line())
        print(f"query plan: {query_plan(path)}")
        rows = asyncio.run(measure(path, args.repeats))
    print(table(
        ["period", "human rows", "players", "cold ms (median)", "cold ms (max)", "warm ms",
         "warm +4 games ms"],
        rows,
    ))


async def _migrate(path: Path) -> None:
    store = await Store.open(path)
    await store.close()


if __name__ == "__main__":
    main()
