"""The search's record of a decision (``game.search.search``): its move is the expert seat's
move, and its estimates are what hints and reviews read."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.base import PlayerId
from game.registry import engines
from game.search import Iterations, choose, search
from game.split.expert import SplitSearch


def _positions(game: str, players: int, seed: int, every: int) -> list[tuple[Any, PlayerId]]:
    """States of a greedy game where a seat must decide, every ``every`` decisions."""
    engine = engines()[game]
    ids = [PlayerId(f"p{i}") for i in range(players)]
    state, _ = engine.new_game(ids, seed)
    found: list[tuple[Any, PlayerId]] = []
    moves = 0
    while (waiting := engine.awaiting(state)) and len(found) < 6:
        player = waiting[0]
        if moves % every == every - 1 and len(engine.legal_actions(state, player)) > 1:
            found.append((engine.copy_state(state), player))
        engine.apply(state, player, engine.bot_action(state, player, "normal",
                                                      random.Random(moves)))
        moves += 1
    return found


@pytest.mark.parametrize(("game", "players"), [("split", 3), ("ten", 4)])
def test_the_decision_plays_the_expert_seats_move(game: str, players: int) -> None:
    engine = engines()[game]
    for state, player in _positions(game, players, seed=5, every=9):
        budget = Iterations(60)
        played = engine.bot_action(state, player, "expert", random.Random(11), budget)
        decision = engine.expert_decision(state, player, random.Random(11), Iterations(60))
        assert decision.action == played
        assert decision.simulations <= 60
        assert decision.index(played) is not None or not decision.searched


def test_estimates_are_the_complete_sweeps_means() -> None:
    state, player = _positions("split", 3, seed=2, every=5)[0]
    seat = state.players.index(player)
    decision = search(SplitSearch(state, seat), random.Random(3), Iterations(120), first_cut=4)
    assert decision.searched
    assert decision.action == choose(
        SplitSearch(state, seat), random.Random(3), Iterations(120), first_cut=4
    )
    assert sum(len(o) for o in decision.outcomes) <= decision.simulations
    best = decision.estimates[decision.index(decision.action) or 0]
    assert best.sweeps == decision.sweeps  # the chosen move ran the whole race
    for estimate, outcomes in zip(decision.estimates, decision.outcomes, strict=True):
        assert estimate.sweeps == len(outcomes) <= decision.sweeps
        if outcomes:
            assert estimate.mean == pytest.approx(sum(outcomes) / len(outcomes))
    other = next(e.action for e in decision.estimates if e.action != decision.action)
    gap = decision.paired(decision.action, other)
    assert gap is not None and gap[1] >= 1


def test_a_single_legal_move_is_not_a_search() -> None:
    class One:
        def sample(self, rng: random.Random) -> int:
            return 0

        def candidates(self, world: int) -> list[str]:
            return ["only"]

        def outcome(self, world: int, action: str, rng: random.Random, stop: Any) -> float:
            raise AssertionError("nothing to compare")

        def copy(self, world: int) -> int:
            return world

        def default(self, world: int) -> str:
            return "only"

    decision = search(One(), random.Random(0), Iterations(10))
    assert decision.action == "only" and not decision.searched and decision.simulations == 0
