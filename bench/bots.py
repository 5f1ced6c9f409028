"""Strength and decision time of the expert bot against normal (greedy) bots.

For each configuration it plays ``--games`` seeded games through ``Engine.bot_action`` (the
path the bot process uses) on a process pool and prints the expert's win share with a 95 %
confidence interval (normal approximation; a tie for first counts as a shared win) and the
expert's decision times (p50, p99, max). Expert moves get the bot process's hard deadline
(``--deadline-ms``, 400 like ``EXPERT_DEADLINE_MS``); the decisions that reach it are
also shown by how far past it they return (p90, max: the search's own overrun at the p90,
the machine's stalls at the max under load). Seats rotate with the seed so the expert sits in
every place equally often.

    python -m bench.bots                      # 400 games per configuration
    python -m bench.bots --games 60           # a short run
    python -m bench.bots --config ten:2 --simulations 80
    python -m bench.bots --config ten:4 --games 100 --first-seed 100   # games 100-199
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench._common import machine_line, percentile, table
from bot.automation.decision_pool import Deadline
from game.base import rng_for
from game.registry import engines

CONFIGS: tuple[tuple[str, int], ...] = (("split", 2), ("ten", 2), ("split", 4), ("ten", 4))
TARGETS: dict[int, float] = {2: 0.65, 4: 0.40}
EXPERT_MODULES = {"split": "game.split.expert", "ten": "game.ten.expert"}


@dataclass
class GameResult:
    share: float  # the expert's part of the win: 1, 1/k for a k-way tie for first, else 0
    decisions: list[float] = field(default_factory=list)  # seconds per expert decision


def _set_simulations(keys: Sequence[str], simulations: int | None, deadline_ms: int) -> None:
    global DEADLINE_MS
    DEADLINE_MS = deadline_ms
    if simulations is None:
        return
    for key in keys:
        importlib.import_module(EXPERT_MODULES[key]).EXPERT_SIMULATIONS = simulations


# Each expert move has the bot process's hard deadline (bot.automation.decision_pool), so the
# decision times are those players see; 0 turns it off (then the moves depend only on the seed).
DEADLINE_MS = 400
PROGRESS_EVERY = 25  # games between two progress lines


def _limit() -> Deadline | None:
    return Deadline.after(DEADLINE_MS / 1000) if DEADLINE_MS else None


def play_game(key: str, players: int, seed: int) -> GameResult:
    """One game: the expert in seat ``seed % players``, normal bots elsewhere."""
    engine = engines()[key]
    seats = [f"bot:{i}" for i in range(players)]
    expert = seats[seed % players]
    state, _ = engine.new_game(seats, seed)
    result = GameResult(share=0.0)
    version = 0
    while not engine.is_over(state):
        player = engine.awaiting(state)[0]
        rng = rng_for(seed, "autoplay", version, player)
        if player == expert:
            started = time.perf_counter()
            action = engine.bot_action(state, player, "expert", rng, _limit())
            result.decisions.append(time.perf_counter() - started)
        else:
            action = engine.bot_action(state, player, "normal", rng)
        engine.apply(state, player, action)
        version += 1
    placed = {r.player: r.placement for r in engine.results(state)}
    firsts = [p for p, place in placed.items() if place == 1]
    if expert in firsts:
        result.share = 1.0 / len(firsts)
    return result


def _play(args: tuple[str, int, int]) -> GameResult:
    return play_game(*args)


def interval(shares: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95 % confidence bounds (normal approximation)."""
    n = len(shares)
    mean = sum(shares) / n
    variance = sum((s - mean) ** 2 for s in shares) / max(n - 1, 1)
    half = 1.96 * math.sqrt(variance / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def past_deadline(times: Sequence[float], deadline_ms: int) -> str:
    """How far past the deadline the decisions that reached it returned: "p90 / max" in
    ms, with their count ("-" without a deadline or when none reached it)."""
    over = [t * 1000 - deadline_ms for t in times if deadline_ms and t * 1000 >= deadline_ms]
    if not over:
        return "-"
    return f"{percentile(over, 0.9):.1f} / {max(over):.0f} ({len(over)})"


HEADERS = (
    "configuration",
    "games",
    "expert win share [95% CI]",
    "target",
    "p50 ms",
    "p99 ms",
    "max ms",
    "past deadline p90 / max ms (n)",
    "decisions",
    "s",
)


def run(
    configs: Sequence[tuple[str, int]], games: int, workers: int, simulations: int | None,
    deadline_ms: int = DEADLINE_MS, first_seed: int = 0, raw: str | None = None,
) -> list[list[object]]:
    """Play every configuration; each one's row is printed as soon as it is done. With
    ``raw``, every game is appended to that file as one JSON line (configuration, seed,
    share, decision seconds), so that runs over disjoint seeds can be pooled."""
    rows: list[list[object]] = []
    with ProcessPoolExecutor(
        max_workers=workers,
        initializer=_set_simulations,
        initargs=(sorted({key for key, _ in configs}), simulations, deadline_ms),
    ) as pool:
        for key, players in configs:
            started = time.perf_counter()
            jobs = [(key, players, seed) for seed in range(first_seed, first_seed + games)]
            results: list[GameResult] = []
            for (_, _, seed), result in zip(jobs, pool.map(_play, jobs, chunksize=1), strict=True):
                results.append(result)
                if raw is not None:
                    with open(raw, "a", encoding="utf-8") as out:
                        line = {"config": f"{key}:{players}", "seed": seed,
                                "share": result.share, "decisions": result.decisions}
                        out.write(json.dumps(line) + "\n")
                if len(results) % PROGRESS_EVERY == 0 and len(results) < games:
                    mean, low, high = interval([r.share for r in results])
                    print(f"  {key}:{players} after {len(results)} games: {mean:.1%}"
                          f" [{low:.1%}, {high:.1%}]", flush=True)
            elapsed = time.perf_counter() - started
            mean, low, high = interval([r.share for r in results])
            times = [t for r in results for t in r.decisions]
            rows.append(
                [
                    f"{key.upper()} {players}p: 1 expert vs {players - 1} normal",
                    games,
                    f"{mean:.1%} [{low:.1%}, {high:.1%}]",
                    f"{TARGETS[players]:.0%}",
                    f"{percentile(times, 0.5) * 1000:.0f}",
                    f"{percentile(times, 0.99) * 1000:.0f}",
                    f"{max(times) * 1000:.0f}",
                    past_deadline(times, deadline_ms),
                    len(times),
                    f"{elapsed:.0f}",
                ]
            )
            print(table(HEADERS, rows[-1:]), flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bots")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--config",
        action="append",
        help="game:players, e.g. split:2 (repeatable; default: all four configurations)",
    )
    parser.add_argument(
        "--simulations", type=int, help="simulations per expert decision (default: the level's)"
    )
    parser.add_argument(
        "--deadline-ms", type=int, default=DEADLINE_MS,
        help=f"hard deadline per expert move, as in the bot (default {DEADLINE_MS}; 0: none)",
    )
    parser.add_argument(
        "--first-seed", type=int, default=0,
        help="seed of the first game (a run from seed N continues one of N games)",
    )
    parser.add_argument("--raw", help="append every game as a JSON line to this file")
    args = parser.parse_args(argv)
    configs = CONFIGS
    if args.config:
        configs = tuple((c.split(":")[0], int(c.split(":")[1])) for c in args.config)
    print(machine_line())
    print(
        f"workers: {args.workers}; simulations per decision: {args.simulations or 'default'};"
        f" deadline per decision: {args.deadline_ms or 'none'} ms",
        flush=True,
    )
    rows = run(
        configs, args.games, args.workers, args.simulations, args.deadline_ms, args.first_seed,
        args.raw,
    )
    if len(rows) > 1:
        print(table(HEADERS, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
