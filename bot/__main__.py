"""``python -m bot``: check the settings, wait for Discord, then run the bot until SIGTERM/SIGINT.

Exit codes: 0 after a clean shutdown (also when stopped while waiting for Discord or standing
by); 1 when Discord went away while the bot was starting; 2 when a setting or the database path
is unusable, a restore holds the SQLite file (``bot.ops.file_lock``), ``HTTP_PORT`` cannot be
listened on, or Discord refuses the token (one line on stderr, no traceback); 3 when the process
lost the lease of its shard set (another process owns them now; a supervisor restarting it
makes it a standby). ``docs/tablebot.service`` restarts on every code but 0 and 2.

Operations (``bot.ops``, ``docs/operations.md``): ``LOG_FORMAT=json`` logs one JSON object per
line; with ``HTTP_PORT`` set, ``/healthz`` and ``/metrics`` answer from the start (a standby
included); a SQLite file is held (shared lock) for ``python -m bot.restore`` to see.

Ownership (``bot.process.ownership``): on PostgreSQL the process takes the lease of its shard set
(``SHARD_COUNT``/``SHARD_IDS``) before it connects to the gateway; while another process holds
it, it stands by and takes over when that one dies.

While Discord is unreachable or answers 5xx (or 429) at start-up, one line per attempt goes to
stderr ("Discord is unreachable (...); retrying in 5 s") and the check is retried with capped
exponential backoff (5, 10, 20, 40, 60, 60, ... s).

``TABLEBOT_STATS_FILE``: when set, SIGUSR1 makes the process append one JSON line to that file
with its resident memory and live Python objects (those the garbage collector tracks,
the frozen start-up heap included) after a full collection:
``{"time": ..., "rss_kb": ..., "objects": ..., "frozen": ...}`` (used by ``bench/soak.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import discord
import discord.http

from bot.ops import error_log, json_logs
from bot.ops.file_lock import FileLock, hold_for_bot
from bot.ops.health import OWNER, STANDBY, STOPPING, Health
from bot.ops.http_server import serve
from bot.ops.metrics import METRICS
from bot.process import event_loop
from bot.process.api_base import apply_api_base
from bot.process.env_settings import Settings, load_settings
from bot.process.ownership import claim
from bot.records.errors import ConfigError
from bot.store import check_database
from bot.store.lease import LeaseLost

log = logging.getLogger("bot")

STATS_FILE_ENV = "TABLEBOT_STATS_FILE"
GC_YOUNG_THRESHOLD = 20_000
FIRST_RETRY_SECONDS = 5.0
MAX_RETRY_SECONDS = 60.0
PROBE_TIMEOUT_SECONDS = 10.0
LEASE_LOST_EXIT = 3


class TokenRefused(Exception):
    """Discord answered 401 to the token."""


class NotDiscord(Exception):
    """The API base answered something Discord never answers to GET /users/@me."""


def retry_delays(
    first: float = FIRST_RETRY_SECONDS, cap: float = MAX_RETRY_SECONDS
) -> Iterator[float]:
    """5, 10, 20, 40, 60, 60, ...: doubling from ``first`` up to ``cap``."""
    delay = first
    while True:
        yield min(delay, cap)
        delay = min(delay * 2, cap)


async def probe_discord(token: str, timeout: float = PROBE_TIMEOUT_SECONDS) -> str | None:
    """None when Discord accepts the token; else why it cannot be reached now.

    Raises ``TokenRefused`` on 401 and ``NotDiscord`` on another 4xx.
    """
    url = f"{discord.http.Route.BASE}/users/@me"
    headers = {"Authorization": f"Bot {token}", "User-Agent": "tablebot start-up check"}
    try:
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as http,
            http.get(url, headers=headers) as answer,
        ):
            status = answer.status
    except aiohttp.ClientConnectorError as err:
        return f"cannot connect to {err.host}:{err.port}"
    except (aiohttp.ClientError, OSError) as err:
        return type(err).__name__ + (f": {err}" if str(err) else "")
    except TimeoutError:
        return f"no answer within {timeout:g} s"
    if status == 401:
        raise TokenRefused
    if status == 429 or status >= 500:
        return f"HTTP {status}"
    if status >= 400:
        raise NotDiscord(f"GET /users/@me answered HTTP {status}")
    return None


async def wait_for_discord(token: str, stop: asyncio.Event) -> bool:
    """Probe until Discord answers; False when ``stop`` was set first."""
    for delay in retry_delays():
        if stop.is_set():
            return False
        reason = await probe_discord(token)
        if reason is None:
            return True
        print(
            f"tablebot: Discord is unreachable ({reason}); retrying in {delay:g} s",
            file=sys.stderr,
            flush=True,
        )
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)
    return False  # pragma: no cover - retry_delays never ends


def write_stats(path: Path) -> None:
    """Append the process's RSS (kB, from /proc) and live object count as one JSON line."""
    gc.collect()
    rss_kb = 0
    with contextlib.suppress(OSError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss_kb = int(line.split()[1])
                break
    # The start-up heap is frozen (bot.sessions.manager.SessionManager.restore): get_objects()
    # leaves those out.
    frozen = gc.get_freeze_count()
    record = {
        "time": time.time(),
        "rss_kb": rss_kb,
        "objects": len(gc.get_objects()) + frozen,
        "frozen": frozen,
    }
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


async def run(settings: Settings) -> int:
    """Run the bot until a signal (0) or the loss of its lease (:data:`LEASE_LOST_EXIT`);
    with ``HTTP_PORT`` set, the operations endpoint answers meanwhile (``bot.ops``)."""
    shards = settings.shards
    health = Health(expected_shards=tuple(sorted(shards.ids)) if shards.sharded else (0,))
    database = settings.database
    health.sqlite_path = database.path if database.backend == "sqlite" else None
    endpoint = None
    if settings.http_port is not None:
        try:
            endpoint = await serve(health, METRICS, settings.http_host, settings.http_port)
        except OSError as err:
            raise ConfigError(f"HTTP_HOST/HTTP_PORT: cannot listen on {settings.http_host}:"
                              f"{settings.http_port}: {err.strerror or err}") from None
    try:
        return await _run(settings, health)
    finally:
        health.role = STOPPING
        if endpoint is not None:
            await endpoint.cleanup()


async def _run(settings: Settings, health: Health) -> int:
    from bot.process.client_ops import attach
    from bot.process.sharded_client import make_bot

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    log.info("event loop: %s", type(loop).__module__.split(".")[0])
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    stats_file = os.environ.get(STATS_FILE_ENV)
    if stats_file:
        loop.add_signal_handler(signal.SIGUSR1, write_stats, Path(stats_file))
    token = settings.discord_token.get_secret_value()
    if not await wait_for_discord(token, stop):
        log.info("signal received while waiting for Discord; not started")
        return 0
    ownership = await claim(settings.database, settings.shards, stop,
                            on_standby=lambda: setattr(health, "role", STANDBY))
    if ownership is None:
        log.info("signal received while standing by; not started")
        return 0
    lost = ownership.lost or asyncio.Event()
    health.role, health.lease_lost = OWNER, ownership.lost
    code = 0
    try:
        bot = make_bot(settings, ownership)
        attach(health, bot)
        async with bot:  # a write refused by the fence raises LeaseLost (below)
            runner = asyncio.create_task(bot.start(token))
            stopper = asyncio.create_task(stop.wait())
            loser = asyncio.create_task(lost.wait())
            done, _ = await asyncio.wait(
                {runner, stopper, loser}, return_when=asyncio.FIRST_COMPLETED
            )
            if loser in done:
                log.error("lease of shards %s lost; stopping", ownership.shards.label)
                code = LEASE_LOST_EXIT
                await _close_fenced(bot)
            elif stopper in done:
                log.info("signal received; shutting down")
                await bot.close()
            stopper.cancel()
            loser.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await runner  # re-raises a login failure
    except LeaseLost:
        log.error("lease of shards %s lost; stopped", ownership.shards.label)
        code = LEASE_LOST_EXIT
    finally:
        await ownership.release()
    return code


async def _close_fenced(bot: discord.Client) -> None:
    """Disconnect a process whose writes are refused now: what it still tries to store fails
    (and is logged); nothing of it may hold the shutdown up."""
    try:
        await asyncio.wait_for(bot.close(), 10.0)
    except (LeaseLost, TimeoutError) as err:
        log.warning("closing after the lease loss: %s", type(err).__name__)


def main() -> int:
    lock: FileLock | None = None
    try:
        settings = load_settings()
        check_database(settings.database)
        if settings.database.path is not None:  # SQLite: a restore waits for this process
            lock = hold_for_bot(settings.database.path)
    except ConfigError as err:
        print(f"tablebot: {err}", file=sys.stderr)
        return 2
    # The cyclic collector's youngest generation: collected every 20,000 net allocations
    # instead of 700. Per action the bot allocates thousands of short-lived containers (gateway
    # payloads, discord.py objects, rendered views) that reference counting frees; at 700 the
    # collector ran ~0.5 times per action for ~5 % of the process's CPU (issue 42). Cyclic
    # garbage still goes within 20,000 allocations, so memory stays flat.
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    json_logs.configure(settings.log_level, settings.log_format)
    error_log.install()
    apply_api_base(settings.discord_api_base_url)
    try:
        return event_loop.run(run(settings), settings.event_loop)
    except ConfigError as err:
        print(f"tablebot: {err}", file=sys.stderr)
        return 2
    except (discord.LoginFailure, TokenRefused):
        print("tablebot: DISCORD_TOKEN was refused by Discord", file=sys.stderr)
        return 2
    except NotDiscord as err:
        print(f"tablebot: the Discord API base does not look like Discord ({err})", file=sys.stderr)
        return 2
    except (aiohttp.ClientConnectorError, discord.DiscordServerError) as err:
        # Discord went away between the start-up check and the login.
        print(
            f"tablebot: Discord became unreachable while starting ({err}); exiting", file=sys.stderr
        )
        return 1
    finally:
        if lock is not None:
            lock.release()


if __name__ == "__main__":
    sys.exit(main())
