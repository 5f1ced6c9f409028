"""What ``/admin health`` shows, read from the running client: :class:`Facts` (plain values,
so the wording in ``cogs.admin.health_text`` is tested without Discord)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from bot.ops.error_log import ERRORS, LoggedError
from bot.ops.health import DATABASE_TIMEOUT
from bot.ops.metrics import METRICS, Metrics
from bot.ops.process import resident_bytes, uptime_seconds
from bot.process.client_ops import live_counts, publish_queue, shard_latencies, shard_states

RECENT_SHOWN = 3  # the newest errors listed
ERROR_WINDOW = 3600.0  # "errors in the last hour"
TIMEOUT, CLOSED = "timeout", "closed"


@dataclass(frozen=True)
class Shard:
    id: int
    connected: bool
    latency: float | None  # seconds


@dataclass(frozen=True)
class Facts:
    uptime: timedelta
    shards: tuple[Shard, ...]
    live: dict[tuple[str, str], int]  # (game, status) -> sessions
    publish_queue: int
    pictures: int
    expert: int
    errors_last_hour: int
    errors_total: int
    recent_errors: tuple[LoggedError, ...]
    rate_limited: int
    rest_calls: int
    memory: int  # bytes resident
    database: str  # "sqlite" / "postgresql"
    database_ms: float | None = None  # None: no answer
    # Why not: TIMEOUT, CLOSED or the exception's type name.
    database_error: str | None = None
    now: float = field(default_factory=time.time)


async def database_answer(client: Any) -> tuple[float | None, str | None]:
    """(milliseconds, None) when the store answered; (None, why) else."""
    store = client.store
    if store is None:
        return None, CLOSED
    started = time.perf_counter()
    try:
        async with asyncio.timeout(DATABASE_TIMEOUT):
            await store.query("SELECT 1")
    except TimeoutError:
        return None, TIMEOUT
    except Exception as err:  # shown to the owner: the type only, no text that could leak
        return None, type(err).__name__
    return (time.perf_counter() - started) * 1000, None


async def gather(client: Any, metrics: Metrics = METRICS) -> Facts:
    states = shard_states(client)
    latencies = shard_latencies(client)
    shards = tuple(Shard(shard, connected, latencies.get(shard))
                   for shard, connected in sorted(states.items()))
    milliseconds, error = await database_answer(client)
    store = client.store
    return Facts(
        uptime=timedelta(seconds=uptime_seconds()),
        shards=shards,
        live=live_counts(client),
        publish_queue=publish_queue(client),
        pictures=int(metrics.value("tablebot_pictures_in_progress")),
        expert=int(metrics.value("tablebot_expert_decisions_in_progress")),
        errors_last_hour=ERRORS.since(ERROR_WINDOW),
        errors_total=ERRORS.count,
        recent_errors=tuple(list(ERRORS.recent)[-RECENT_SHOWN:]),
        rate_limited=int(metrics.total("tablebot_rest_429_total")),
        rest_calls=int(metrics.total("tablebot_rest_calls_total")),
        memory=resident_bytes(),
        database=store.backend if store is not None else "",
        database_ms=milliseconds,
        database_error=error,
    )
