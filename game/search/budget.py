"""How long a search may run. ``game/`` never reads the clock: the caller passes a budget.

A search counts its simulations and asks the budget after each one whether it may go on, and
inside one every few playout moves (with the count of those complete; ``interrupt``).
``Iterations`` stops after a fixed count (reproducible: the same rng gives the same move); a
caller outside ``game/`` (the bot process, ``bot.automation.decision_pool``) adds a budget that
watches a deadline, and ``FirstOf`` stops at whichever says so first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class Budget(Protocol):
    def exhausted(self, simulations: int) -> bool:
        """Whether the search must stop, with ``simulations`` simulations complete (asked after
        each simulation, and every few moves inside one)."""
        ...


@dataclass(frozen=True)
class Iterations:
    """Stop after ``count`` simulations."""

    count: int

    def exhausted(self, simulations: int) -> bool:
        return simulations >= self.count


@dataclass(frozen=True)
class FirstOf:
    """Stop as soon as any of ``budgets`` is exhausted."""

    budgets: tuple[Budget, ...]

    def exhausted(self, simulations: int) -> bool:
        return any(budget.exhausted(simulations) for budget in self.budgets)


def capped(count: int, extra: Budget | None) -> Budget:
    """``count`` simulations at most, and fewer when ``extra`` says so."""
    own = Iterations(count)
    return own if extra is None else FirstOf((own, extra))
