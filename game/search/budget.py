"""How long a search may run. ``game/`` never reads the clock: the caller passes a budget.

A search counts its simulations and asks the budget after each one whether it may go on.
``Iterations`` stops after a fixed count (reproducible: the same rng gives the same move); a
caller outside ``game/`` (the bot process) may pass a budget that also watches a deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class Budget(Protocol):
    def exhausted(self, simulations: int) -> bool:
        """Whether the search must stop after ``simulations`` simulations."""
        ...


@dataclass(frozen=True)
class Iterations:
    """Stop after ``count`` simulations."""

    count: int

    def exhausted(self, simulations: int) -> bool:
        return simulations >= self.count
