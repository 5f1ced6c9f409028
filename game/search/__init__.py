"""Game-agnostic search for machine players: determinized Monte Carlo over legal actions."""

from game.search.budget import Budget, FirstOf, Iterations, capped
from game.search.flat import Determinized, choose
from game.search.interrupt import STOP_EVERY_MOVES, Interrupted, Stop

__all__ = [
    "STOP_EVERY_MOVES", "Budget", "Determinized", "FirstOf", "Interrupted", "Iterations", "Stop",
    "capped", "choose",
]
