"""The SQL both store backends run: row encoding, and every operation but how a transaction
is opened (``bot.store.sqlite``, ``bot.store.postgres``).

The write path of an action (:meth:`SqlStore._write_actions`) is: the conditional snapshot
update (``WHERE id = ? AND version = ?``), the action row, then, for a finishing move, the
results rows and the standings they change. The snapshot goes first, so a write that lost a
race is refused as stale before it can collide with the winner's action row.
"""

from __future__ import annotations

import contextlib
import json
from abc import abstractmethod
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from operator import is_
from typing import Any

from pydantic import BaseModel, TypeAdapter

from bot.records.daily_play import DailyPlay
from bot.records.errors import StaleWrite
from bot.records.period_standings import DerivedLine
from bot.records.session import (
    ActionRow,
    Deadline,
    ResultRow,
    Seat,
    Session,
    SessionKind,
    Status,
    old_line,
)
from bot.records.shards import ShardSet
from bot.store import standings_rows
from bot.store.event_rows import EventRows
from bot.store.interface import Store
from bot.store.transaction import Tx
from game.base import Event

SESSION_COLUMNS = (
    "id, guild_id, channel_id, game, status, host_id, options, seats, state, version, "
    "table_message_id, created_at, updated_at, log, turn_minutes, deadlines, ping_message_id, kind"
)
# Everything but ``id`` and the columns set once at creation (guild, channel, game, created,
# kind).
_UPDATED_COLUMNS = (
    "status", "host_id", "options", "seats", "state", "version", "table_message_id",
    "updated_at", "log", "turn_minutes", "deadlines", "ping_message_id",
)
_SET_SESSION = f"UPDATE sessions SET {', '.join(f'{column} = ?' for column in _UPDATED_COLUMNS)}"
UPDATE_SESSION = _SET_SESSION + " WHERE id = ? AND version = ?"
_UPDATE_SESSION_LENIENT = _SET_SESSION + " WHERE id = ? AND version IN (?, ?)"
INSERT_ACTION = (
    "INSERT INTO actions (session_id, seq, user_id, action, created_at) VALUES (?, ?, ?, ?, ?)"
)
_INSERT_RESULT = (
    "INSERT INTO results (session_id, guild_id, game, user_id, placement, score, is_bot_seat,"
    " bots_in_game, rated, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_RESULT_COLUMNS = (
    "session_id, guild_id, game, user_id, placement, score, is_bot_seat, bots_in_game, rated,"
    " finished_at"
)
_DAILY_COLUMNS = (
    "game, day, user_id, guild_id, channel_id, session_id, claimed_at, score, finished_at,"
    " shared_at"
)
_SEATS = TypeAdapter(tuple[Seat, ...])
_DEADLINES = TypeAdapter(tuple[Deadline, ...])


def _dump_state(state: Any) -> str | None:
    if state is None:
        return None
    if isinstance(state, BaseModel):
        return state.model_dump_json()
    return json.dumps(state)


def log_entry(event: Event) -> dict[str, Any]:
    """One event of the table log as stored: ``{"kind", "actor"?, "data"?}`` (the log keeps
    public events only, so there is no private part to write)."""
    entry: dict[str, Any] = {"kind": event.kind}
    if event.actor is not None:
        entry["actor"] = event.actor
    if event.data:
        entry["data"] = dict(event.data)
    return entry


# id(event) -> (the event, its stored JSON). A session's log keeps its last LOG_KEEP events
# from one version to the next, the same objects, and every stored change wrote them all
# again (issue 42); the entry holds its event, so its id is not reused while it is kept.
_LOG_JSON: OrderedDict[int, tuple[Event, str]] = OrderedDict()
LOG_JSON_KEPT = 4096  # events: the logs of a few hundred live tables
# A session's last written log: key (its session id) -> (the log, each event's JSON). The
# next version's log is that one's tail and the new events (``extend_log``): the tail's JSON
# is taken from it after checking, by identity, that those are the very events (sixth pass
# of issue 42: the per-event look-ups were ~45 Python calls of every stored change).
_LAST_LOGS: OrderedDict[object, tuple[tuple[Event, ...], list[str]]] = OrderedDict()
LAST_LOGS_KEPT = 1024  # sessions: the live tables of one process


def _event_json(event: Event) -> str:
    kept = _LOG_JSON
    found = kept.get(id(event))
    if found is not None and found[0] is event:
        return found[1]
    text = json.dumps(log_entry(event), ensure_ascii=False)
    kept[id(event)] = (event, text)
    if len(kept) > LOG_JSON_KEPT:
        kept.popitem(last=False)
    return text


