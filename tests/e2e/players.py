"""Simulated players for the end-to-end scenarios: they read what the stand-in shows them and
click it, while an oracle replays the bot's stored actions through the engine.

* ``choices_on(message)``: every control a user can use on a message (each select option is
  one choice), parsed from the components the bot sent.
* ``Strategy``: a seeded chooser that ranks choices by what they say (labels, select kinds).
* ``GameDb``: read-only looks at the bot's SQLite file (sessions, actions, results).
* ``Replica``: the engine state rebuilt from the stored seed and the actions table, with the
  events it produced (the oracle for whose turn it is and for the hidden-information checks).
* ``TextCursor``: the text versions that appeared since the last look, per message.
* ``latency_summary``: p50 / p95 / max of the interaction answers.
"""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import statistics
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord import components as comp
from bot.playground.fakediscord.model import FakeUser, InteractionRecord, StoredMessage
from game.base import Engine, Event, PlayerId, play

ACT_ID = re.compile(r"tb:(?:act|sel):(?P<sid>\d+):(?P<version>\d+):(?P<payload>.*)")
HAND_ID = re.compile(r"tb:hand:(?P<sid>\d+)")

# --- what a user can click ----------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One thing to do on a message: press a button, or choose ``values`` in a select."""

    message_id: int
    custom_id: str
    label: str  # the button label, or the chosen option's label(s)
    placeholder: str = ""  # a select's placeholder
    values: tuple[str, ...] | None = None  # None for a button

    @property
    def payload(self) -> str:
        found = ACT_ID.fullmatch(self.custom_id)
        return found["payload"] if found else ""

    @property
    def version(self) -> int | None:
        found = ACT_ID.fullmatch(self.custom_id)
        return int(found["version"]) if found else None

    @property
    def is_game_control(self) -> bool:
        return ACT_ID.fullmatch(self.custom_id) is not None


def choices_on(message: StoredMessage) -> list[Choice]:
    """Every enabled control of the message's current version, in display order.

    A single-choice string select yields one choice per option; a multi-select (TEN's
    "spend these cards") yields one choice with its preselected options.
    """
    found: list[Choice] = []
    for component in message.interactive():
        if component.get("disabled"):
            continue
        custom_id = component["custom_id"]
        if component.get("type") == comp.BUTTON:
            found.append(Choice(message.id, custom_id, component.get("label") or ""))
            continue
        if component.get("type") != comp.STRING_SELECT:
            continue
        options = component.get("options") or []
        placeholder = component.get("placeholder") or ""
        low = component.get("min_values", 1)
        if low == 1 and component.get("max_values", 1) == 1:
            found.extend(
                Choice(message.id, custom_id, o["label"], placeholder, (o["value"],))
                for o in options
            )
            continue
        preset = [o for o in options if o.get("default")][:low] or options[:low]
        found.append(Choice(
            message.id, custom_id, " ".join(o["label"] for o in preset), placeholder,
            tuple(o["value"] for o in preset),
        ))
    return found


async def use(fd: FakeDiscord, user: FakeUser, choice: Choice) -> InteractionRecord:
    if choice.values is None:
        return await fd.click(user, choice.message_id, choice.custom_id)
    return await fd.select(user, choice.message_id, choice.custom_id, list(choice.values))


class Strategy:
    """Chooses the best-ranked choice (lowest rank), ties broken by a seeded generator.

    ``rank(choice)`` returns None for controls the player never uses (paging, info buttons).
    """

    def __init__(self, rank: Callable[[Choice], int | None], seed: int) -> None:
        self.rank = rank
        self.rng = random.Random(seed)

    def usable(self, choices: Iterable[Choice]) -> list[Choice]:
        return [c for c in choices if self.rank(c) is not None]

    def choose(self, choices: Sequence[Choice]) -> Choice:
        ranked = [(self.rank(c), c) for c in choices]
        usable = [(r, c) for r, c in ranked if r is not None]
        if not usable:
            raise LookupError(f"no usable control among {[c.label for c in choices]}")
        best = min(r for r, _ in usable)
        return self.rng.choice([c for r, c in usable if r == best])


# --- the bot's database, read from outside ------------------------------------------------------


@dataclass(frozen=True)
class SessionRow:
    id: int
    game: str
    status: str
    version: int
    state: dict[str, Any] | None
    table_message_id: int | None


READERS = 8  # open reader connections kept (one per database file, the newest used)
_readers: OrderedDict[str, tuple[tuple[int, int], sqlite3.Connection]] = OrderedDict()


def reader(path: str) -> sqlite3.Connection:
    """A connection that reads ``path``, kept open between looks: opening one per query (and
    reading the schema again) was a third of the load bench's CPU. Each query runs in
    autocommit (``isolation_level=None``), so it reads the newest committed state as a fresh
    connection did; a file replaced at the same path (another inode) gets a new connection;
    at most ``READERS`` are kept (the oldest is closed)."""
    try:
        stat = os.stat(path)
        identity = (stat.st_dev, stat.st_ino)
    except OSError:
        identity = (-1, -1)
    kept = _readers.get(path)
    if kept is not None and kept[0] == identity:
        _readers.move_to_end(path)
        return kept[1]
    if kept is not None:
        kept[1].close()
    conn = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=False)
    _readers[path] = (identity, conn)
    while len(_readers) > READERS:
        _readers.popitem(last=False)[1][1].close()
    return conn


