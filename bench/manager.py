"""The session manager and the real store under load, against a bare driver floor: SQLite
(default) or PostgreSQL (``--database postgresql://...``).

Sessions are SPLIT and TEN tables of four (alternating), driven by random legal actions:
``engine.legal_actions`` on the live state, a random choice, ``manager.act`` with the current
version. Every action is durable when ``act`` returns (one transaction, WAL). A finished game
is replaced by a new one in the same channel, so the number of live sessions stays put.

The floor is a bare aiosqlite loop doing the same writes per action (append the action row,
replace the snapshot, one transaction, WAL) with the same JSON sizes, recorded from real
games, and the same serialisation (one connection, one lock), without the engine or the
manager. It stays a plain loop of one transaction per action: the store's group commit
(concurrent actions of several sessions written in one transaction) is not given to it.

On PostgreSQL (``--database postgresql://...``; every database of the run is a schema of its
own, dropped at the end) the store is ``PostgresStore`` (an asyncpg pool, one transaction per
action, the version-conditional update first) and the floor is a bare asyncpg pool of the same
size doing the same two writes per action in one transaction, without the engine, the manager
or the version condition.

Figures: saturated durable actions/s (100 and 1,000 sessions); p50/p95/p99 latency per action
at an offered load of 200 actions/s over 100 sessions; database bytes per finished game;
resident memory per live session; time to restore 10,000 stored sessions.

    python -m bench.manager            # the full table (about two minutes)
    python -m bench.manager --quick    # tiny sizes, for the smoke test
    python -m bench.manager --database postgresql://postgres@localhost/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import resource
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from bench._common import machine_line, median, percentile, table
from bot.records.session import Seat
from bot.sessions.manager import SessionManager
from bot.store import Store
from bot.store import open_store as open_database
from bot.store.database_url import parse_database_url
from bot.store.postgres import POOL_SIZE
from game.base import Engine
from game.registry import engines as all_engines

GAMES = ("split", "ten")
PLAYERS = 4


@dataclass
class Sizes:
    small_sessions: int = 100
    large_sessions: int = 1000
    small_actions: int = 40  # per session, saturated, 100 sessions
    large_actions: int = 6  # per session, saturated, 1,000 sessions
    rate: float = 200.0  # offered load, actions/s
    load_sessions: int = 100
    load_seconds: float = 10.0
    finished_games: int = 6  # per game, for bytes per finished game
    restore_sessions: int = 10_000
    repeats: int = 3


QUICK = Sizes(
    small_sessions=4,
    large_sessions=8,
    small_actions=5,
    large_actions=2,
    rate=50.0,
    load_sessions=4,
    load_seconds=0.5,
    finished_games=1,
    restore_sessions=50,
    repeats=1,
)


def seats(table_no: int) -> list[Seat]:
    return [
        Seat(player_id=str(table_no * 10 + n), display_name=f"P{n}") for n in range(1, PLAYERS + 1)
    ]


# Every connection the run opens, closed at the end even after an error: an open aiosqlite
# connection's thread would keep the process alive.
_OPEN: list[Store | aiosqlite.Connection | asyncpg.Pool[Any]] = []


async def open_store(target: Path | str) -> Store:
    store = await open_database(target)
    _OPEN.append(store)
    return store


@dataclass
class Target:
    """Where the run's databases go: files in ``folder``, or schemas on a PostgreSQL server."""

    folder: Path
    postgres: str | None = None
    schemas: list[str] = field(default_factory=list)

    @property
    def title(self) -> str:
        if self.postgres is None:
            return "SQLite store (on disk, WAL) vs a bare aiosqlite floor"
        return (f"PostgreSQL store (asyncpg pool of {POOL_SIZE}) vs a bare asyncpg floor, on "
                f"{parse_database_url(self.postgres)}")

    async def database(self, name: str) -> str:
        """A new, empty database's URL."""
        if self.postgres is None:
            return f"sqlite:///{self.folder / f'{name}.sqlite3'}"
        schema = f"bench_{name}_{uuid.uuid4().hex[:8]}"
        conn = await asyncpg.connect(self.postgres)
        try:
            await conn.execute(f"CREATE SCHEMA {schema}")
        finally:
            await conn.close()
        self.schemas.append(schema)
        sep = "&" if "?" in self.postgres else "?"
        return f"{self.postgres}{sep}search_path={schema}"

    async def drop_all(self) -> None:
        if self.postgres is None or not self.schemas:
            return
        conn = await asyncpg.connect(self.postgres)
        try:
            while self.schemas:
                await conn.execute(f"DROP SCHEMA {self.schemas.pop()} CASCADE")
        finally:
            await conn.close()