def _tail_texts(log: tuple[Event, ...], last: tuple[Event, ...], texts: list[str]) -> \
        list[str] | None:
    """The JSON of ``log``'s events when ``log`` starts with a tail of ``last`` (the very
    event objects), the tail's taken from ``texts``; None when it does not."""
    if not log:
        return []
    first = log[0]
    start = 0
    for event in last:
        if event is first:
            break
        start += 1
    else:
        return None
    shared = len(last) - start
    if shared > len(log) or not all(map(is_, log[:shared], last[start:])):
        return None
    return texts[start:] + [_event_json(event) for event in log[shared:]]


def log_json(log: Sequence[Event], key: object = None) -> str:
    """``json.dumps([log_entry(event) for event in log], ensure_ascii=False)``, each event's
    JSON written once while it is kept; ``key`` (a session's id): the log whose tail the
    previous log with that key was (:func:`_tail_texts`)."""
    if key is None:
        return f"[{', '.join([_event_json(event) for event in log])}]"
    log = tuple(log)
    found = _LAST_LOGS.get(key)
    texts = None if found is None else _tail_texts(log, found[0], found[1])
    if texts is None:
        texts = [_event_json(event) for event in log]
    _LAST_LOGS[key] = (log, texts)
    _LAST_LOGS.move_to_end(key)
    if len(_LAST_LOGS) > LAST_LOGS_KEPT:
        _LAST_LOGS.popitem(last=False)
    return f"[{', '.join(texts)}]"


def log_event(entry: Any) -> Event:
    """A stored log entry as an event; a string is a line stored before the log kept events
    (migration 9 rewrites those; a snapshot restored from an older backup may still hold one)."""
    if isinstance(entry, str):
        return old_line(entry)
    data = entry.get("data")
    return Event(str(entry["kind"]), entry.get("actor"), data) if data else \
        Event(str(entry["kind"]), entry.get("actor"))


def session_values(session: Session) -> dict[str, Any]:
    """The ``sessions`` row of ``session`` (every column but ``id``), as stored."""
    return {
        "guild_id": session.guild_id,
        "channel_id": session.channel_id,
        "game": session.game,
        "status": session.status.value,
        "host_id": session.host_id,
        "options": json.dumps(session.options),
        "seats": _SEATS.dump_json(session.seats).decode(),
        "state": _dump_state(session.state),
        "version": session.version,
        "table_message_id": session.table_message_id,
        "created_at": session.created_at.isoformat(),
        "updated_at": session.updated_at.isoformat(),
        "log": log_json(session.log, session.id),
        "turn_minutes": session.turn_minutes,
        "deadlines": _DEADLINES.dump_json(session.deadlines).decode(),
        "ping_message_id": session.ping_message_id,
        "kind": session.kind.value,
    }


def snapshot_params(session: Session, *expected: int) -> tuple[Any, ...]:
    """The parameters of the session update for ``session``, then the expected versions: the
    values :func:`session_values` gives, in the order of ``_UPDATED_COLUMNS`` (written out,
    not picked from the whole row: every stored change makes one)."""
    return (
        session.status.value,
        session.host_id,
        json.dumps(session.options),
        _SEATS.dump_json(session.seats).decode(),
        _dump_state(session.state),
        session.version,
        session.table_message_id,
        session.updated_at.isoformat(),
        log_json(session.log, session.id),
        session.turn_minutes,
        _DEADLINES.dump_json(session.deadlines).decode(),
        session.ping_message_id,
        session.id,
        *expected,
    )


def session_from_row(row: Sequence[Any], *, raw_state: bool = False) -> Session:
    state = row[8]
    if state is not None and not raw_state:
        state = json.loads(state)
    return Session(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        game=row[3],
        status=Status(row[4]),
        host_id=row[5],
        options=json.loads(row[6]),
        seats=_SEATS.validate_json(row[7]),
        state=state,
        version=row[9],
        table_message_id=row[10],
        created_at=datetime.fromisoformat(row[11]),
        updated_at=datetime.fromisoformat(row[12]),
        log=tuple(log_event(entry) for entry in json.loads(row[13])),
        turn_minutes=row[14],
        deadlines=_DEADLINES.validate_json(row[15]),
        ping_message_id=row[16],
        kind=SessionKind(row[17]),
    )


