"""Game-agnostic search for machine players: determinized Monte Carlo over legal actions."""

from game.search.budget import Budget, FirstOf, Iterations, capped
from game.search.flat import Determinized, choose

__all__ = ["Budget", "Determinized", "FirstOf", "Iterations", "capped", "choose"]
