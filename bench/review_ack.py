"""Interaction acknowledgements while two reviews run, at the real bot process (issue 29).

One ``python -m bot`` against the Discord stand-in (``tests/e2e/fakediscord``), with
``REVIEW_WORKERS=2``, ``REVIEW_AT_END=off`` (so no review starts unasked) and a large
``REVIEW_CPU_SECONDS``. Alice and Bob first play one SPLIT game to its end (not measured);
then the same number of steps of their next games is measured twice, as ``bench.expert_ack``
does: first with no review running, then right after both players pressed My review on the
first game's final post, while its two reviews are computed in the review workers (lowest
priority). Prints p50 / p99 / max of both runs, their p99 ratio (target: at most 1.2), the
reviews' state at the end, the core count and the Python version.

    python -m bench.review_ack                 # 150 steps per run
    python -m bench.review_ack --steps 5       # a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from bench._common import machine_line, percentile, table
from bench.expert_ack import measured_steps, row, user_named
from game.split import SplitEngine
from tests.e2e.botproc import BotProcess
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.fakediscord.model import StoredMessage
from tests.e2e.players import GameDb, Strategy
from tests.e2e.scenario_support import DEFAULT_DEBOUNCE_ENV
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_split import split_rank


def review_post(fd: FakeDiscord, session_id: int) -> StoredMessage | None:
    button = f"tb:rv:{session_id}:0:o"
    found = [m for m in fd.world.messages.values() if not m.ephemeral and m.component(button)]
    return found[-1] if found else None


def reviews(db: GameDb, session_id: int) -> list[tuple[str, str]]:
    return [(str(user), str(status)) for user, status in db._query(
        "SELECT user_id, status FROM reviews WHERE session_id = ?", session_id)]


async def bench(steps: int, think: float, seed: int, cpu: float, workdir: Path) -> int:
    fd = FakeDiscord()
    fd.set_validation(False)  # the harness's contract check costs CPU on the bot's cores
    for name in ("alice", "bob"):
        fd.add_user(name)
    fd.add_channel("split-table")
    env = {**DEFAULT_DEBOUNCE_ENV, "REVIEW_WORKERS": "2", "REVIEW_AT_END": "false",
           "REVIEW_CPU_SECONDS": str(cpu)}
    async with fd:
        bot = BotProcess(fd, workdir / "bot", log_level="WARNING", extra_env=env)
        try:
            await bot.start()
            await bot.wait_until(lambda: fd.commands(), 30.0, "the command sync")
            alice, bob = user_named(fd, "alice"), user_named(fd, "bob")
            play = TablePlay(fd, bot, fd.channel_named("split-table"), SplitEngine(),
                             Strategy(split_rank, seed))
            await play.open("split", alice, bob)
            await play.play_to_end()
            first = play.session_id
            await bot.wait_until(lambda: review_post(fd, first) is not None, 30.0,
                                 "the final post")
            post = review_post(fd, first)
            assert post is not None
            quiet = await measured_steps(play, steps, think)
            db = GameDb(bot.database_path)
            assert reviews(db, first) == [], "a review ran before it was asked for"
            for user in (alice, bob):
                opened = await fd.click(user, post, f"tb:rv:{first}:0:o")
                assert opened.ephemeral, opened.callback_data
            busy = await measured_steps(play, steps, think)
            state = reviews(db, first)
            bad = [line for line in bot.output if " ERROR " in line or "Traceback" in line]
        finally:
            await bot.close()
    print(machine_line())
    print(f"e2e interaction acks at the real bot (python -m bot, stand-in, REVIEW_WORKERS=2,"
          f" REVIEW_CPU_SECONDS={cpu:g}): a SPLIT table clicked {steps} steps per run,"
          f" {think:g} s apart")
    print(table(["run", "acks", "p50 ms", "p99 ms", "max ms"],
                [row("no review running", quiet), row("2 reviews running", busy)]))
    ratio = percentile(busy, 0.99) / percentile(quiet, 0.99)
    print(f"p99 with two reviews / without: {ratio:.2f} (target <= 1.2)")
    still = sum(1 for _, status in state if status == "pending")
    print(f"the two reviews at the end of the busy run: {still} still running,"
          f" {len(state) - still} stored")
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
    parser.add_argument("--review-cpu", type=float, default=600.0,
                        help="REVIEW_CPU_SECONDS: large, so the reviews outlast the run (600)")
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    with tempfile.TemporaryDirectory(prefix="tablebot-review-ack-") as tmp:
        return asyncio.run(bench(args.steps, args.think, args.seed, args.review_cpu, Path(tmp)))


if __name__ == "__main__":
    raise SystemExit(main())
