"""Paging through a replay: how long building one takes and what one step costs.

A long random game of each game is logged, then replayed (``game.replay.Replay``) with states
kept every K steps; each row times the build (the log replayed once, every action checked) and
reading one step (its state rebuilt, copied, and its events put into words) when paging
forward (▶ from the step before), backward (◀), and jumping to random steps.

    python -m bench.replay            # the full table
    python -m bench.replay --quick    # one short run, for the smoke test
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

from bench._common import machine_line, median, percentile, table
from game.base import Engine
from game.registry import engines, step_markers
from game.replay import LoggedAction, Replay

CONFIGS: tuple[tuple[str, int], ...] = (("split", 6), ("ten", 5))
CHECKPOINTS = (1, 8, 32, 128)


def longest_log(
    engine: Engine[Any, Any], players: list[str], seeds: range
) -> tuple[int, list[LoggedAction]]:
    """The longest of the random games with these seeds: its seed and its action log."""
    best: tuple[int, list[LoggedAction]] = (seeds.start, [])
    for seed in seeds:
        rng = random.Random(seed)
        state, _ = engine.new_game(players, seed)
        log: list[LoggedAction] = []
        while waiting := engine.awaiting(state):
            action = rng.choice(engine.legal_actions(state, waiting[0]))
            log.append(LoggedAction(waiting[0], action.model_dump(mode="json"), len(log) + 2))
            engine.apply(state, waiting[0], action)
        if len(log) > len(best[1]):
            best = (seed, log)
    return best


def per_step_micros(replay: Replay, order: Sequence[int]) -> list[float]:
    times = []
    for index in order:
        start = time.perf_counter()
        replay.step(index)
        times.append((time.perf_counter() - start) * 1e6)
    return times


def measure(games: int, repeats: int) -> list[list[object]]:
    rows: list[list[object]] = []
    markers = step_markers()
    for key, count in CONFIGS:
        engine = engines()[key]
        players = [f"p{i}" for i in range(count)]
        seed, log = longest_log(engine, players, range(games))
        for every in CHECKPOINTS:
            builds, forward, backward, jumps = [], [], [], []
            for repeat in range(repeats):
                start = time.perf_counter()
                replay = Replay(engine, players, seed, None, log, marker=markers[key],
                                checkpoint_every=every)
                builds.append((time.perf_counter() - start) * 1e3)
                steps = range(len(replay))
                forward += per_step_micros(replay, steps)
                backward += per_step_micros(replay, list(reversed(steps)))
                jumps += per_step_micros(replay, random.Random(repeat).choices(steps, k=200))
            rows.append(
                [
                    f"{engine.title} {count}p", len(log) + 1, every, median(builds),
                    median(forward), median(backward), median(jumps), percentile(jumps, 0.99),
                ]
            )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replay", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="random games to pick the longest")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="2 games, 1 run: a smoke test")
    args = parser.parse_args(argv)
    games, repeats = (2, 1) if args.quick else (args.games, args.repeats)
    rows = measure(games, repeats)
    print("Replay: build once, then read steps (state rebuilt from checkpoints, copied, worded)")
    print(machine_line())
    print(f"the longest of {games} random games per game; {repeats} run(s); medians\n")
    headers = [
        "game", "steps", "keep every", "build ms", "▶ µs/step", "◀ µs/step", "jump µs",
        "jump p99 µs",
    ]
    print(table(headers, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