async def close_all() -> None:
    while _OPEN:
        with contextlib.suppress(Exception):  # already closed
            await _OPEN.pop().close()


# --- driving the manager -----------------------------------------------------------------


@dataclass
class Driver:
    """Opens tables through the manager and plays random legal actions on them."""

    manager: SessionManager
    rng: random.Random
    channels: dict[int, int] = field(default_factory=dict)  # session id -> table number
    finished: int = 0
    acted_at: float = 0.0  # when the last act() returned (its action was durable)

    async def open_table(self, table_no: int) -> int:
        game = GAMES[table_no % len(GAMES)]
        players = seats(table_no)
        session = await self.manager.open_lobby(1, 10_000 + table_no, game, players[0])
        for seat in players[1:]:
            session = await self.manager.join(session.id, seat)
        session = await self.manager.start(session.id, players[0].player_id)
        self.channels[session.id] = table_no
        return session.id

    async def step(self, session_id: int) -> int:
        """One random legal action; returns the id of the session to go on with (a new
        table when the action ended the game)."""
        session = self.manager.get(session_id)
        assert session is not None
        engine = self.manager.engine(session.game)
        player = engine.awaiting(session.state)[0]
        action = self.rng.choice(engine.legal_actions(session.state, player))
        change = await self.manager.act(session_id, player, session.version, action)
        self.acted_at = time.perf_counter()
        if change.kind != "finished":
            return session_id
        self.finished += 1
        return await self.open_table(self.channels.pop(session_id))


async def open_tables(driver: Driver, count: int) -> list[int]:
    return [await driver.open_table(n) for n in range(count)]


async def saturate_manager(driver: Driver, session_ids: list[int], actions: int) -> float:
    """Every session acts as fast as it can, ``actions`` times; returns actions/s."""

    async def run(session_id: int) -> None:
        for _ in range(actions):
            session_id = await driver.step(session_id)

    start = time.perf_counter()
    await asyncio.gather(*(run(sid) for sid in session_ids))
    return len(session_ids) * actions / (time.perf_counter() - start)


async def offered_load(
    owner: Driver | Floor | PostgresFloor, targets: Sequence[int], rate: float, seconds: float,
    seed: int,
) -> tuple[list[float], list[int]]:
    """Poisson arrivals at ``rate``/s for ``seconds``, round-robin over ``targets``; each
    arrival runs ``await owner.step(target)``. Returns the latencies (s) from arrival to durable,
    and the targets to go on with (a finished game's table is a new session).
    Arrivals on one target are queued behind each other (a player acts on the newest view)."""
    rng = random.Random(seed)
    locks = [asyncio.Lock() for _ in targets]
    current = list(targets)
    latencies: list[float] = []
    tasks: list[asyncio.Task[None]] = []

    async def one(index: int, arrival: float) -> None:
        async with locks[index]:
            current[index] = await owner.step(current[index])
            # Until the action was durable: opening the next table after a finished game
            # is not part of the action.
            latencies.append(owner.acted_at - arrival)

    loop_start = time.perf_counter()
    next_at = loop_start
    count = 0
    while next_at - loop_start < seconds:
        delay = next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(count % len(targets), next_at)))
        count += 1
        next_at += rng.expovariate(rate)
    await asyncio.gather(*tasks)
    return latencies, current


# --- the floor: bare aiosqlite -------------------------------------------------------------


@dataclass
class Trace:
    """What one game writes per action: (action JSON, snapshot JSON), in order."""

    writes: list[tuple[str, str]]


