"""A stored review and its arithmetic (what a player reads as accuracy and cost).

A *decision* is one of the player's logged moves with more than one legal choice (a move
with a single choice is counted in ``forced`` and left out; one the turn clock or a bot made
for the player while they were away, in ``machine``, and left out too). The expert's search
runs on the state before it, from that player's view only (``game.search``: hidden cards
are sampled). A decision is *assessed* when the search ran at least its minimum sweeps
(``searched``); one the CPU budget left unsearched is counted but not assessed.

- **Accuracy**: the share of assessed decisions whose move equals the expert's.
- **Cost** of a differing decision: the paired gap, expert's move minus the move played, on
  the worlds both were played in (``Decision.paired``), in the search's outcome unit (the
  game UI words it: SPLIT points of margin at the round's end, or a share of a win in the
  last round; TEN a share of a win). A move that dropped out of the search early has its gap
  on fewer worlds (``worlds`` < ``sweeps``), which the review says. A move the search did not
  compare (TEN prunes bids, payments and purchases to a few; a single candidate left is
  the expert's move without a search) has no cost (``cost`` None): it counts against
  accuracy but not in the mean cost. A negative gap (TEN's expert keeps the normal
  bot's move unless another beats it clearly) counts as no cost.
- **Mean cost per decision**: the mean of the costs (0 for a matching move, negatives as 0)
  over the assessed decisions that have one, per unit.
- **How sure**: the simulations per searched decision (mean and least; a decision with a
  single candidate needs none).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel


class ReviewedDecision(BaseModel):
    """One decision of the player: ``step`` is the replay step of the move (the state before
    it is step ``step - 1``); actions as the log writes them (JSON)."""

    step: int
    played: Any
    expert: Any
    matched: bool
    searched: bool
    compared: bool  # the move played was among the search's candidates
    candidates: int
    cost: float | None  # expert minus played, paired; None: not assessed or not compared
    worlds: int  # sweeps the cost rests on
    sweeps: int  # complete sweeps of the search
    simulations: int

    @property
    def dropped_early(self) -> bool:
        """The move played left the search before its end: its cost rests on fewer worlds."""
        return self.cost is not None and not self.matched and self.worlds < self.sweeps

    @property
    def differs(self) -> bool:
        return self.searched and not self.matched


class Review(BaseModel):
    """One player's review of one game."""

    game: str
    player: str
    decisions: list[ReviewedDecision]
    forced: int  # moves with a single legal choice, left out
    machine: int = 0  # moves the turn clock or a bot made for the player, left out
    cpu_seconds: float  # the worker's CPU time spent on it
    budget_seconds: float
    stopped: bool  # the CPU budget ran out before every decision was searched


@dataclass(frozen=True)
class Summary:
    """The figures of a review (see the module's definitions); ``mean_cost`` per unit."""

    decisions: int
    assessed: int
    matched: int
    differing: int
    not_assessed: int
    mean_cost: dict[str, float]
    costed: dict[str, int]  # per unit: the decisions its mean cost is over
    mean_simulations: float
    least_simulations: int

    @property
    def accuracy(self) -> float | None:
        return self.matched / self.assessed if self.assessed else None


def clamped(cost: float) -> float:
    return max(0.0, cost)


def summary(review: Review, unit: Callable[[ReviewedDecision], str] = lambda d: "") -> Summary:
    """The figures of ``review``; ``unit`` names each decision's cost unit (a game whose
    outcome unit changes, SPLIT's last round, keeps the means apart)."""
    assessed = [d for d in review.decisions if d.searched]
    matched = sum(1 for d in assessed if d.matched)
    costs: dict[str, list[float]] = {}
    for decision in assessed:
        value = 0.0 if decision.matched else decision.cost
        if value is not None:
            costs.setdefault(unit(decision), []).append(clamped(value))
    sims = [d.simulations for d in assessed if d.simulations > 0]
    return Summary(
        decisions=len(review.decisions),
        assessed=len(assessed),
        matched=matched,
        differing=len(assessed) - matched,
        not_assessed=len(review.decisions) - len(assessed),
        mean_cost={key: sum(values) / len(values) for key, values in costs.items()},
        costed={key: len(values) for key, values in costs.items()},
        mean_simulations=sum(sims) / len(sims) if sims else 0.0,
        least_simulations=min(sims) if sims else 0,
    )


def differing(review: Review) -> Sequence[ReviewedDecision]:
    """The assessed decisions whose move differs from the expert's, in game order."""
    return [d for d in review.decisions if d.differs]
