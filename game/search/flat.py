"""Flat determinized Monte Carlo with sequential halving and common worlds.

Each *sweep* samples one world (a full state consistent with what the deciding player may
see, from the game's ``sample``), then plays every candidate action still in the race in that
same world, with the same rollout seed, and scores the outcome. Comparing the candidates on
common worlds cancels most of the luck of the deal between them. After ``first_cut`` sweeps,
and again after twice, four times ... as many, the worse half of the candidates drops out, so
the budget goes to the close calls. With a guard, the game's default move stays in the race
and is replaced only by a candidate whose paired difference to it is significant.

The budget is asked after every simulation, and inside one: the game's ``outcome`` gets a
``stop`` callable (the budget asked with the simulations complete so far) that its playout
calls every few moves (``interrupt.STOP_EVERY_MOVES``), raising ``Interrupted`` when it
fires; the unfinished sweep is then dropped, as when the budget stops the search between
simulations. So a deadline binds within a few moves of a playout, not after a whole one.

The search sees the real state only through ``sample``; everything else runs on sampled
worlds. With an ``Iterations`` budget the choice depends only on the rng and the sampled
worlds, so it is reproducible (it never fires inside a simulation).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from game.search.budget import Budget
from game.search.interrupt import Interrupted, Stop

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

    def outcome(self, world: S, action: A, rng: random.Random, stop: Stop) -> float:
        """Play ``action`` in ``world`` (which it may spoil), roll out; the deciding seat's
        value of the result, higher is better. The rollout asks ``stop`` every few moves and
        raises ``Interrupted`` when it says so."""
        ...

    def copy(self, world: S) -> S: ...

    def default(self, world: S) -> A:
        """The move when the budget stops the search before one sweep is complete: the
        rollout policy's own move in ``world`` (a sampled world, so it reads nothing hidden)."""
        ...


@dataclass(frozen=True)
class Estimate(Generic[A]):
    """One candidate's record in a search: its mean outcome over the complete sweeps it took
    part in (``sweeps`` of them, the first ones: a candidate that dropped out stopped
    early)."""

    action: A
    mean: float
    sweeps: int


@dataclass(frozen=True)
class Decision(Generic[A]):
    """What a search decided and what it saw: ``action`` is the move (what ``choose``
    returns); ``estimates`` has every candidate compared, in the candidates' order;
    ``simulations`` counts the playouts run, ``sweeps`` the complete sweeps (worlds on which
    every candidate still in the race was played). ``searched`` is False when the move was
    not the search's own: a single legal move, or the game's default because the budget
    stopped the search too early. ``outcomes`` keeps every candidate's outcome per sweep, for
    paired comparisons (:meth:`paired`)."""

    action: A
    estimates: tuple[Estimate[A], ...]
    simulations: int
    sweeps: int
    searched: bool
    outcomes: tuple[tuple[float, ...], ...]

    def index(self, action: A) -> int | None:
        for i, estimate in enumerate(self.estimates):
            if estimate.action == action:
                return i
        return None

    def paired(self, better: A, other: A) -> tuple[float, int] | None:
        """The mean of ``better``'s outcome minus ``other``'s over the sweeps both took part
        in (common worlds, so most of the deal's luck cancels), and that number of sweeps;
        None when either was not compared or they share no sweep."""
        i, j = self.index(better), self.index(other)
        if i is None or j is None:
            return None
        n = min(len(self.outcomes[i]), len(self.outcomes[j]))
        if n == 0:
            return None
        return sum(self.outcomes[i][k] - self.outcomes[j][k] for k in range(n)) / n, n


def choose(
    game: Determinized[S, A], rng: random.Random, budget: Budget, min_sweeps: int = 1,
    first_cut: int = 2, guard: float | None = None,
) -> A:
    """The candidate with the best mean outcome over the sweeps the budget allows; the
    game's ``default`` move when the budget stops it before ``min_sweeps`` sweeps are
    complete (a comparison on a world or two is mostly luck). The first halving comes after
    ``first_cut`` sweeps (a noisy outcome needs more worlds before a candidate drops out).

    With ``guard`` (a number of standard errors) the default move is the benchmark: it stays
    in the race throughout, and another candidate is chosen only when its mean paired
    difference to the default over their common worlds exceeds ``guard`` standard errors of
    that difference (the search deviates from the rollout policy only where it is sure)."""
    return search(game, rng, budget, min_sweeps, first_cut, guard).action


