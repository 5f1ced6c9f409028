"""Hints: the expert seat's search for a human seat's move, told to that player.

A hint runs the very search an expert seat runs for that seat at that moment
(``engine.expert_decision``, with the generator the seat's machine move would get:
:func:`bot.automation.decision_pool.move_rng`, under the same deadline), so with an iteration
budget the hint is the move the expert seat would play. The search reads only what the seat
may see: hidden cards are sampled afresh in every simulated world.

What crosses back from the worker process is a :class:`Hint`: the move, the next-best move
compared and the estimated gap between them, and how many simulations it rests on; never
the sampled worlds. Its numbers are in the game's outcome unit (the expert modules of
``game/`` say which: points, or a share of the win); the game's UI words them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from game.base import PlayerId
from game.registry import engines
from game.search import Budget, Decision


@dataclass(frozen=True)
class Hint:
    """The expert's suggestion for one seat at one version of a game.

    ``action``: the engine's action, what the expert seat would play. ``runner_up``: the
    candidate that stayed longest in the search's race after it (None when no other move
    was compared); ``gap``: ``action``'s mean outcome minus the runner-up's over the
    ``worlds`` sampled worlds both were played in (None without a runner-up).
    ``simulations``: the playouts the search ran. ``searched``: False when the move is not
    the search's own (the only legal move, or the deadline cut the search before it had
    compared enough worlds, and the expert plays its quick rule of thumb)."""

    action: Any
    runner_up: Any | None
    gap: float | None
    worlds: int
    simulations: int
    searched: bool

    @property
    def only_move(self) -> bool:
        return not self.searched and self.simulations == 0 and self.runner_up is None


def summary(decision: Decision[Any]) -> Hint:
    """The :class:`Hint` of a search (small and picklable: no sampled world, no outcome
    list)."""
    others = [estimate for estimate in decision.estimates if estimate.action != decision.action]
    if not others:
        return Hint(decision.action, None, None, 0, decision.simulations, decision.searched)
    # The next-best move: the one that stayed longest in the race, the best mean among those.
    runner_up = max(others, key=lambda estimate: (estimate.sweeps, estimate.mean)).action
    paired = decision.paired(decision.action, runner_up)
    gap, worlds = paired if paired is not None else (None, 0)
    return Hint(decision.action, runner_up, gap, worlds, decision.simulations,
                decision.searched)


def advise(game: str, state: Any, player: PlayerId, rng: random.Random,
           limit: Budget | None) -> Hint:
    """The expert's hint for ``player``: its decision in ``state``, summarised."""
    return summary(engines()[game].expert_decision(state, player, rng, limit))
