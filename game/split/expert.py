"""The expert SPLIT player: determinized Monte Carlo over the legal moves.

Each simulation deals the hidden cards afresh (``hidden.sample_hidden``), plays the candidate
move, lets every seat play greedily to the end of the round and scores the deciding seat's
margin over the best other sheet; in the last round, whose end is the game's, its share of
the win plus a part of that margin (``outcome_value``). The search itself is game-agnostic
(``game.search``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from game.search import Budget, Decision, Iterations, Stop, search
from game.split.actions import SplitAction
from game.split.greedy import greedy_action
from game.split.hidden import sample_hidden
from game.split.rollout import margin, play_out_round, sheet_scores, step
from game.split.rules import legal_actions
from game.split.state import SplitState, copy_state
from game.split.vocabulary import Step

# Simulations per decision at level "expert" when the caller gives no budget (bench/bots.py
# measures the decision times this gives).
EXPERT_SIMULATIONS = 200
# Sweeps before the first halving: after two worlds a round's margin is mostly the luck of
# the deal, and half the candidates dropped out on it.
FIRST_CUT = 4
# In the last round: the value of one point of margin against a whole win (a typical final
# margin, 10-20 points, is worth a third to a half of a win).
MARGIN_WEIGHT = 0.03


def outcome_value(world: SplitState, seat: int) -> float:
    """The seat's value of a played-out round: its margin over the best other sheet, and when
    the game is over its share of the win (1/k in a k-way tie for first) plus
    ``MARGIN_WEIGHT`` per point of margin. (A playout cut at ``MAX_ROLLOUT_MOVES``, which
    greedy play never reaches, is valued by its margin.)"""
    if world.step != Step.GAME_OVER:
        return margin(world, seat)
    scores = sheet_scores(world)
    lead = margin(world, seat)
    share = 1.0 / scores.count(scores[seat]) if lead >= 0 else 0.0
    return share + MARGIN_WEIGHT * lead


class SplitSearch:
    """``game.search.Determinized`` for one SPLIT seat."""

    def __init__(self, state: SplitState, seat: int) -> None:
        self._state = state
        self._seat = seat

    def sample(self, rng: random.Random) -> SplitState:
        return sample_hidden(self._state, self._seat, rng)

    def candidates(self, world: SplitState) -> Sequence[SplitAction]:
        return legal_actions(world, self._seat)

    def outcome(
        self, world: SplitState, action: SplitAction, rng: random.Random, stop: Stop
    ) -> float:
        step(world, self._seat, action)
        play_out_round(world, stop)
        return outcome_value(world, self._seat)

    def default(self, world: SplitState) -> SplitAction:
        return greedy_action(world, self._seat)

    def copy(self, world: SplitState) -> SplitState:
        return copy_state(world)


def expert_action(
    state: SplitState, seat: int, rng: random.Random, budget: Budget | None = None
) -> SplitAction:
    return expert_decision(state, seat, rng, budget).action


def expert_decision(
    state: SplitState, seat: int, rng: random.Random, budget: Budget | None = None
) -> Decision[SplitAction]:
    """The expert's search with what it saw (the move is ``expert_action``'s)."""
    return search(
        SplitSearch(state, seat), rng, budget or Iterations(EXPERT_SIMULATIONS),
        first_cut=FIRST_CUT,
    )