def record_traces(count: int, seed: int) -> list[Trace]:
    """Real games played with random legal actions, JSON-encoded as the store does."""
    engines = all_engines()
    traces = []
    for index in range(count):
        engine = engines[GAMES[index % len(GAMES)]]
        rng = random.Random(seed + index)
        players = [seat.player_id for seat in seats(index)]
        state, _ = engine.new_game(players, seed + index)
        writes = []
        while not engine.is_over(state):
            player = engine.awaiting(state)[0]
            action = rng.choice(engine.legal_actions(state, player))
            engine.apply(state, player, action)
            writes.append((json.dumps(action.model_dump(mode="json")), state.model_dump_json()))
        traces.append(Trace(writes))
    return traces


class Floor:
    """One aiosqlite connection with the store's schema and PRAGMAs; one lock, like the store."""

    def __init__(self, conn: aiosqlite.Connection, traces: list[Trace]) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()
        self.traces = traces
        self.position: dict[int, int] = {}
        self.acted_at = 0.0

    @classmethod
    async def open(cls, url: str, traces: list[Trace]) -> Floor:
        store = await open_store(url)  # creates the same schema
        await store.close()
        path = parse_database_url(url).path
        assert path is not None
        conn = await aiosqlite.connect(path, isolation_level=None)
        _OPEN.append(conn)
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        return cls(conn, traces)

    async def add_sessions(self, count: int) -> list[int]:
        now = datetime.now(UTC).isoformat()
        seat_json = json.dumps([seat.model_dump() for seat in seats(0)])
        ids = []
        for _ in range(count):
            index = len(self.position)
            cursor = await self.conn.execute(
                "INSERT INTO sessions (guild_id, channel_id, game, status, host_id, seats, state,"
                " version, created_at, updated_at) VALUES (1, ?, ?, 'active', '1', ?, ?, 1, ?, ?)",
                (index, GAMES[index % 2], seat_json, self.traces[0].writes[0][1], now, now),
            )
            assert cursor.lastrowid is not None
            ids.append(cursor.lastrowid)
            self.position[cursor.lastrowid] = 1
        return ids

    async def step(self, session_id: int) -> int:
        version = self.position[session_id]
        trace = self.traces[session_id % len(self.traces)].writes
        action, snapshot = trace[(version - 1) % len(trace)]
        now = datetime.now(UTC).isoformat()
        async with self.lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                await self.conn.execute(
                    "INSERT INTO actions (session_id, seq, user_id, action, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (session_id, version + 1, "11", action, now),
                )
                await self.conn.execute(
                    "UPDATE sessions SET state = ?, version = ?, updated_at = ? WHERE id = ?",
                    (snapshot, version + 1, now, session_id),
                )
                await self.conn.execute("COMMIT")
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
        self.acted_at = time.perf_counter()
        self.position[session_id] = version + 1
        return session_id

    async def saturate(self, session_ids: list[int], actions: int) -> float:
        return await _saturate(self, session_ids, actions)

    async def close(self) -> None:
        await self.conn.close()


async def _saturate(floor: Floor | PostgresFloor, session_ids: list[int], actions: int) -> float:
    async def run(session_id: int) -> None:
        for _ in range(actions):
            await floor.step(session_id)

    start = time.perf_counter()
    await asyncio.gather(*(run(sid) for sid in session_ids))
    return len(session_ids) * actions / (time.perf_counter() - start)