class GameDb:
    """Short read-only looks at the bot's SQLite file (WAL mode: readers never block it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._name = os.fspath(path)

    def _query(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        return reader(self._name).execute(sql, args).fetchall()

    def table_in(self, channel_id: int) -> tuple[int | None, int]:
        """(table message id, version) of the channel's newest session: what
        :meth:`session_in` says of them, without reading and decoding its state."""
        rows = self._query(
            "SELECT table_message_id, version FROM sessions"
            " WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        if not rows:
            raise LookupError(f"no session in channel {channel_id}")
        table_id, version = rows[0]
        return table_id, version

    def session_in(self, channel_id: int) -> SessionRow:
        rows = self._query(
            "SELECT id, game, status, version, state, table_message_id FROM sessions"
            " WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        if not rows:
            raise LookupError(f"no session in channel {channel_id}")
        sid, game, status, version, state, table_id = rows[0]
        return SessionRow(sid, game, status, version, json.loads(state) if state else None,
                          table_id)

    def actions(self, session_id: int, after_seq: int = 0) -> list[tuple[int, str, dict[str, Any]]]:
        """(seq, user_id, action JSON) in order; ``seq`` is the session version it made."""
        rows = self._query(
            "SELECT seq, user_id, action FROM actions WHERE session_id = ? AND seq > ?"
            " ORDER BY seq",
            session_id, after_seq,
        )
        return [(seq, user, json.loads(action)) for seq, user, action in rows]

    def results(self, session_id: int) -> dict[str, tuple[int, int]]:
        """user_id -> (placement, score)."""
        rows = self._query(
            "SELECT user_id, placement, score FROM results WHERE session_id = ?", session_id
        )
        return {user: (placement, score) for user, placement, score in rows}


# --- the oracle ------------------------------------------------------------------------------


@dataclass
class Replica:
    """The game rebuilt from its stored seed and the stored actions, one action at a time."""

    engine: Engine[Any, Any]
    state: Any
    events: list[Event] = field(default_factory=list)
    seq: int = 0
    actions: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @classmethod
    def from_row(cls, engine: Engine[Any, Any], row: SessionRow) -> Replica:
        assert row.state is not None, "the session has no game state yet"
        state, _ = engine.new_game(row.state["players"], row.state["seed"], {})
        return cls(engine, state)

    @property
    def seed(self) -> int:
        return int(self.state.seed)

    @property
    def over(self) -> bool:
        return bool(self.engine.is_over(self.state))

    def awaiting(self) -> list[PlayerId]:
        return list(self.engine.awaiting(self.state))

    def sync(self, db: GameDb, session_id: int) -> int:
        """Apply the actions stored since the last sync; returns how many."""
        rows = db.actions(session_id, self.seq)
        for seq, user, data in rows:
            assert seq > self.seq, f"action rows out of order: {seq} after {self.seq}"
            action = self.engine.parse_action(data)
            self.state, events = play(self.engine, self.state, user, action)
            self.events.extend(events)
            self.actions.append((user, data))
            self.seq = seq
        return len(rows)

    def matches_stored(self, row: SessionRow) -> bool:
        assert row.state is not None
        return bool(self.engine.state_model.model_validate(row.state) == self.state)


# --- what appeared since the last look -------------------------------------------------------


class TextCursor:
    """Remembers how many versions of each message were already looked at."""

    def __init__(self, fd: FakeDiscord) -> None:
        self.fd = fd
        self.seen: dict[int, int] = {}
        self.checked = 0

    def skip(self, seen: dict[int, int]) -> None:
        """Treat these message versions (message id -> count) as looked at: an earlier game's."""
        for message_id, count in seen.items():
            self.seen[message_id] = max(self.seen.get(message_id, 0), count)

    def new_texts(self) -> list[tuple[StoredMessage, str]]:
        """(message, text) for every message version that appeared since the last call."""
        found = []
        for message in list(self.fd.world.messages.values()):
            start = self.seen.get(message.id, 0)
            for version in message.versions[start:]:
                found.extend((message, text) for text in version.texts())
            self.seen[message.id] = len(message.versions)
        self.checked += len(found)
        return found


def latency_summary(records: Iterable[InteractionRecord]) -> tuple[str, list[float]]:
    latencies = sorted(r.latency for r in records if r.latency is not None)
    if not latencies:
        return "no answered interactions", latencies
    p95 = latencies[min(len(latencies) - 1, round(0.95 * (len(latencies) - 1)))]
    text = (
        f"{len(latencies)} interactions: p50 {statistics.median(latencies) * 1000:.0f} ms,"
        f" p95 {p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms"
    )
    return text, latencies
