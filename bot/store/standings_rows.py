"""The derived standings rows (see ``bot.records.period_standings``): written with a game's
results, read by the leaderboard, rebuilt from the results when the rating model changes.

Every function runs inside the caller's transaction (:class:`bot.store.transaction.Tx`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from bot.records.period_standings import (
    ALL_TIME,
    PERIODS,
    DerivedLine,
    Period,
    PlayerLine,
    ReplayRow,
    Tally,
    parse_period_key,
    period_end,
    period_key,
)
from bot.records.ratings import MODEL_ID
from bot.records.session import ResultRow
from bot.store.transaction import Tx

MODEL_KEY = "standings_model"  # meta: the MODEL_ID the stored ratings were computed with

_LINE_COLUMNS = "user_id, games, wins, score_total, best, rated_games, mu, sigma"
_REPLAY_COLUMNS = "session_id, finished_at, user_id, placement, score, is_bot_seat, rated"
_REPLAY_ORDER = " ORDER BY finished_at, session_id, user_id"
_UPSERT_LINE = (
    f"INSERT INTO standings (guild_id, game, period_key, {_LINE_COLUMNS})"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, game, period_key, user_id) DO UPDATE SET"
    " games = excluded.games, wins = excluded.wins, score_total = excluded.score_total,"
    " best = excluded.best, rated_games = excluded.rated_games, mu = excluded.mu,"
    " sigma = excluded.sigma"
)
_UPSERT_MARK = (
    "INSERT INTO standing_marks (guild_id, game, period_key, finished_at, session_id)"
    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, period_key) DO UPDATE SET"
    " finished_at = excluded.finished_at, session_id = excluded.session_id"
)


def _line_of(row: Sequence[Any]) -> DerivedLine:
    user_id, games, wins, score_total, best, rated_games, mu, sigma = row
    return DerivedLine(PlayerLine(user_id, games, wins, score_total, best, rated_games), mu,
                       sigma)


async def read_lines(tx: Tx, guild_id: int, game: str, key: str) -> list[DerivedLine]:
    rows = await tx.fetch(
        f"SELECT {_LINE_COLUMNS} FROM standings WHERE guild_id = ? AND game = ?"
        " AND period_key = ? ORDER BY user_id",
        (guild_id, game, key),
    )
    return [_line_of(row) for row in rows]


async def _write_lines(
    tx: Tx, guild_id: int, game: str, key: str, lines: Sequence[DerivedLine]
) -> None:
    await tx.executemany(_UPSERT_LINE, [
        (guild_id, game, key, line.user_id, line.games, line.wins, line.score_total, line.best,
         line.rated_games, mu, sigma)
        for line, mu, sigma in lines
    ])


async def record_game(tx: Tx, results: Sequence[ResultRow]) -> None:
    """Move every period of the game's guild on by this one finished game (its results rows
    are already written in this transaction). A period whose last counted game sorts after
    this one is rebuilt from its results instead, so the rows always equal a full replay."""
    first = results[0]
    finished = first.finished_at.isoformat()
    rows = sorted(
        (ReplayRow(r.session_id, finished, r.user_id, r.placement, r.score,
                   int(r.is_bot_seat), int(r.rated)) for r in results),
        key=lambda row: row.user_id,
    )
    humans = [row.user_id for row in rows if not row.is_bot_seat]
    guild_id, game = first.guild_id, first.game
    for period in PERIODS:
        key = period_key(period, first.finished_at)
        mark = await tx.fetch(
            "SELECT finished_at, session_id FROM standing_marks"
            " WHERE guild_id = ? AND game = ? AND period_key = ?",
            (guild_id, game, key),
        )
        if mark and (finished, first.session_id) <= (mark[0][0], mark[0][1]):
            await rebuild_period(tx, guild_id, game, key)
            continue
        if not humans:
            await tx.execute(_UPSERT_MARK, (guild_id, game, key, finished, first.session_id))
            continue
        marks = ", ".join("?" for _ in humans)
        stored = await tx.fetch(
            f"SELECT {_LINE_COLUMNS} FROM standings WHERE guild_id = ? AND game = ?"
            f" AND period_key = ? AND user_id IN ({marks})",
            (guild_id, game, key, *humans),
        )
        tally = Tally.resumed(_line_of(row) for row in stored)
        tally.add(rows)
        await _write_lines(tx, guild_id, game, key, tally.derived(humans))
        await tx.execute(_UPSERT_MARK, (guild_id, game, key, finished, first.session_id))


async def _replay_rows(
    tx: Tx, guild_id: int, game: str, key: str | None = None
) -> list[ReplayRow]:
    sql = f"SELECT {_REPLAY_COLUMNS} FROM results WHERE guild_id = ? AND game = ?"
    params: list[Any] = [guild_id, game]
    if key is not None and key != ALL_TIME:
        period, start = parse_period_key(key)
        assert start is not None
        sql += " AND finished_at >= ? AND finished_at < ?"
        params += [start.isoformat(), period_end(period, start).isoformat()]
    return [ReplayRow(*row) for row in await tx.fetch(sql + _REPLAY_ORDER, params)]


async def _store_tally(tx: Tx, guild_id: int, game: str, key: str, tally: Tally) -> None:
    await _write_lines(tx, guild_id, game, key, tally.derived())
    if tally.last_key[1]:
        await tx.execute(_UPSERT_MARK, (guild_id, game, key, *tally.last_key))


async def rebuild_period(tx: Tx, guild_id: int, game: str, key: str) -> None:
    """Replace one period's rows with a replay of its results."""
    await tx.execute(
        "DELETE FROM standings WHERE guild_id = ? AND game = ? AND period_key = ?",
        (guild_id, game, key),
    )
    tally = Tally()
    tally.add(await _replay_rows(tx, guild_id, game, key))
    await _store_tally(tx, guild_id, game, key, tally)


