"""Interaction acknowledgements while expert games run, at the real bot process (issue 19).

One ``python -m bot`` against the Discord stand-in (``bot/playground/fakediscord``). Alice and Bob
play a SPLIT game in one channel by clicking what they see (``tests.e2e.table_play``, the path
of the e2e scenarios), ``--think`` seconds between clicks; every answer's latency (the
stand-in's dispatch of the interaction to the bot's first callback) is kept. The same number
of steps is measured twice: first with no other table, then, once they are under way, while
two TEN games with only machine seats, two experts each, play in two other channels (their
host left at once, so the bot plays every seat; expert moves are searched in the bot's
decision pool). Prints p50 / p99 / max of both runs, the expert moves made meanwhile, the
core count and the Python version.

    python -m bench.expert_ack                 # 150 steps per run
    python -m bench.expert_ack --steps 60      # a short run
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

from bench._common import machine_line, percentile, table
from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import FakeUser
from game.split import SplitEngine
from tests.e2e.players import GameDb, Strategy
from tests.e2e.scenario_support import DEFAULT_DEBOUNCE_ENV
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_split import split_rank

EXPERT_TABLES = ("expert-1", "expert-2")


def user_named(fd: FakeDiscord, name: str) -> FakeUser:
    return next(user for user in fd.world.users.values() if user.name == name)


async def measured_steps(play: TablePlay, steps: int, think: float) -> list[float]:
    """``steps`` clicks of the human table, ``think`` seconds apart (a new game when one
    ends); their ack latencies."""
    latencies: list[float] = []
    game = 0
    while len(latencies) < steps:
        if play.replica is None or play.oracle.over:
            if play.replica is not None:
                await play.poll(lambda: play.row().status == "finished", 30.0, "the game's end")
            alice, bob = (user_named(play.fd, name) for name in ("alice", "bob"))
            await play.open("split", *((alice, bob) if game % 2 == 0 else (bob, alice)))
            game += 1
        await asyncio.sleep(think)
        record = await play.step(quick_runs=True)
        if record.latency is not None:
            latencies.append(record.latency)
    return latencies


async def start_expert_table(fd: FakeDiscord, bot: BotProcess, host_name: str,
                             channel_name: str) -> int:
    """A TEN table of two expert seats and the host, who leaves at once; its session id."""
    host, channel = user_named(fd, host_name), fd.channel_named(channel_name)
    opened = await fd.slash(host, channel, "game new", game="ten", turn_minutes=0,
                            level="expert")
    assert opened.original_message_id is not None, opened.callback_data
    db = GameDb(bot.database_path)
    async with asyncio.timeout(20.0):
        while db.session_in(channel.id).table_message_id != opened.original_message_id:
            await asyncio.sleep(0.02)
    lobby = fd.message(opened.original_message_id)
    await fd.click_label(host, lobby, "Add bot (expert)")
    await fd.click_label(host, lobby, "Start")
    left = await fd.slash(host, channel, "game leave")
    assert left.callback_type == 4, left.callback_data
    return db.session_in(channel.id).id


def bot_moves(db: GameDb, session_ids: list[int]) -> int:
    return sum(len(db.actions(sid)) for sid in session_ids)


def row(name: str, latencies: list[float]) -> list[object]:
    return [
        name,
        len(latencies),
        f"{percentile(latencies, 0.5) * 1000:.0f}",
        f"{percentile(latencies, 0.99) * 1000:.0f}",
        f"{max(latencies) * 1000:.0f}",
    ]


async def bench(steps: int, think: float, seed: int, workdir: Path) -> int:
    fd = FakeDiscord()
    # The stand-in's check of every request against Discord's spec (the e2e tests keep it)
    # costs the harness about 3 ms of CPU per request on the bot's cores: off, so that the
    # figures are the bot's.
    fd.set_validation(False)
    for name in ("alice", "bob", "carol", "dave"):
        fd.add_user(name)
    for name in ("split-table", *EXPERT_TABLES):
        fd.add_channel(name)
    async with fd:
        bot = BotProcess(fd, workdir / "bot", log_level="WARNING", extra_env=DEFAULT_DEBOUNCE_ENV)
        try:
            await bot.start()
            await bot.wait_until(lambda: fd.commands(), 30.0, "the command sync")
            play = TablePlay(fd, bot, fd.channel_named("split-table"), SplitEngine(),
                             Strategy(split_rank, seed))
            quiet = await measured_steps(play, steps, think)
            db = GameDb(bot.database_path)
            sessions = [
                await start_expert_table(fd, bot, host, channel)
                for host, channel in zip(("carol", "dave"), EXPERT_TABLES, strict=True)
            ]
            # Measure once the decision workers run and the expert games are under way.
            async with asyncio.timeout(60.0):
                while bot_moves(db, sessions) < 2 * len(sessions):
                    await asyncio.sleep(0.1)
            before, started = bot_moves(db, sessions), time.monotonic()
            busy = await measured_steps(play, steps, think)
            moves, seconds = bot_moves(db, sessions) - before, time.monotonic() - started
            bad = [line for line in bot.output if " ERROR " in line or "Traceback" in line]
        finally:
            await bot.close()
    print(machine_line())
    print(
        f"e2e interaction acks at the real bot (python -m bot, stand-in, table debounce default,"
        f" EXPERT_WORKERS={os.environ.get('EXPERT_WORKERS', '1')}): a SPLIT table clicked"
        f" {steps} steps per run, {think:g} s apart"
    )
    print(table(
        ["run", "acks", "p50 ms", "p99 ms", "max ms"],
        [row("no other table", quiet),
         row("2 TEN expert-vs-expert games running", busy)],
    ))
    print(f"machine moves in the expert games meanwhile: {moves} in {seconds:.0f} s;"
          f" load average at the end {os.getloadavg()[0]:.1f}")
    if bad:
        print(f"bot logged {len(bad)} errors/tracebacks, first: {bad[0]}")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=150, help="clicks measured per run (150)")
    parser.add_argument("--think", type=float, default=0.25,
                        help="seconds between two clicks of the human table (0.25)")
    parser.add_argument("--seed", type=int, default=3, help="the players' strategy seed")
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    with tempfile.TemporaryDirectory(prefix="tablebot-ack-") as tmp:
        return asyncio.run(bench(args.steps, args.think, args.seed, Path(tmp)))


if __name__ == "__main__":
    raise SystemExit(main())
