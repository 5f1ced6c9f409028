"""Flat determinized Monte Carlo with sequential halving and common worlds.

Each *sweep* samples one world (a full state consistent with what the deciding player may
see, from the game's ``sample``), then plays every candidate action still in the race in that
same world, with the same rollout seed, and scores the outcome. Comparing the candidates on
common worlds cancels most of the luck of the deal between them. After sweeps 2, 4, 8, ...
the worse half of the candidates drops out, so the budget goes to the close calls.

The search sees the real state only through ``sample``; everything else runs on sampled
worlds. With an ``Iterations`` budget the choice depends only on the rng and the sampled
worlds, so it is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar

from game.search.budget import Budget

S = TypeVar("S")
A = TypeVar("A")


class Determinized(Protocol, Generic[S, A]):
    """What the search needs from a game, for one deciding seat."""

    def sample(self, rng: random.Random) -> S:
        """A full state consistent with the deciding seat's information (a fresh object)."""
        ...

    def candidates(self, world: S) -> Sequence[A]:
        """The actions to compare (legal for the deciding seat in every sampled world)."""
        ...

    def outcome(self, world: S, action: A, rng: random.Random) -> float:
        """Play ``action`` in ``world`` (which it may spoil), roll out; the deciding seat's
        value of the result, higher is better."""
        ...

    def copy(self, world: S) -> S: ...

    def default(self, world: S) -> A:
        """The move when the budget stops the search before one sweep is complete: the
        rollout policy's own move in ``world`` (a sampled world, so it reads nothing hidden)."""
        ...


def choose(
    game: Determinized[S, A], rng: random.Random, budget: Budget, min_sweeps: int = 1,
    first_cut: int = 2,
) -> A:
    """The candidate with the best mean outcome over the sweeps the budget allows; the
    game's ``default`` move when the budget stops it before ``min_sweeps`` sweeps are
    complete (a comparison on a world or two is mostly luck). The first halving comes after
    ``first_cut`` sweeps (a noisy outcome needs more worlds before a candidate drops out)."""
    first = game.sample(rng)
    options = list(game.candidates(first))
    if len(options) == 1:
        return options[0]
    alive = list(range(len(options)))
    totals = [0.0] * len(options)
    counts = [0] * len(options)
    simulations = 0
    sweep = 0
    # The totals after the last complete sweep: a sweep the budget cuts short would compare
    # the candidates on different worlds.
    complete: tuple[list[float], list[int]] | None = None
    world: S | None = first
    next_cut = first_cut
    while True:
        if world is None:
            world = game.sample(rng)
        seed = rng.getrandbits(64)
        for index in alive:
            value = game.outcome(game.copy(world), options[index], random.Random(seed))
            totals[index] += value
            counts[index] += 1
            simulations += 1
            if budget.exhausted(simulations):
                if complete is None or sweep < min_sweeps:
                    # Too few worlds, or some candidates not played even once (their
                    # comparison would favour the ones the sweep reached first).
                    return game.default(first)
                return options[_best(alive, *complete)]
        complete = (list(totals), list(counts))
        world = None
        sweep += 1
        if sweep == next_cut and len(alive) > 2:
            alive = _top_half(alive, totals, counts)
            next_cut *= 2


def _mean(index: int, totals: Sequence[float], counts: Sequence[int]) -> float:
    return totals[index] / counts[index] if counts[index] else float("-inf")


def _best(alive: Sequence[int], totals: Sequence[float], counts: Sequence[int]) -> int:
    # Ties go to the earlier candidate (the engine's legal order), so the choice is stable.
    return max(alive, key=lambda i: (_mean(i, totals, counts), -i))


def _top_half(alive: list[int], totals: Sequence[float], counts: Sequence[int]) -> list[int]:
    ranked = sorted(alive, key=lambda i: (-_mean(i, totals, counts), i))
    return sorted(ranked[: max(2, (len(ranked) + 1) // 2)])
