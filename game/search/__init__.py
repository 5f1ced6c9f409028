"""Game-agnostic search for machine players: determinized Monte Carlo over legal actions."""

from game.search.budget import Budget, FirstOf, Iterations, capped
from game.search.flat import Decision, Determinized, Estimate, choose, search
from game.search.interrupt import STOP_EVERY_MOVES, Interrupted, Stop

__all__ = [
    "STOP_EVERY_MOVES", "Budget", "Decision", "Determinized", "Estimate", "FirstOf", "Interrupted",
    "Iterations", "Stop", "capped", "choose", "search",
]
