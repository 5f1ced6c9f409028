"""Game-agnostic search for machine players: determinized Monte Carlo over legal actions."""

from game.search.budget import Budget, Iterations
from game.search.flat import Determinized, choose

__all__ = ["Budget", "Determinized", "Iterations", "choose"]