async def rebuild(tx: Tx, guild_id: int | None = None, game: str | None = None) -> int:
    """Replace the standings rows (of one guild and game, or all of them) with a replay of the
    results, and record :data:`MODEL_ID` when all were rebuilt; returns the results rows
    replayed."""
    where, params = _scope(guild_id, game)
    await tx.execute(f"DELETE FROM standings{where}", params)
    await tx.execute(f"DELETE FROM standing_marks{where}", params)
    pairs = await tx.fetch(f"SELECT DISTINCT guild_id, game FROM results{where}", params)
    replayed = 0
    for pair_guild, pair_game in pairs:
        rows = await _replay_rows(tx, pair_guild, pair_game)
        replayed += len(rows)
        whole = Tally()
        whole.add(rows)
        await _store_tally(tx, pair_guild, pair_game, ALL_TIME, whole)
        for period in PERIODS:
            if period == "all":
                continue
            # Rows are in time order, so each period's rows are one run.
            for key, run in itertools.groupby(rows, key=_key_of(period)):
                tally = Tally()
                tally.add(list(run))
                await _store_tally(tx, pair_guild, pair_game, key, tally)
    if guild_id is None and game is None:
        await tx.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (MODEL_KEY, MODEL_ID),
        )
    return replayed


def _key_of(period: Period) -> Callable[[ReplayRow], str]:
    return lambda row: period_key(period, datetime.fromisoformat(row.finished_at))


def _scope(guild_id: int | None, game: str | None) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if guild_id is not None:
        clauses.append("guild_id = ?")
        params.append(guild_id)
    if game is not None:
        clauses.append("game = ?")
        params.append(game)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


async def model_is_current(tx: Tx) -> bool:
    rows = await tx.fetch("SELECT value FROM meta WHERE key = ?", (MODEL_KEY,))
    return bool(rows) and rows[0][0] == MODEL_ID
