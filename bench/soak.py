"""Soak: many whole games in ONE ``python -m bot`` process against the Discord stand-in.

Three simulated players (alice, bob, carol) play three-seat games one after the other in one
channel, SPLIT and TEN in turn, by clicking what they see (``tests.e2e.table_play``: the real
click path, private views and all; a player clicks through the steps of their turn, and the
move that ends it waits for the bot's table edit). Every
``--every`` games the bot process is asked for its figures: ``bot/__main__.py`` writes its RSS
(``VmRSS`` from ``/proc/self/status``) and ``len(gc.get_objects())`` after a full collection
to ``TABLEBOT_STATS_FILE`` on SIGUSR1. At the end: RSS growth over the last 50 games against the
issue's target (at most 5 MB).

    python -m bench.soak                  # 100 games
    python -m bench.soak --games 4 --every 2   # a quick run
    python -m bench.soak --rate-limits    # with Discord's rate limits in the stand-in (slow)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench._common import machine_line, table
from game.split import SplitEngine
from game.ten import TenEngine
from tests.e2e.botproc import BotProcess
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.players import Strategy
from tests.e2e.scenario_support import DEFAULT_DEBOUNCE_ENV
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_split import split_rank
from tests.e2e.test_scenario_ten import ten_rank

STATS_FILE_ENV = "TABLEBOT_STATS_FILE"
GROWTH_WINDOW = 50  # games
GROWTH_TARGET_MB = 5.0


@dataclass(frozen=True)
class Sample:
    games: int
    rss_kb: int
    objects: int
    steps: int
    elapsed: float


async def sample_bot(bot: BotProcess, stats: Path, games: int, steps: int, t0: float) -> Sample:
    """SIGUSR1 to the bot, then the JSON line it appends to ``stats``."""
    assert bot.proc is not None
    before = len(stats.read_text().splitlines()) if stats.exists() else 0
    bot.proc.send_signal(signal.SIGUSR1)
    async with asyncio.timeout(30.0):
        while True:
            lines = stats.read_text().splitlines() if stats.exists() else []
            if len(lines) > before:
                break
            await asyncio.sleep(0.05)
    record = json.loads(lines[-1])
    return Sample(
        games, int(record["rss_kb"]), int(record["objects"]), steps, time.monotonic() - t0
    )


async def play_game(fd: FakeDiscord, bot: BotProcess, index: int, seed: int) -> int:
    """One whole three-seat game; returns its number of moves."""
    alice, bob, carol = fd.world.users.values()
    host, *others = [(alice, bob, carol), (bob, carol, alice), (carol, alice, bob)][index % 3]
    channel = fd.channel_named("soak")
    if index % 2 == 0:
        play = TablePlay(fd, bot, channel, SplitEngine(), Strategy(split_rank, seed + index))
        game = "split"
    else:
        play = TablePlay(fd, bot, channel, TenEngine(), Strategy(ten_rank, seed + index))
        game = "ten"
    await play.open(game, host, *others)
    await play.play_to_end(limit=5000, quick_runs=True)
    await bot.wait_until(lambda: play.row().status == "finished", 30.0, "the game's end")
    return play.steps


def growth(samples: list[Sample], window: int) -> tuple[Sample, Sample] | None:
    last = samples[-1]
    start = [s for s in samples if s.games == last.games - window]
    return (start[0], last) if start else None


async def soak(games: int, every: int, rate_limits: bool, seed: int, workdir: Path) -> int:
    fd = FakeDiscord(rate_limits=rate_limits)
    for name in ("alice", "bob", "carol"):
        fd.add_user(name)
    fd.add_channel("soak")
    stats = workdir / "bot-stats.jsonl"
    samples: list[Sample] = []
    async with fd:
        bot = BotProcess(
            fd,
            workdir / "bot",
            log_level="WARNING",
            extra_env={**DEFAULT_DEBOUNCE_ENV, STATS_FILE_ENV: str(stats)},
        )
        try:
            await bot.start()
            await bot.wait_until(lambda: fd.commands(), 30.0, "the command sync")
            t0 = time.monotonic()
            steps = 0
            samples.append(await sample_bot(bot, stats, 0, 0, t0))
            print(
                f"bot pid {bot.proc.pid if bot.proc else '?'}; sampling every {every} games",
                flush=True,
            )
            for index in range(games):
                steps += await play_game(fd, bot, index, seed)
                if (index + 1) % every == 0 or index + 1 == games:
                    sample = await sample_bot(bot, stats, index + 1, steps, t0)
                    samples.append(sample)
                    print(
                        f"  after {sample.games:4d} games ({sample.steps} moves,"
                        f" {sample.elapsed:.0f} s): RSS {sample.rss_kb / 1024:.1f} MB,"
                        f" {sample.objects:,} live objects",
                        flush=True,
                    )
            bad = [line for line in bot.output if " ERROR " in line or "Traceback" in line]
        finally:
            await bot.close()
    print()
    print(machine_line())
    print(
        f"{games} games (SPLIT and TEN in turn, 3 seats, all moves clicked) in one bot"
        f" process; stand-in rate limits {'on' if rate_limits else 'off'}"
    )
    rows = [
        (
            s.games,
            s.steps,
            s.rss_kb / 1024,
            s.objects,
            (s.rss_kb - samples[0].rss_kb) / 1024,
            round(s.elapsed),
        )
        for s in samples
    ]
    print(table(["games", "moves", "RSS MB", "live objects", "RSS growth MB", "s"], rows))
    window = min(GROWTH_WINDOW, samples[-1].games)
    pair = growth(samples, window)
    if pair is not None and window > 0:
        start, end = pair
        grown = (end.rss_kb - start.rss_kb) / 1024
        per_game = grown * 1024 / window
        verdict = "meets" if grown <= GROWTH_TARGET_MB else "MISSES"
        if window < GROWTH_WINDOW:
            verdict = f"not judged on {window} games"
        print(
            f"RSS growth over the last {window} games ({start.games} -> {end.games}):"
            f" {grown:+.1f} MB ({per_game:+.0f} kB per game), objects"
            f" {end.objects - start.objects:+,}; target <= {GROWTH_TARGET_MB:g} MB over"
            f" {GROWTH_WINDOW} games: {verdict}"
        )
    if bad:
        print(f"bot logged {len(bad)} errors/tracebacks, first: {bad[0]}")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="whole games to play (100)")
    parser.add_argument("--every", type=int, default=10, help="sample every N games (10)")
    parser.add_argument("--seed", type=int, default=1, help="the players' strategy seed")
    parser.add_argument(
        "--rate-limits", action="store_true", help="turn Discord's rate limits on in the stand-in"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.every < 1:
        parser.error("--games and --every must be at least 1")
    os.environ.setdefault("PYTHONHASHSEED", "0")
    with tempfile.TemporaryDirectory(prefix="tablebot-soak-") as tmp:
        return asyncio.run(soak(args.games, args.every, args.rate_limits, args.seed, Path(tmp)))


if __name__ == "__main__":
    raise SystemExit(main())