class PostgresFloor:
    """A bare asyncpg pool (the store's size) with the store's schema: per action, the action
    row and the snapshot in one transaction; concurrent actions on the pool's connections."""

    def __init__(self, pool: asyncpg.Pool[Any], traces: list[Trace]) -> None:
        self.pool = pool
        self.traces = traces
        self.position: dict[int, int] = {}
        self.acted_at = 0.0

    @classmethod
    async def open(cls, url: str, traces: list[Trace]) -> PostgresFloor:
        store = await open_store(url)  # creates the same schema
        await store.close()
        pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE)
        _OPEN.append(pool)
        return cls(pool, traces)

    async def add_sessions(self, count: int) -> list[int]:
        now = datetime.now(UTC).isoformat()
        seat_json = json.dumps([seat.model_dump() for seat in seats(0)])
        ids = []
        for _ in range(count):
            index = len(self.position)
            new_id = await self.pool.fetchval(
                "INSERT INTO sessions (guild_id, channel_id, game, status, host_id, seats, state,"
                " version, created_at, updated_at) VALUES (1, $1, $2, 'active', '1', $3, $4, 1,"
                " $5, $5) RETURNING id",
                index, GAMES[index % 2], seat_json, self.traces[0].writes[0][1], now,
            )
            ids.append(int(new_id))
            self.position[int(new_id)] = 1
        return ids

    async def step(self, session_id: int) -> int:
        version = self.position[session_id]
        trace = self.traces[session_id % len(self.traces)].writes
        action, snapshot = trace[(version - 1) % len(trace)]
        now = datetime.now(UTC).isoformat()
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO actions (session_id, seq, user_id, action, created_at)"
                " VALUES ($1, $2, $3, $4, $5)",
                session_id, version + 1, "11", action, now,
            )
            await conn.execute(
                "UPDATE sessions SET state = $1, version = $2, updated_at = $3 WHERE id = $4",
                snapshot, version + 1, now, session_id,
            )
        self.acted_at = time.perf_counter()
        self.position[session_id] = version + 1
        return session_id

    async def saturate(self, session_ids: list[int], actions: int) -> float:
        return await _saturate(self, session_ids, actions)

    async def close(self) -> None:
        await self.pool.close()


# --- single figures ----------------------------------------------------------------------------


