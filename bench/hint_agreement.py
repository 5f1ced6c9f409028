"""How often the hint is the move the expert seat plays: it must be 100 %.

A hint (issue 29) runs the expert seat's own search for a human seat, with the generator that
seat's machine move would get (``bot.automation.decision_pool.move_rng``) and under the same
budget, in the bot's decision pool. This script plays ``--games`` seeded games of each
configuration with normal (greedy) seats and, at every ``--every``-th decision with two legal
moves or more, asks one ``DecisionPool`` (the bot's own class, its worker processes) for the
hint and for the expert seat's move at that position (``DecisionPool.bot_action`` at level
"expert"), with the same seed, version and seat. It prints, per configuration and in all,
the positions compared and the share where the hint's move is the expert's; the exit code is
1 when any differs.

The pool's deadline defaults to 60 s so that the level's simulation count ends every search
(an iteration budget: the move depends only on the generator). With the bot's 400 ms
(``--deadline-ms 400``) on a busy machine, a search cut at a different point can differ; that
is the deadline's doing, not the hint's.

    python -m bench.hint_agreement                        # 10 games per configuration
    python -m bench.hint_agreement --games 2 --every 25   # a short run
    python -m bench.hint_agreement --config ten:4 --games 5
"""

from __future__ import annotations

import argparse
import asyncio
import random
from typing import Any

from bench._common import machine_line, table
from bot.automation.decision_pool import DecisionPool, move_rng
from game.registry import engines

CONFIGS: tuple[tuple[str, int], ...] = (("split", 2), ("ten", 2), ("split", 4), ("ten", 4))


def positions(game: str, players: int, seed: int, every: int) -> list[tuple[Any, str, int]]:
    """(state, awaited player, version) at every ``every``-th decision of a seeded game of
    normal seats that offers two moves or more; the version counts the moves made."""
    engine = engines()[game]
    state, _ = engine.new_game([f"p{i}" for i in range(players)], seed)
    found = []
    version = 0
    while not engine.is_over(state):
        player = engine.awaiting(state)[0]
        if version % every == every - 1 and len(engine.legal_actions(state, player)) > 1:
            found.append((engine.copy_state(state), player, version))
        action = engine.bot_action(state, player, "normal", random.Random(seed * 7919 + version))
        engine.apply(state, player, action)
        version += 1
    return found


async def compare(pool: DecisionPool, game: str, players: int, games: int, first_seed: int,
                  every: int) -> tuple[int, int]:
    """(positions compared, positions where the hint is the expert seat's move)."""
    compared = same = 0
    for seed in range(first_seed, first_seed + games):
        for state, player, version in positions(game, players, seed, every):
            hint = await pool.hint(game, state, player, move_rng(state.seed, version, player))
            played = await pool.bot_action(game, state, player, "expert",
                                           move_rng(state.seed, version, player))
            compared += 1
            same += hint.action == played
    return compared, same


async def run(args: argparse.Namespace, configs: tuple[tuple[str, int], ...]) -> int:
    pool = DecisionPool(workers=args.workers, deadline=args.deadline_ms / 1000)
    rows: list[list[object]] = []
    total = agreed = 0
    try:
        for game, players in configs:
            compared, same = await compare(pool, game, players, args.games, args.first_seed,
                                           args.every)
            total += compared
            agreed += same
            rows.append([f"{game.upper()} {players}p", args.games, compared, same,
                         _share(same, compared)])
    finally:
        await pool.close()
    rows.append(["all", args.games * len(configs), total, agreed, _share(agreed, total)])
    print(table(["configuration", "games", "positions", "hint = expert's move", "share"],
                rows))
    return 0 if agreed == total and total > 0 else 1


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hint_agreement")
    parser.add_argument("--games", type=int, default=10, help="games per configuration")
    parser.add_argument("--every", type=int, default=10,
                        help="compare at every N-th decision (default 10)")
    parser.add_argument("--workers", type=int, default=1, help="decision pool workers")
    parser.add_argument("--deadline-ms", type=int, default=60_000,
                        help="the pool's deadline per search (default 60000: the level's"
                             " simulation count decides)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--config", action="append",
                        help="game:players, e.g. split:2 (repeatable; default: all four)")
    args = parser.parse_args(argv)
    configs = CONFIGS
    if args.config:
        configs = tuple((c.split(":")[0], int(c.split(":")[1])) for c in args.config)
    print(machine_line())
    print(f"decision pool: {args.workers} worker(s), deadline {args.deadline_ms} ms; positions"
          f" at every {args.every}th decision of games of normal seats", flush=True)
    return asyncio.run(run(args, configs))


if __name__ == "__main__":
    raise SystemExit(main())