def search(
    game: Determinized[S, A], rng: random.Random, budget: Budget, min_sweeps: int = 1,
    first_cut: int = 2, guard: float | None = None,
) -> Decision[A]:
    """:func:`choose`'s search, with what it saw: the same move from the same arguments (a
    hint or a review built on it suggests exactly what the machine seat would play)."""
    first = game.sample(rng)
    options = list(game.candidates(first))
    if len(options) == 1:
        return Decision(options[0], (Estimate(options[0], 0.0, 0),), 0, 0, False, ((),))
    anchor: int | None = None
    if guard is not None:
        fallback = game.default(first)
        if fallback in options:
            anchor = options.index(fallback)
        else:
            options.append(fallback)
            anchor = len(options) - 1
    alive = list(range(len(options)))
    # values[i][k]: candidate i's outcome in sweep k (the sweeps it took part in, from 0).
    values: list[list[float]] = [[] for _ in options]
    simulations = 0
    sweep = 0
    world: S | None = first
    next_cut = first_cut

    def stop() -> bool:
        # Asked inside a simulation: the count is the simulations complete so far (read when
        # called), so an ``Iterations`` budget, not yet exhausted there, never fires.
        return budget.exhausted(simulations)

    def stopped() -> Decision[A]:
        # The unfinished sweep is left out (``sweep`` counts the complete ones).
        if sweep < min_sweeps or sweep == 0:
            # Too few worlds, or some candidates not played even once (their
            # comparison would favour the ones the sweep reached first).
            return _decision(game.default(first), options, values, simulations, sweep, False)
        action = options[_pick(alive, values, sweep, anchor, guard)]
        return _decision(action, options, values, simulations, sweep, True)

    while True:
        if world is None:
            world = game.sample(rng)
        seed = rng.getrandbits(64)
        for index in alive:
            try:
                value = game.outcome(game.copy(world), options[index], random.Random(seed), stop)
            except Interrupted:
                return stopped()
            values[index].append(value)
            simulations += 1
            if budget.exhausted(simulations):
                return stopped()
        world = None
        sweep += 1
        if sweep == next_cut and len(alive) > 2:
            alive = _top_half(alive, values, sweep, anchor)
            next_cut *= 2


def _decision(
    action: A, options: Sequence[A], values: Sequence[Sequence[float]], simulations: int,
    sweeps: int, searched: bool,
) -> Decision[A]:
    # Only complete sweeps count: a sweep cut short played some candidates on a world the
    # others never saw.
    kept = tuple(tuple(v[:sweeps]) for v in values)
    estimates = tuple(
        Estimate(option, sum(outcomes) / len(outcomes) if outcomes else 0.0, len(outcomes))
        for option, outcomes in zip(options, kept, strict=True)
    )
    return Decision(action, estimates, simulations, sweeps, searched, kept)


def _pick(
    alive: Sequence[int], values: Sequence[Sequence[float]], sweeps: int, anchor: int | None,
    guard: float | None,
) -> int:
    """The choice after ``sweeps`` complete sweeps (a sweep cut short is left out: it would
    compare the candidates on different worlds)."""
    best = _best(alive, values, sweeps)
    if anchor is None or guard is None or best == anchor:
        return best
    return best if _paired_z(values[best], values[anchor], sweeps) > guard else anchor


def _paired_z(mine: Sequence[float], base: Sequence[float], sweeps: int) -> float:
    """Mean paired difference over standard error, over the first ``sweeps`` worlds."""
    n = sweeps
    if n < 2:
        return 0.0
    diffs = [mine[k] - base[k] for k in range(n)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if variance == 0.0:
        return float("inf") if mean > 0 else 0.0
    return mean / (variance / n) ** 0.5


def _mean(index: int, values: Sequence[Sequence[float]], sweeps: int) -> float:
    return sum(values[index][:sweeps]) / sweeps


def _best(alive: Sequence[int], values: Sequence[Sequence[float]], sweeps: int) -> int:
    # Ties go to the earlier candidate (the engine's legal order), so the choice is stable.
    # Dropped candidates are not alive; every alive one took part in the first ``sweeps``.
    return max(alive, key=lambda i: (_mean(i, values, sweeps), -i))


def _top_half(
    alive: list[int], values: Sequence[Sequence[float]], sweeps: int, anchor: int | None
) -> list[int]:
    """The better half (at least two) by mean; the anchor (the benchmark) always stays."""
    ranked = sorted(alive, key=lambda i: (-_mean(i, values, sweeps), i))
    kept = ranked[: max(2, (len(ranked) + 1) // 2)]
    if anchor is not None and anchor not in kept:
        kept.append(anchor)
    return sorted(kept)