def rss_bytes() -> int:
    """Current resident set size (Linux /proc), else the peak from getrusage."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize()
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


async def database_bytes(conn_path: Path) -> int:
    async with aiosqlite.connect(conn_path) as conn:
        await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        async with conn.execute("PRAGMA page_count") as cur:
            pages = (await cur.fetchone())[0]  # type: ignore[index]
        async with conn.execute("PRAGMA page_size") as cur:
            size = (await cur.fetchone())[0]  # type: ignore[index]
    return int(pages) * int(size)


async def bytes_per_game(folder: Path, games: int, seed: int) -> dict[str, float]:
    """Play ``games`` full games of each kind through the manager; database growth per game."""
    result = {}
    for game in GAMES:
        path = folder / f"games-{game}.sqlite3"
        store = await open_store(path)
        empty = await database_bytes(path)
        manager = SessionManager(store, all_engines())
        driver = Driver(manager, random.Random(seed))
        table_no = GAMES.index(game)
        for _ in range(games):
            session_id = await driver.open_table(table_no)
            while True:
                session = manager.get(session_id)
                assert session is not None
                engine = manager.engine(session.game)
                player = engine.awaiting(session.state)[0]
                action = driver.rng.choice(engine.legal_actions(session.state, player))
                change = await manager.act(session_id, player, session.version, action)
                if change.kind == "finished":
                    break
            table_no += len(GAMES)
        await store.close()
        result[game] = (await database_bytes(path) - empty) / games
    return result


async def restore_time(
    target: Target, count: int, traces: list[Trace], repeats: int
) -> tuple[float, float]:
    """Seconds for a new manager's ``restore()`` of ``count`` stored active sessions, and for a
    full ``gc.collect()`` right after it (``restore`` pauses the garbage collector: this shows
    that no collection work was merely put off). Medians of ``repeats``."""
    url = await target.database("restore")
    await _fill_restore_db(url, count, traces)
    times, collections = [], []
    for _ in range(repeats):
        store = await open_store(url)
        manager = SessionManager(store, all_engines())
        gc.collect()
        start = time.perf_counter()
        report = await manager.restore()
        times.append(time.perf_counter() - start)
        start = time.perf_counter()
        gc.collect()
        collections.append(time.perf_counter() - start)
        assert report.restored == count, report
        await store.close()
        del manager
    return median(times), median(collections)


async def _fill_restore_db(url: str, count: int, traces: list[Trace]) -> None:
    store = await open_store(url)
    await store.close()
    now = datetime.now(UTC).isoformat()
    rows = []
    for index in range(count):
        trace = traces[index % len(traces)].writes
        snapshot = trace[(index * 7) % len(trace)][1]  # mid-game states of every age
        game = GAMES[(index % len(traces)) % len(GAMES)]
        seat_json = json.dumps([seat.model_dump() for seat in seats(index % len(traces))])
        rows.append((index, game, seat_json, snapshot, now, now))
    target = parse_database_url(url)
    if target.path is None:
        pg = await asyncpg.connect(url)
        try:
            await pg.executemany(
                "INSERT INTO sessions (guild_id, channel_id, game, status, host_id, seats, state,"
                " version, created_at, updated_at)"
                " VALUES (1, $1, $2, 'active', '11', $3, $4, 2, $5, $6)",
                rows,
            )
        finally:
            await pg.close()
        return
    async with aiosqlite.connect(target.path) as conn:
        await conn.executemany(
            "INSERT INTO sessions (guild_id, channel_id, game, status, host_id, seats, state,"
            " version, created_at, updated_at) VALUES (1, ?, ?, 'active', '11', ?, ?, 2, ?, ?)",
            rows,
        )
        await conn.commit()


# --- the run -----------------------------------------------------------------------------------


@dataclass
class Figures:
    saturated: dict[int, tuple[float, float]] = field(default_factory=dict)  # n -> (mgr, floor)
    latency: dict[str, list[float]] = field(default_factory=dict)  # "manager"/"floor" -> s
    bytes_per_game: dict[str, float] = field(default_factory=dict)
    memory_traced: float = 0.0
    memory_rss: float = 0.0
    restore_seconds: float = 0.0
    collect_after_restore_seconds: float = 0.0
    restored: int = 0


async def measure(sizes: Sizes, target: Target, seed: int) -> Figures:
    figures = Figures()
    traces = record_traces(8 if sizes.restore_sessions > 100 else 2, seed)
    engines: dict[str, Engine[Any, Any]] = all_engines()

    # Memory per live session, while the 1,000 tables are opened and played a little.
    store = await open_store(await target.database("large"))
    manager = SessionManager(store, engines)
    driver = Driver(manager, random.Random(seed))
    gc.collect()
    rss_before = rss_bytes()
    tracemalloc.start()
    traced_before = tracemalloc.get_traced_memory()[0]
    large = await open_tables(driver, sizes.large_sessions)
    for index, session_id in enumerate(large):
        large[index] = await driver.step(session_id)
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] - traced_before
    tracemalloc.stop()
    figures.memory_traced = traced / sizes.large_sessions
    figures.memory_rss = (rss_bytes() - rss_before) / sizes.large_sessions

    small_store = await open_store(await target.database("small"))
    small_manager = SessionManager(small_store, engines)
    small_driver = Driver(small_manager, random.Random(seed + 1))
    small = await open_tables(small_driver, sizes.small_sessions)
    floor_url = await target.database("floor")
    floor: Floor | PostgresFloor = (
        await Floor.open(floor_url, traces) if target.postgres is None
        else await PostgresFloor.open(floor_url, traces)
    )
    floor_small = await floor.add_sessions(sizes.small_sessions)
    floor_large = await floor.add_sessions(sizes.large_sessions)

    # Manager and floor runs alternate, so a busy spell on the machine hits both alike.
    rates: dict[str, list[float]] = {"small": [], "large": [], "floor small": [], "floor large": []}
    for _ in range(sizes.repeats):
        rates["small"].append(await saturate_manager(small_driver, small, sizes.small_actions))
        small = [s.id for s in small_manager.live_sessions()]
        rates["floor small"].append(await floor.saturate(floor_small, sizes.small_actions))
        rates["large"].append(await saturate_manager(driver, large, sizes.large_actions))
        large = [s.id for s in manager.live_sessions()]
        rates["floor large"].append(await floor.saturate(floor_large, sizes.large_actions))
    figures.saturated[sizes.small_sessions] = (
        median(rates["small"]), median(rates["floor small"])
    )
    figures.saturated[sizes.large_sessions] = (
        median(rates["large"]), median(rates["floor large"])
    )
    await store.close()
    # The 1,000 tables are done with: their heap would only lengthen garbage-collector passes.
    del manager, driver, large
    gc.collect()

    load = small[: sizes.load_sessions]
    figures.latency = {"manager": [], "floor": []}
    floor_load = floor_small[: sizes.load_sessions]
    for half in range(2):
        latencies, load = await offered_load(
            small_driver, load, sizes.rate, sizes.load_seconds / 2, seed + half
        )
        figures.latency["manager"] += latencies
        latencies, floor_load = await offered_load(
            floor, floor_load, sizes.rate, sizes.load_seconds / 2, seed + half
        )
        figures.latency["floor"] += latencies
    await small_store.close()
    await floor.close()

    if target.postgres is None:  # file growth; a server's size has no per-game figure as plain
        figures.bytes_per_game = await bytes_per_game(target.folder, sizes.finished_games, seed)
    figures.restore_seconds, figures.collect_after_restore_seconds = await restore_time(
        target, sizes.restore_sessions, traces, sizes.repeats
    )
    figures.restored = sizes.restore_sessions
    return figures


async def run(sizes: Sizes, target: Target, seed: int) -> Figures:
    try:
        return await measure(sizes, target, seed)
    finally:
        await close_all()
        await target.drop_all()


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def report(figures: Figures, sizes: Sizes) -> str:
    rows: list[list[object]] = []
    for sessions, (rate, floor_rate) in figures.saturated.items():
        share = rate / floor_rate
        rows.append(
            [
                f"saturated, {sessions:,} sessions",
                "actions/s",
                rate,
                floor_rate,
                f"{share:.0%} of floor",
                ">= 50% of floor",
                verdict(share >= 0.5),
            ]
        )
    manager_lat, floor_lat = figures.latency["manager"], figures.latency["floor"]
    for name, fraction in (("p50", 0.50), ("p95", 0.95), ("p99", 0.99)):
        ours, base = percentile(manager_lat, fraction), percentile(floor_lat, fraction)
        target = "<= 2x floor" if name == "p99" else "-"
        ok = "" if name != "p99" else verdict(ours <= 2 * base)
        rows.append(
            [
                f"latency {name} at {sizes.rate:.0f}/s, {sizes.load_sessions} sessions",
                "ms",
                ours * 1000,
                base * 1000,
                f"{ours / base:.1f}x floor",
                target,
                ok,
            ]
        )
    for game, size in figures.bytes_per_game.items():
        rows.append([f"database per finished {game.upper()} game", "KB", size / 1024, "-", "",
                     "-", ""])
    rows.append(
        ["memory per live session (Python heap)", "KB", figures.memory_traced / 1024, "-", "",
         "<= 50 KB", verdict(figures.memory_traced <= 50 * 1024)]
    )
    rows.append(
        ["memory per live session (RSS delta)", "KB", figures.memory_rss / 1024, "-", "", "-",
         ""]
    )
    rows.append(
        [f"restore {figures.restored:,} stored sessions", "s", figures.restore_seconds, "-", "",
         "< 2 s", verdict(figures.restore_seconds < 2.0)]
    )
    rows.append(
        ["  then a full gc.collect()", "s", figures.collect_after_restore_seconds, "-", "",
         "-", ""]
    )
    headers = ["figure", "unit", "manager", "floor", "ratio", "target", ""]
    return table(headers, rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.manager", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeats", type=int, help="timed runs of each saturated figure")
    parser.add_argument("--dir", type=Path, help="where the databases go (default: a temp dir)")
    parser.add_argument("--database", help="postgresql://... : run on PostgreSQL (one schema per"
                        " database of the run, dropped at the end) instead of SQLite files")
    args = parser.parse_args(argv)
    postgres = None
    if args.database:
        try:
            url = parse_database_url(args.database)
        except ValueError as err:
            parser.error(f"--database: {err}")
        if url.backend == "postgresql":
            postgres = url.dsn
    sizes = QUICK if args.quick else Sizes()
    if args.repeats:
        sizes.repeats = args.repeats
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        target = Target(Path(folder), postgres)
        figures = asyncio.run(run(sizes, target, args.seed))
    print(f"Session manager + {target.title}")
    print(machine_line())
    print(
        f"SPLIT and TEN tables of {PLAYERS}, random legal actions; saturated: "
        f"{sizes.small_sessions} sessions x {sizes.small_actions} actions and "
        f"{sizes.large_sessions:,} x {sizes.large_actions}, median of {sizes.repeats}; "
        f"offered load: {sizes.load_seconds:g} s of Poisson arrivals\n"
    )
    print(report(figures, sizes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
