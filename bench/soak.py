"""Soak: many whole games in ONE ``python -m bot`` process against the Discord stand-in.

Three simulated players (alice, bob, carol) play three-seat games one after the other in one
channel, SPLIT and TEN in turn, by clicking what they see (``tests.e2e.table_play``: the real
click path, private views and all; a player clicks through the steps of their turn, and the
move that ends it waits for the bot's table edit). Every
``--every`` games the bot process is asked for its figures: ``bot/__main__.py`` writes its RSS
(``VmRSS`` from ``/proc/self/status``) and ``len(gc.get_objects())`` after a full collection
to ``TABLEBOT_STATS_FILE`` on SIGUSR1; beside it the RSS of its picture workers (its child
processes ``python -m cogs.render_workers``, read from ``/proc``; pictures are on, as in
production, unless ``--images off``). At the end: the bot's RSS growth over the last 50 games
against the issue's target (at most 5 MB), and the growth of the bot and of its workers over
the second half of the run (issue 34: both flat).

    python -m bench.soak                  # 100 games
    python -m bench.soak --games 4 --every 2   # a quick run
    python -m bench.soak --rate-limits    # with Discord's rate limits in the stand-in (slow)
    python -m bench.soak --images off     # text tables only: no picture workers
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
from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from game.split import SplitEngine
from game.ten import TenEngine
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
    workers_kb: tuple[int, ...] = ()  # each picture worker's RSS


WORKER_MODULE = "cogs.render_workers"


def _proc_rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def worker_rss_kb(parent: int) -> tuple[int, ...]:
    """The RSS of each picture worker of process ``parent`` (its children running
    ``-m cogs.render_workers``), in pid order."""
    found: list[tuple[int, int]] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            # "pid (comm) state ppid ...": comm may hold spaces, so split after its ")"
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            if ppid != parent:
                continue
            command = (entry / "cmdline").read_bytes().split(b"\0")
            if WORKER_MODULE.encode() not in command:
                continue
            found.append((int(entry.name), _proc_rss_kb(int(entry.name))))
        except (OSError, ValueError):
            continue  # it ended meanwhile
    return tuple(rss for _, rss in sorted(found))


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
        games, int(record["rss_kb"]), int(record["objects"]), steps, time.monotonic() - t0,
        worker_rss_kb(bot.proc.pid),
    )


def _workers_mb(sample: Sample) -> str:
    if not sample.workers_kb:
        return "–"
    return "+".join(f"{kb / 1024:.1f}" for kb in sample.workers_kb)


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


def second_half(samples: list[Sample]) -> tuple[Sample, Sample]:
    """The first sample at or after half the games, and the last."""
    last = samples[-1]
    start = next(s for s in samples if 2 * s.games >= last.games)
    return start, last


def half_line(samples: list[Sample]) -> str:
    """The bot's and the workers' RSS growth over the second half of the run."""
    start, end = second_half(samples)
    line = (f"second half ({start.games} -> {end.games} games): bot RSS"
            f" {(end.rss_kb - start.rss_kb) / 1024:+.1f} MB")
    if start.workers_kb and end.workers_kb:
        grown = (sum(end.workers_kb) - sum(start.workers_kb)) / 1024
        line += f", picture workers RSS {grown:+.1f} MB ({len(end.workers_kb)} worker(s))"
    else:
        line += ", no picture worker"
    return line


async def soak(games: int, every: int, rate_limits: bool, seed: int, workdir: Path,
               images: bool = True) -> int:
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
            extra_env={**DEFAULT_DEBOUNCE_ENV, STATS_FILE_ENV: str(stats),
                       "IMAGES": "on" if images else "off"},
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
                        f" {sample.objects:,} live objects, picture workers"
                        f" {_workers_mb(sample)} MB",
                        flush=True,
                    )
            bad = [line for line in bot.output if " ERROR " in line or "Traceback" in line]
        finally:
            await bot.close()
    print()
    print(machine_line())
    print(
        f"{games} games (SPLIT and TEN in turn, 3 seats, all moves clicked) in one bot"
        f" process; stand-in rate limits {'on' if rate_limits else 'off'};"
        f" pictures {'on' if images else 'off'}"
    )
    rows = [
        (
            s.games,
            s.steps,
            s.rss_kb / 1024,
            s.objects,
            (s.rss_kb - samples[0].rss_kb) / 1024,
            _workers_mb(s),
            round(s.elapsed),
        )
        for s in samples
    ]
    print(table(["games", "moves", "RSS MB", "live objects", "RSS growth MB",
                 "workers RSS MB", "s"], rows))
    print(half_line(samples))
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
    parser.add_argument("--images", choices=("on", "off"), default="on",
                        help="tables and hands drawn as pictures (on, as in production)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.every < 1:
        parser.error("--games and --every must be at least 1")
    os.environ.setdefault("PYTHONHASHSEED", "0")
    with tempfile.TemporaryDirectory(prefix="tablebot-soak-") as tmp:
        return asyncio.run(soak(args.games, args.every, args.rate_limits, args.seed, Path(tmp),
                                args.images == "on"))


if __name__ == "__main__":
    raise SystemExit(main())
