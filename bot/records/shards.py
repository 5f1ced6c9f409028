"""Shards: which guilds a process owns (pure arithmetic, no I/O).

Discord assigns a guild to shard ``(guild_id >> 22) % shard_count``. A process runs the shards
of its :class:`ShardSet` (``SHARD_COUNT`` and ``SHARD_IDS``) and owns the sessions of the
guilds on them: it restores only those, and only it writes them. Without ``SHARD_COUNT`` a
process is one unsharded connection and owns every guild (``ShardSet.whole()``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

MAX_SHARD_COUNT = 4096


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord delivers ``guild_id``'s events on."""
    if shard_count < 1:
        raise ValueError("the shard count is at least 1")
    return (guild_id >> 22) % shard_count


def session_shard(guild_id: int, channel_id: int, shard_count: int) -> int:
    """The shard of a session's place: its server's, or shard 0 for a DM or group DM (its
    place is its channel, ``cogs.kit.places``), where Discord delivers every DM's events."""
    return 0 if guild_id == channel_id else shard_of(guild_id, shard_count)


@dataclass(frozen=True)
class ShardSet:
    """``ids`` of ``count`` shards; ``sharded`` when ``SHARD_COUNT`` was set (the client is then
    an ``AutoShardedBot``)."""

    count: int
    ids: frozenset[int]
    sharded: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARD_COUNT:
            raise ValueError(f"the shard count is between 1 and {MAX_SHARD_COUNT}")
        if not self.ids:
            raise ValueError("a shard set names at least one shard")
        outside = sorted(i for i in self.ids if not 0 <= i < self.count)
        if outside:
            raise ValueError(
                f"shard ids {', '.join(map(str, outside))} are not below the shard count"
                f" {self.count}"
            )

    @classmethod
    def whole(cls) -> ShardSet:
        """One unsharded process: every guild."""
        return cls(1, frozenset({0}), sharded=False)

    @classmethod
    def of(cls, count: int, ids: Iterable[int] | None = None) -> ShardSet:
        """Shards ``ids`` of ``count`` (all of them when None)."""
        return cls(count, frozenset(range(count) if ids is None else ids))

    @property
    def is_partial(self) -> bool:
        """Not every shard: other processes own the other guilds."""
        return len(self.ids) < self.count

    @property
    def syncs_commands(self) -> bool:
        """Commands are synced once, by the owner of shard 0."""
        return 0 in self.ids

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def sql_filter(self, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
        """A condition (``?`` placeholders) and its parameters that keep the rows of owned
        guilds; true for every row when the set is whole. Both SQLite and PostgreSQL
        compute ``>>`` and ``%`` on 64-bit integers alike (snowflakes are positive)."""
        if not self.is_partial:
            return "1 = 1", ()
        marks = ", ".join("?" for _ in self.ids)
        return f"(({column} >> 22) % ?) IN ({marks})", (self.count, *sorted(self.ids))

    def session_filter(self, prefix: str = "") -> tuple[str, tuple[int, ...]]:
        """:meth:`sql_filter` for rows of ``sessions`` (``prefix``: its alias and a dot): a
        DM's or group DM's session (its place is its channel) is on shard 0
        (:func:`session_shard`)."""
        if not self.is_partial:
            return "1 = 1", ()
        marks = ", ".join("?" for _ in self.ids)
        place, channel = f"{prefix}guild_id", f"{prefix}channel_id"
        return (f"(CASE WHEN {place} = {channel} THEN 0 ELSE (({place} >> 22) % ?) END)"
                f" IN ({marks})", (self.count, *sorted(self.ids)))

    def client_options(self) -> dict[str, Any]:
        """The ``AutoShardedBot`` keyword arguments (none when unsharded)."""
        if not self.sharded:
            return {}
        ids = None if not self.is_partial else sorted(self.ids)
        return {"shard_count": self.count, "shard_ids": ids}

    @property
    def label(self) -> str:
        """``"1,3/4"``: shards 1 and 3 of 4 (logs, meta keys, lease names)."""
        return f"{','.join(map(str, sorted(self.ids)))}/{self.count}"

    def meta_key(self, key: str) -> str:
        """A per-process meta key (e.g. the clean-stop flag): the same key when whole."""
        return key if not self.is_partial else f"{key}:{self.label}"


def parse_shard_ids(text: str | None) -> frozenset[int] | None:
    """``"0,1"`` or ``"0-3,5"`` as a set; None for an empty value (all shards)."""
    if text is None or not text.strip():
        return None
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        low, dash, high = part.partition("-")
        try:
            if dash:
                first, last = int(low), int(high)
                if first > last:
                    raise ValueError
                ids.update(range(first, last + 1))
            else:
                ids.add(int(part))
        except ValueError:
            raise ValueError(
                f"{part!r} is not a shard id or range; use e.g. 0,1 or 0-3"
            ) from None
    if not ids:
        return None
    return frozenset(ids)