def _when(text: Any) -> datetime | None:
    return datetime.fromisoformat(str(text)) if text is not None else None


def _daily_from_row(row: Sequence[Any]) -> DailyPlay:
    return DailyPlay(
        game=str(row[0]), day=date.fromisoformat(str(row[1])), user_id=str(row[2]),
        guild_id=int(row[3]), channel_id=int(row[4]),
        session_id=int(row[5]) if row[5] is not None else None,
        claimed_at=datetime.fromisoformat(str(row[6])),
        score=int(row[7]) if row[7] is not None else None,
        finished_at=_when(row[8]), shared_at=_when(row[9]),
    )


def result_params(result: ResultRow) -> tuple[Any, ...]:
    return (
        result.session_id,
        result.guild_id,
        result.game,
        result.user_id,
        result.placement,
        result.score,
        int(result.is_bot_seat),
        int(result.bots_in_game),
        int(result.rated),
        result.finished_at.isoformat(),
    )


def result_from_row(r: Sequence[Any]) -> ResultRow:
    return ResultRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), bool(r[7]), bool(r[8]),
                     datetime.fromisoformat(r[9]))


def session_update(
    session: Session, expected_version: int | None
) -> tuple[str, tuple[int, ...]]:
    """:meth:`Store.save_session`'s statement and the versions it may replace: the given one,
    else the previous one or this very one (a repeated write)."""
    if expected_version is None:
        return _UPDATE_SESSION_LENIENT, (session.version - 1, session.version)
    return UPDATE_SESSION, (expected_version,)


@dataclass(frozen=True)
class ActionWrite:
    """One :meth:`Store.record_action`, its statement parameters ready."""

    session_id: int
    action_row: tuple[Any, ...]
    snapshot: tuple[Any, ...]  # the session update's parameters, the expected version last
    results: tuple[ResultRow, ...]

    @classmethod
    def of(
        cls,
        session: Session,
        user_id: str,
        action: dict[str, object] | str,
        results: Iterable[ResultRow],
    ) -> ActionWrite:
        return cls(
            session_id=session.id,
            action_row=(session.id, session.version, user_id, json.dumps(action),
                        session.updated_at.isoformat()),
            snapshot=snapshot_params(session, session.version - 1),
            results=tuple(results),
        )

    @property
    def expected_version(self) -> int:
        return int(self.snapshot[-1])


