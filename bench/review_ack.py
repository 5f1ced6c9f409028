"""Interaction acknowledgements while two reviews run, at the real bot process (issue 29).

One ``python -m bot`` against the Discord stand-in (``bot/playground/fakediscord``), with
``REVIEW_WORKERS=2``, ``REVIEW_AT_END=off`` (so no review starts unasked) and a large
``REVIEW_CPU_SECONDS``. Alice and Bob click a SPLIT table (``bench.expert_ack``'s steps) in
rounds, quiet and busy in turn so that a drift of the machine falls on both: each round
finishes a game, measures up to ``--steps`` clicks with no review running, then both players
press My review on that game's final post and clicks are measured for as long as its two
reviews are being computed in the review workers (lowest priority; clicks after both are
stored would be quiet ones). Prints each round's and all rounds' p50 / p99 / max, the p99
ratio (target: at most 1.2), the core count and the Python version.

    python -m bench.review_ack                 # 3 rounds of up to 150 steps
    python -m bench.review_ack --steps 5 --rounds 1   # a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from bench._common import machine_line, percentile, table
from bench.expert_ack import measured_steps, row, user_named
from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import StoredMessage
from game.split import SplitEngine
from tests.e2e.players import GameDb, Strategy
from tests.e2e.scenario_support import DEFAULT_DEBOUNCE_ENV
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_split import split_rank

CHUNK = 10  # clicks measured between two looks at whether the reviews still run


def review_post(fd: FakeDiscord, session_id: int) -> StoredMessage | None:
    button = f"tb:rv:{session_id}:0:o"
    found = [m for m in fd.world.messages.values() if not m.ephemeral and m.component(button)]
    return found[-1] if found else None


def reviews(db: GameDb, session_id: int) -> list[tuple[str, str]]:
    return [(str(user), str(status)) for user, status in db._query(
        "SELECT user_id, status FROM reviews WHERE session_id = ?", session_id)]


async def busy_steps(play: TablePlay, db: GameDb, session_id: int, steps: int,
                     think: float) -> list[float]:
    """Up to ``steps`` clicks, measured only while a review of ``session_id`` is still
    being computed (clicks after both are stored would be quiet ones)."""
    latencies: list[float] = []
    while len(latencies) < steps:
        if not any(status == "pending" for _, status in reviews(db, session_id)):
            break
        latencies += await measured_steps(play, min(CHUNK, steps - len(latencies)), think)
    return latencies


async def bench(steps: int, think: float, seed: int, cpu: float, rounds: int,
                workdir: Path) -> int:
    fd = FakeDiscord()
    fd.set_validation(False)  # the harness's contract check costs CPU on the bot's cores
    for name in ("alice", "bob"):
        fd.add_user(name)
    fd.add_channel("split-table")
    env = {**DEFAULT_DEBOUNCE_ENV, "REVIEW_WORKERS": "2", "REVIEW_AT_END": "false",
           "REVIEW_CPU_SECONDS": str(cpu)}
    quiet: list[float] = []
    busy: list[float] = []
    per_round: list[list[object]] = []
    async with fd:
        bot = BotProcess(fd, workdir / "bot", log_level="WARNING", extra_env=env)
        try:
            await bot.start()
            await bot.wait_until(lambda: fd.commands(), 30.0, "the command sync")
            alice, bob = user_named(fd, "alice"), user_named(fd, "bob")
            play = TablePlay(fd, bot, fd.channel_named("split-table"), SplitEngine(),
                             Strategy(split_rank, seed))
            await play.open("split", alice, bob)
            db = GameDb(bot.database_path)
            for number in range(1, rounds + 1):
                await play.play_to_end()
                finished = play.session_id
                await bot.wait_until(lambda f=finished: review_post(fd, f) is not None, 30.0,
                                     "the final post")
                post = review_post(fd, finished)
                assert post is not None
                calm = await measured_steps(play, steps, think)
                assert reviews(db, finished) == [], "a review ran before it was asked for"
                for user in (alice, bob):
                    opened = await fd.click(user, post, f"tb:rv:{finished}:0:o")
                    assert opened.ephemeral, opened.callback_data
                loaded = await busy_steps(play, db, finished, steps, think)
                await play.poll(
                    lambda f=finished: all(s != "pending" for _, s in reviews(db, f)),
                    600.0, "the reviews stored")
                quiet += calm
                busy += loaded
                per_round.append([number, len(calm), f"{percentile(calm, 0.99) * 1000:.0f}",
                                  len(loaded),
                                  f"{percentile(loaded, 0.99) * 1000:.0f}" if loaded else "-"])
            bad = [line for line in bot.output if " ERROR " in line or "Traceback" in line]
        finally:
            await bot.close()
    print(machine_line())
    print(f"e2e interaction acks at the real bot (python -m bot, stand-in, REVIEW_WORKERS=2,"
          f" REVIEW_CPU_SECONDS={cpu:g}): a SPLIT table clicked {think:g} s apart; {rounds}"
          f" rounds of up to {steps} steps with no review running, then while two reviews of"
          f" the last finished game run (measured only until both are stored)")
    print(table(["round", "quiet acks", "quiet p99 ms", "busy acks", "busy p99 ms"], per_round))
    print(table(["all rounds", "acks", "p50 ms", "p99 ms", "max ms"],
                [row("no review running", quiet), row("2 reviews running", busy)]))
    if not busy:
        print("no click was measured while a review ran")
        return 1
    ratio = percentile(busy, 0.99) / percentile(quiet, 0.99)
    print(f"p99 with two reviews / without: {ratio:.2f} (target <= 1.2)")
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
    parser.add_argument("--rounds", type=int, default=3,
                        help="quiet then busy runs, in turn (3)")
    parser.add_argument("--review-cpu", type=float, default=600.0,
                        help="REVIEW_CPU_SECONDS: large, so no review is cut by its budget (600)")
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    with tempfile.TemporaryDirectory(prefix="tablebot-review-ack-") as tmp:
        return asyncio.run(bench(args.steps, args.think, args.seed, args.review_cpu,
                                 args.rounds, Path(tmp)))


if __name__ == "__main__":
    raise SystemExit(main())
