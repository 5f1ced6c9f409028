"""Full random games per second for SPLIT and TEN, single process (one core).

A game is: ``new_game`` (its start events unused), then while a player is awaited, that
player's ``legal_actions``, a random choice among them and ``apply`` (no invariant checks).
Each configuration is timed ``--repeats`` times and the median is printed, so a busy machine
skews the figures less.

    python -m bench.engine            # the full table (takes about a minute)
    python -m bench.engine --quick    # a few games each, for the smoke test
    python -m bench.engine --game ten --players 4    # one row only
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench._common import machine_line, median, table
from game.base import Engine
from game.split import SplitEngine
from game.ten import TenEngine

TARGETS: dict[tuple[str, int], float] = {("split", 4): 200.0, ("ten", 4): 400.0}
CONFIGS: tuple[tuple[str, int], ...] = (
    ("split", 2),
    ("split", 4),
    ("split", 6),
    ("ten", 2),
    ("ten", 4),
    ("ten", 5),
)


@dataclass
class Run:
    games: int
    actions: int
    seconds: float


def play_random_game(engine: Engine[Any, Any], players: Sequence[str], seed: int) -> int:
    """One full game of random legal actions; returns the number of actions applied.

    Each step acts for the first awaited player (in a simultaneous step the others come
    next). Bound methods are looked up once and the index is drawn from ``random()``
    (cheaper than ``Random.choice``): the loop measures the engine, not its own overhead."""
    rand = random.Random(seed).random
    awaiting, legal_actions, apply = engine.awaiting, engine.legal_actions, engine.apply
    state, _ = engine.new_game(players, seed)
    applied = 0
    while waiting := awaiting(state):
        player = waiting[0]
        legal = legal_actions(state, player)
        apply(state, player, legal[int(rand() * len(legal))])
        applied += 1
    if not engine.is_over(state):
        raise RuntimeError(f"{engine.title}: nobody is awaited but the game is not over")
    return applied


def time_games(engine: Engine[Any, Any], players: int, games: int, seed: int) -> Run:
    names = [f"bot:{i}" for i in range(players)]
    actions = 0
    start = time.perf_counter()
    for index in range(games):
        actions += play_random_game(engine, names, seed + index)
    return Run(games, actions, time.perf_counter() - start)


def measure(
    games: int,
    repeats: int,
    seed: int,
    only_game: str | None = None,
    only_players: int | None = None,
) -> list[list[object]]:
    engines: dict[str, Engine[Any, Any]] = {"split": SplitEngine(), "ten": TenEngine()}
    rows: list[list[object]] = []
    for key, players in CONFIGS:
        if only_game is not None and key != only_game:
            continue
        if only_players is not None and players != only_players:
            continue
        engine = engines[key]
        time_games(engine, players, 1, seed)  # warm the caches and imports
        runs = [time_games(engine, players, games, seed + r * games) for r in range(repeats)]
        rates = [run.games / run.seconds for run in runs]
        action_rates = [run.actions / run.seconds for run in runs]
        target = TARGETS.get((key, players))
        rate = median(rates)
        verdict = "" if target is None else ("met" if rate >= target else "MISSED")
        rows.append(
            [
                f"{engine.title} {players}p",
                games,
                median([run.actions / run.games for run in runs]),
                rate,
                min(rates),
                max(rates),
                median(action_rates),
                "-" if target is None else f">= {target:.0f}",
                verdict,
            ]
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per configuration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="3 games, 1 run: a smoke test")
    parser.add_argument("--game", choices=("split", "ten"), help="only this game's rows")
    parser.add_argument("--players", type=int, help="only rows with this player count")
    args = parser.parse_args(argv)
    games, repeats = (3, 1) if args.quick else (args.games, args.repeats)
    rows = measure(games, repeats, args.seed, args.game, args.players)
    print("Engine: full random games, legal actions enumerated at every step, one process")
    print(machine_line())
    print(f"{repeats} timed run(s) of {games} games per row; figures are medians\n")
    headers = [
        "game", "games/run", "actions/game", "games/s", "min", "max", "actions/s", "target", "",
    ]
    print(table(headers, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