class SqlStore(EventRows, Store):
    """Every store operation in SQL; a backend opens the transactions."""

    @abstractmethod
    def _transaction(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """One write transaction: committed when the block ends, rolled back when it raises."""

    @abstractmethod
    def _reading(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """A connection to read from (no transaction of this store's writes half-seen)."""

    async def _lock_standings(self, tx: Tx, guild_id: int | None, game: str | None) -> None:
        """Hold, until the transaction ends, the right to change the standings of one guild's
        game (of every guild and game when None), where several writers run at once."""

    async def _after_open(self) -> None:
        """Rebuild the standings if they were computed with another rating model (or
        before they existed)."""
        async with self._reading() as tx:
            current = await standings_rows.model_is_current(tx)
        if not current:
            await self._rebuild(None, None, only_if_stale=True)

    # --- sessions -------------------------------------------------------------------------

    async def create_session(self, session: Session) -> Session:
        values = session_values(session)
        if session.kind is SessionKind.TABLE:
            del values["kind"]  # the column's default (and a schema from before 11 has none)
        async with self._transaction() as tx:
            rows = await tx.fetch(
                f"INSERT INTO sessions ({', '.join(values)})"
                f" VALUES ({', '.join('?' for _ in values)}) RETURNING id",
                tuple(values.values()),
            )
        return replace(session, id=int(rows[0][0]))

    async def save_session(
        self, session: Session, *, expected_version: int | None = None
    ) -> None:
        sql, expected = session_update(session, expected_version)
        async with self._transaction() as tx:
            if await tx.execute(sql, snapshot_params(session, *expected)) != 1:
                raise StaleWrite(session.id, expected if len(expected) > 1 else expected[0])

    async def _write_actions(self, tx: Tx, writes: Sequence[ActionWrite]) -> None:
        """Inside a transaction: the snapshots, then the action rows, then the results (and
        the standings they move on)."""
        await self._write_snapshots(tx, writes)
        await tx.executemany(INSERT_ACTION, [w.action_row for w in writes])
        for write in writes:
            if not write.results:  # only the finishing move has any
                continue
            for result in write.results:
                await self._insert_result(tx, result)
            first = write.results[0]
            await self._lock_standings(tx, first.guild_id, first.game)
            await standings_rows.record_game(tx, write.results)

    async def _insert_result(self, tx: Tx, result: ResultRow) -> None:
        await tx.execute(_INSERT_RESULT, result_params(result))

    async def _write_snapshots(self, tx: Tx, writes: Sequence[ActionWrite]) -> None:
        changed = await tx.executemany(UPDATE_SESSION, [w.snapshot for w in writes])
        if changed != len(writes):
            # In a group commit the writer then tries each write alone, which names the one.
            raise StaleWrite(writes[0].session_id, writes[0].expected_version)

    async def load_sessions(
        self,
        statuses: Iterable[Status],
        *,
        raw_state: bool = False,
        shards: ShardSet | None = None,
    ) -> list[Session]:
        wanted = [status.value for status in statuses]
        marks = ", ".join("?" for _ in wanted)
        owned, owned_params = (shards or ShardSet.whole()).session_filter()
        async with self._reading() as tx:
            rows = await tx.fetch(
                f"SELECT {SESSION_COLUMNS} FROM sessions WHERE status IN ({marks})"
                f" AND {owned} ORDER BY id",
                [*wanted, *owned_params],
            )
        return [session_from_row(row, raw_state=raw_state) for row in rows]

    async def load_session(self, session_id: int) -> Session | None:
        async with self._reading() as tx:
            rows = await tx.fetch(
                f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,)
            )
        return session_from_row(rows[0]) if rows else None

    # --- log, results, standings ----------------------------------------------------------

    async def actions(self, session_id: int) -> list[ActionRow]:
        async with self._reading() as tx:
            rows = await tx.fetch(
                "SELECT session_id, seq, user_id, action, created_at FROM actions"
                " WHERE session_id = ? ORDER BY seq",
                (session_id,),
            )
        return [
            ActionRow(r[0], r[1], r[2], json.loads(r[3]), datetime.fromisoformat(r[4]))
            for r in rows
        ]

    async def results(
        self, guild_id: int, game: str, *, since: datetime | None = None
    ) -> list[ResultRow]:
        sql = f"SELECT {_RESULT_COLUMNS} FROM results WHERE guild_id = ? AND game = ?"
        params: list[Any] = [guild_id, game]
        if since is not None:
            sql += " AND finished_at >= ?"
            params.append(since.isoformat())
        async with self._reading() as tx:
            rows = await tx.fetch(sql + " ORDER BY finished_at, session_id, user_id", params)
        return [result_from_row(r) for r in rows]

    async def standings(self, guild_id: int, game: str, period_key: str) -> list[DerivedLine]:
        async with self._reading() as tx:
            return await standings_rows.read_lines(tx, guild_id, game, period_key)

    async def rebuild_standings(
        self, guild_id: int | None = None, game: str | None = None
    ) -> int:
        return await self._rebuild(guild_id, game, only_if_stale=False)

    async def _rebuild(self, guild_id: int | None, game: str | None, *,
                       only_if_stale: bool) -> int:
        async with self._transaction() as tx:
            await self._lock_standings(tx, guild_id, game if guild_id is not None else None)
            if only_if_stale and await standings_rows.model_is_current(tx):
                return 0  # another process rebuilt them meanwhile
            return await standings_rows.rebuild(tx, guild_id, game)

    async def query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        async with self._reading() as tx:
            return await tx.fetch(sql, params)

    # --- seasons ---------------------------------------------------------------------------

    async def claim_season(
        self, guild_id: int, season: str, champions: Mapping[str, str], *, owner: str,
        now: datetime, stale_before: datetime,
    ) -> bool:
        async with self._transaction() as tx:
            claimed = await tx.execute(
                "INSERT INTO season_posts (guild_id, season, claimed_by, claimed_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, season) DO NOTHING",
                (guild_id, season, owner, now.isoformat()),
            )
            if claimed == 1:
                await tx.executemany(
                    "INSERT INTO season_champions (guild_id, season, game, user_id)"
                    " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, season, game) DO NOTHING",
                    [(guild_id, season, game, user) for game, user in sorted(champions.items())],
                )
                return True
            # A claim whose post never went out (its owner crashed or Discord failed) is
            # taken over once it is stale; the row lock makes one taker win.
            return await tx.execute(
                "UPDATE season_posts SET claimed_by = ?, claimed_at = ?"
                " WHERE guild_id = ? AND season = ? AND posted_at IS NULL AND claimed_at < ?",
                (owner, now.isoformat(), guild_id, season, stale_before.isoformat()),
            ) == 1

    async def finish_season_post(
        self, guild_id: int, season: str, *, owner: str, message_id: int | None, at: datetime
    ) -> bool:
        async with self._transaction() as tx:
            return await tx.execute(
                "UPDATE season_posts SET posted_at = ?, message_id = ?"
                " WHERE guild_id = ? AND season = ? AND claimed_by = ? AND posted_at IS NULL",
                (at.isoformat(), message_id, guild_id, season, owner),
            ) == 1

    async def season_titles(self, guild_id: int, user_id: str) -> list[tuple[str, str]]:
        async with self._reading() as tx:
            rows = await tx.fetch(
                "SELECT season, game FROM season_champions WHERE guild_id = ? AND user_id = ?"
                " ORDER BY season DESC, game",
                (guild_id, user_id),
            )
        return [(str(season), str(game)) for season, game in rows]

    # --- a finished game's public messages -------------------------------------------------

    async def record_final_posts(self, session_id: int, messages: Mapping[int, str], *,
                                 at: datetime) -> None:
        async with self._transaction() as tx:
            await tx.executemany(
                "INSERT INTO final_posts (message_id, session_id, kind, posted_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (message_id) DO NOTHING",
                [(message_id, session_id, kind, at.isoformat())
                 for message_id, kind in sorted(messages.items())],
            )

    async def is_final_post(self, message_id: int) -> bool:
        async with self._reading() as tx:
            rows = await tx.fetch("SELECT 1 FROM final_posts WHERE message_id = ?",
                                  (message_id,))
        return bool(rows)

    # --- the daily deal ----------------------------------------------------------------------

    async def claim_daily(self, play: DailyPlay) -> bool:
        async with self._transaction() as tx:
            return await tx.execute(
                "INSERT INTO daily_plays (game, day, user_id, guild_id, channel_id, session_id,"
                " claimed_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game, day, user_id) DO NOTHING",
                (play.game, play.day.isoformat(), play.user_id, play.guild_id, play.channel_id,
                 play.session_id, play.claimed_at.isoformat()),
            ) == 1

    async def set_daily_session(self, game: str, day: date, user_id: str,
                                session_id: int) -> bool:
        async with self._transaction() as tx:
            return await tx.execute(
                "UPDATE daily_plays SET session_id = ? WHERE game = ? AND day = ?"
                " AND user_id = ? AND session_id IS NULL",
                (session_id, game, day.isoformat(), user_id),
            ) == 1

    async def finish_daily(self, session_id: int, score: int, at: datetime) -> bool:
        async with self._transaction() as tx:
            return await tx.execute(
                "UPDATE daily_plays SET score = ?, finished_at = ?"
                " WHERE session_id = ? AND score IS NULL",
                (score, at.isoformat(), session_id),
            ) == 1

    async def share_daily(self, session_id: int, at: datetime) -> bool:
        async with self._transaction() as tx:
            return await tx.execute(
                "UPDATE daily_plays SET shared_at = ? WHERE session_id = ?"
                " AND shared_at IS NULL AND score IS NOT NULL",
                (at.isoformat(), session_id),
            ) == 1

    async def _daily_plays(self, where: str, params: Sequence[Any],
                           tail: str = "") -> list[DailyPlay]:
        async with self._reading() as tx:
            rows = await tx.fetch(f"SELECT {_DAILY_COLUMNS} FROM daily_plays WHERE {where}{tail}",
                                  params)
        return [_daily_from_row(row) for row in rows]

    async def daily_play(self, game: str, day: date, user_id: str) -> DailyPlay | None:
        found = await self._daily_plays("game = ? AND day = ? AND user_id = ?",
                                        (game, day.isoformat(), user_id))
        return found[0] if found else None

    async def daily_play_of(self, session_id: int) -> DailyPlay | None:
        found = await self._daily_plays("session_id = ?", (session_id,))
        return found[0] if found else None

    async def daily_board(self, guild_id: int, game: str, day: date,
                          limit: int) -> list[DailyPlay]:
        return await self._daily_plays(
            "guild_id = ? AND game = ? AND day = ? AND score IS NOT NULL",
            (guild_id, game, day.isoformat(), limit),
            " ORDER BY score DESC, finished_at, user_id LIMIT ?")

    async def daily_best(self, game: str, day: date) -> int | None:
        async with self._reading() as tx:
            rows = await tx.fetch(
                "SELECT max(score) FROM daily_plays WHERE game = ? AND day = ?",
                (game, day.isoformat()))
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    async def daily_days(self, user_id: str, game: str) -> list[date]:
        async with self._reading() as tx:
            rows = await tx.fetch(
                "SELECT day FROM daily_plays WHERE user_id = ? AND game = ?"
                " AND score IS NOT NULL ORDER BY day", (user_id, game))
        return [date.fromisoformat(str(row[0])) for row in rows]

    # --- reviews ---------------------------------------------------------------------------

    async def queue_review(
        self, session_id: int, user_id: str, *, at: datetime
    ) -> tuple[str, str | None]:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO reviews (session_id, user_id, status, queued_at)"
                " VALUES (?, ?, 'pending', ?) ON CONFLICT (session_id, user_id) DO NOTHING",
                (session_id, user_id, at.isoformat()),
            )
            rows = await tx.fetch(
                "SELECT status, body FROM reviews WHERE session_id = ? AND user_id = ?",
                (session_id, user_id),
            )
        return str(rows[0][0]), rows[0][1]

    async def stored_review(self, session_id: int, user_id: str) -> tuple[str, str | None] | None:
        async with self._reading() as tx:
            rows = await tx.fetch(
                "SELECT status, body FROM reviews WHERE session_id = ? AND user_id = ?",
                (session_id, user_id),
            )
        return (str(rows[0][0]), rows[0][1]) if rows else None

    async def pending_reviews(self, *, shards: ShardSet | None = None) -> list[tuple[int, str]]:
        owned, owned_params = (shards or ShardSet.whole()).session_filter("s.")
        async with self._reading() as tx:
            rows = await tx.fetch(
                "SELECT r.session_id, r.user_id FROM reviews r JOIN sessions s"
                f" ON s.id = r.session_id WHERE r.status = 'pending' AND {owned}"
                " ORDER BY r.queued_at, r.session_id, r.user_id",
                owned_params,
            )
        return [(int(session_id), str(user_id)) for session_id, user_id in rows]

    async def finish_review(
        self, session_id: int, user_id: str, body: str | None, *, at: datetime
    ) -> bool:
        async with self._transaction() as tx:
            return await tx.execute(
                "UPDATE reviews SET status = ?, body = ?, done_at = ?"
                " WHERE session_id = ? AND user_id = ? AND status = 'pending'",
                ("done" if body is not None else "failed", body, at.isoformat(), session_id,
                 user_id),
            ) == 1

    # --- meta -------------------------------------------------------------------------------

    async def claim_meta(self, key: str, value: str) -> str:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                (key, value))
            rows = await tx.fetch("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0])

    async def get_meta(self, key: str) -> str | None:
        async with self._reading() as tx:
            rows = await tx.fetch("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # --- per-server settings ----------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        async with self._reading() as tx:
            rows = await tx.fetch(
                "SELECT key, value FROM guild_settings WHERE guild_id = ? ORDER BY key",
                (guild_id,),
            )
        return {str(key): str(value) for key, value in rows}

    async def set_guild_setting(
        self, guild_id: int, key: str, value: str, *, by: str, at: datetime
    ) -> None:
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, key, value, updated_by, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, key) DO UPDATE SET"
                " value = excluded.value, updated_by = excluded.updated_by,"
                " updated_at = excluded.updated_at",
                (guild_id, key, value, by, at.isoformat()),
            )

    # --- per-user settings ------------------------------------------------------------------

    async def user_settings(self, user_id: int) -> dict[str, str]:
        async with self._reading() as tx:
            rows = await tx.fetch(
                "SELECT key, value FROM user_settings WHERE user_id = ? ORDER BY key",
                (user_id,),
            )
        return {str(key): str(value) for key, value in rows}

    async def set_user_setting(
        self, user_id: int, key: str, value: str | None, *, at: datetime
    ) -> None:
        async with self._transaction() as tx:
            if value is None:
                await tx.execute(
                    "DELETE FROM user_settings WHERE user_id = ? AND key = ?", (user_id, key)
                )
                return
            await tx.execute(
                "INSERT INTO user_settings (user_id, key, value, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id, key) DO UPDATE SET"
                " value = excluded.value, updated_at = excluded.updated_at",
                (user_id, key, value, at.isoformat()),
            )


