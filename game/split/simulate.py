"""Self-play of full SPLIT games with invariant checks, for speed and sanity figures."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from game.split import greedy, rules
from game.split.invariants import check_invariants
from game.split.scoring import sheet_score
from game.split.state import SplitState
from game.split.vocabulary import RoundEnd, Step


@dataclass
class SimulationReport:
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    scores: list[int] = field(default_factory=list)
    round_ends: Counter[RoundEnd] = field(default_factory=Counter)
    first_turn_outs: int = 0


def play_game(players: int, seed: int, bot: str, check: bool = True) -> tuple[SplitState, int]:
    """One full game between ``players`` bots; returns the final state and action count."""
    state, _ = rules.new_game([f"bot:{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    actions = 0
    while state.step != Step.GAME_OVER:
        seat = rules.awaiting(state)[0]
        legal = rules.legal_actions(state, seat)
        action = rng.choice(legal) if bot == "random" else greedy.greedy_action(state, seat)
        rules.apply(state, seat, action)
        actions += 1
        if check:
            check_invariants(state)
    return state, actions


def simulate(players: int, games: int, seed: int, bot: str, check: bool = True) -> SimulationReport:
    report = SimulationReport()
    start = time.perf_counter()
    for index in range(games):
        state, actions = play_game(players, seed + index, bot, check)
        report.games += 1
        report.actions += actions
        report.scores.extend(
            sheet_score(state.boxes[s], state.negatives[s]) for s in range(players)
        )
        for summary in state.history:
            report.round_ends[summary.ended_by] += 1
            report.first_turn_outs += summary.first_turn_out
    report.seconds = time.perf_counter() - start
    return report


def format_report(report: SimulationReport, players: int, bot: str) -> str:
    scores = report.scores
    spread = statistics.pstdev(scores) if len(scores) > 1 else 0.0
    rate = report.games / report.seconds if report.seconds else float("inf")
    return "\n".join(
        [
            f"SPLIT simulate: {report.games} games, {players} players, bot={bot}",
            f"games/s: {rate:.1f}",
            f"actions/game: {report.actions / max(report.games, 1):.1f}",
            f"score: mean {statistics.fmean(scores):.2f}, stdev {spread:.2f}, "
            f"min {min(scores)}, max {max(scores)}",
            f"rounds ended: out {report.round_ends[RoundEnd.OUT]}, "
            f"pile exhausted {report.round_ends[RoundEnd.PILE]} "
            f"(first-turn outs {report.first_turn_outs})",
        ]
    )
