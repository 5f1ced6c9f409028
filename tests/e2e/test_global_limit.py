"""Issue 32: the real bot against the stand-in's global limit. A restart after an unexpected stop
redraws every running table and pings its players again: a burst of channel writes. With the
whole of Discord's limit as its budget (``GLOBAL_RATE_SHARE=1``) the burst runs into a lower
global limit: the stand-in answers 429 (``global: true``), discord.py waits and retries, and
every table and ping arrives. With a share that fits the limit, no 429 is answered at all."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.ratelimit import Limits
from game.split import SplitEngine
from tests.e2e.players import Strategy
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_split import split_rank

TABLES = 8
GLOBAL_LIMIT = 8  # per second: the catch-up's writes come faster (3 per table, 0.2 s apart)
# Roomy channel buckets: only the global limit can refuse a write.
LIMITS = Limits(channel_writes=50, channel_window=1.0, deletes=50, global_limit=GLOBAL_LIMIT,
                global_window=1.0)
FITTING_SHARE = "0.08"  # 4 per 1.1 s: with the start's own few requests, within 8 per second
BACK = "back after an unexpected stop"


@pytest.fixture
async def tables_fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.add_user("alice")
    fake.add_user("bob")
    for index in range(TABLES):
        fake.add_channel(f"table-{index}")
    async with fake:
        yield fake


def pinged_again(fd: FakeDiscord, since: float) -> int:
    """How many pings saying the table is back were posted since ``since``."""
    return sum(1 for c in fd.world.calls
               if c.at >= since and c.method == "POST" and c.status == 200
               and isinstance(c.body, dict) and BACK in str(c.body.get("content")))


async def restart_and_catch_up(fd: FakeDiscord, bot: BotProcess) -> float:
    since = time.monotonic()
    await bot.kill()
    await bot.start()
    await bot.wait_until(lambda: pinged_again(fd, since) == TABLES, 30.0,
                         "every table redrawn and its player pinged again")
    return since


async def test_a_burst_meets_the_global_limit_and_recovers_and_a_fitting_share_avoids_it(
    tables_fd: FakeDiscord, tmp_path: Path
) -> None:
    fd = tables_fd
    alice, bob = fd.world.users.values()
    bot = BotProcess(fd, tmp_path / "bot", extra_env=dict(BOT_ENV))
    try:
        await bot.start()
        await bot.wait_until(lambda: fd.commands(), 20.0, "the command sync")
        plays = []
        for index, channel in enumerate(fd.world.channels.values()):
            if not channel.name.startswith("table-"):
                continue
            play = TablePlay(fd, bot, channel, SplitEngine(), Strategy(split_rank, index))
            await play.open("split", alice, bob)
            plays.append(play)
        assert len(plays) == TABLES
        fd.set_rate_limits(LIMITS)

        since = await restart_and_catch_up(fd, bot)  # the whole of Discord's limit: 50/s
        refused = [c for c in fd.world.calls if c.at >= since and c.status == 429]
        assert fd.rate_limited["global"] > 0, "the burst never met the global limit"
        assert all(c.body.get("global") for c in refused)
        # Recovered: every table redrawn since (discord.py retried what was refused).
        for play in plays:
            table = play.table()
            assert any(c.method == "PATCH" and str(table.id) in c.path and c.status == 200
                       and c.at >= since for c in fd.world.calls), play.channel.name

        fd.set_rate_limits(LIMITS)  # the counts start again
        bot.extra_env["GLOBAL_RATE_SHARE"] = FITTING_SHARE
        since = await restart_and_catch_up(fd, bot)
        assert fd.rate_limited["global"] == 0, [
            f"{c.method} {c.route}" for c in fd.world.calls if c.at >= since and c.status == 429]
        assert_clean_log(bot)
    finally:
        await bot.close()
