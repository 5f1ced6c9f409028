"""Full machine games with invariant checks: ``python -m game.ten simulate ...``."""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field

from game.base import rng_for
from game.ten import greedy, rules
from game.ten.invariants import check_invariants
from game.ten.results import final_results
from game.ten.state import TenState

MAX_ACTIONS_PER_GAME = 100_000


@dataclass
class GameStats:
    actions: int = 0
    turns: int = 0
    busts: int = 0
    auctions: int = 0
    scores: list[int] = field(default_factory=list)


def play_game(
    players: int, seed: int, bot: str, *, check: bool = True
) -> tuple[TenState, GameStats]:
    state, _ = rules.new_game([f"bot:{i}" for i in range(players)], seed)
    rng = rng_for(seed, "simulate", bot)
    stats = GameStats()
    if check:
        check_invariants(state)
    while (seat := rules.waiting_seat(state)) is not None:
        actions = rules.legal(state, seat)  # enumerated every step, as the buttons need
        action = rng.choice(actions) if bot == "random" else greedy.greedy_action(state, seat)
        rules.apply_action(state, seat, action)
        stats.actions += 1
        if check:
            check_invariants(state)
        if stats.actions > MAX_ACTIONS_PER_GAME:
            raise RuntimeError(f"game with seed {seed} does not end")
    stats.turns = state.turn
    stats.busts = state.stats_busts
    stats.auctions = state.stats_auctions
    stats.scores = [r.score for r in final_results(state)]
    return state, stats


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m game.ten")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play machine games with invariant checks")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--bot", choices=("random", "greedy"), default="random")
    sim.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    all_stats = [
        play_game(args.players, args.seed + i, args.bot, check=not args.no_check)[1]
        for i in range(args.games)
    ]
    elapsed = time.perf_counter() - started
    scores = [s for stats in all_stats for s in stats.scores]
    turns = sum(stats.turns for stats in all_stats)
    print(
        f"games: {args.games}  players: {args.players}  bot: {args.bot}  "
        f"checks: {'off' if args.no_check else 'on'}"
    )
    print(f"games/s: {args.games / elapsed:.1f}")
    print(f"actions/game: {sum(s.actions for s in all_stats) / args.games:.1f}")
    print(f"turns/game: {turns / args.games:.1f}")
    print(f"bust rate: {sum(s.busts for s in all_stats) / max(turns, 1):.3f} per turn")
    print(f"auctions/game: {sum(s.auctions for s in all_stats) / args.games:.2f}")
    spread = statistics.pstdev(scores) if len(scores) > 1 else 0.0
    print(
        f"score: mean {statistics.mean(scores):.2f}  sd {spread:.2f}  "
        f"min {min(scores)}  max {max(scores)}"
    )
