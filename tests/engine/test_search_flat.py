"""The flat determinized search's guard: it leaves the default move only for a candidate that
beats it by a clear paired margin on common worlds."""

from __future__ import annotations

import random
from collections.abc import Sequence

from game.search import Iterations, Stop, choose


class Toy:
    """Three moves: "base" (the default) scores the world's luck, "close" that plus a small
    edge, "clear" that plus a large edge, each with its own noise."""

    def __init__(self, close_edge: float, clear_edge: float, noise: float) -> None:
        self.edges = {"base": 0.0, "close": close_edge, "clear": clear_edge}
        self.noise = noise

    def sample(self, rng: random.Random) -> float:
        return rng.gauss(0.0, 1.0)

    def candidates(self, world: float) -> Sequence[str]:
        return ["close", "clear", "base"]

    def outcome(self, world: float, action: str, rng: random.Random, stop: Stop) -> float:
        return world + self.edges[action] + rng.gauss(0.0, self.noise) * (action != "base")

    def copy(self, world: float) -> float:
        return world

    def default(self, world: float) -> str:
        return "base"


def test_without_a_guard_the_best_mean_wins_even_by_luck() -> None:
    toy = Toy(close_edge=0.0, clear_edge=0.0, noise=1.0)
    picks = [choose(toy, random.Random(k), Iterations(30)) for k in range(40)]
    assert picks.count("base") < 30  # two equal rivals with noise usually beat it


def test_the_guard_keeps_the_default_against_a_noisy_equal() -> None:
    toy = Toy(close_edge=0.0, clear_edge=0.0, noise=1.0)
    picks = [choose(toy, random.Random(k), Iterations(30), guard=2.0) for k in range(40)]
    assert picks.count("base") >= 36


def test_the_guard_lets_a_clearly_better_move_through() -> None:
    toy = Toy(close_edge=0.05, clear_edge=1.5, noise=0.5)
    picks = [choose(toy, random.Random(k), Iterations(45), guard=2.0) for k in range(20)]
    assert picks.count("clear") == 20


def test_the_default_joins_the_race_when_it_is_not_a_candidate() -> None:
    class Outside(Toy):
        def candidates(self, world: float) -> Sequence[str]:
            return ["close", "clear"]

    toy = Outside(close_edge=-1.0, clear_edge=-1.0, noise=0.1)
    assert choose(toy, random.Random(1), Iterations(30), guard=2.0) == "base"
    assert choose(toy, random.Random(1), Iterations(30)) in ("close", "clear")
