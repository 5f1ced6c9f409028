"""A budget binds inside a playout: the search hands the playout a ``stop`` that asks the
budget, the playout raises ``Interrupted`` when it fires, and the search chooses from the
sweeps complete by then (the game's default move when there are none). No clock: the budgets
here fire after being asked a given number of times."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from game.search import Interrupted, Iterations, Stop, choose
from game.split import rules as split_rules
from game.split.expert import expert_action as split_expert
from game.split.greedy import greedy_action as split_greedy
from game.split.rollout import play_out_round, to_move
from game.split.state import SplitState, copy_state
from game.split.vocabulary import Step
from game.ten import TenEngine
from game.ten import rules as ten_rules
from game.ten.expert import TenSearch
from game.ten.expert import expert_action as ten_expert
from game.ten.rollout import greedy_move, play_out, play_out_turns
from game.ten.state import TenState


class StopsAfterAsks:
    """A budget that says stop from its ``times + 1``-th question on; it records the
    simulation counts it was asked with."""

    def __init__(self, times: int) -> None:
        self.times = times
        self.asked: list[int] = []

    def exhausted(self, simulations: int) -> bool:
        self.asked.append(simulations)
        return len(self.asked) > self.times


PLAYOUT_MOVES = 5  # the toy's playout asks ``stop`` before each of its moves


class Toy:
    """Candidates "a" and "b", default "d" (not a candidate). Sweep k's world is k: "b"
    scores 1 in worlds 0 and 1, "a" scores 10 from world 2 on; each outcome is a playout of
    ``PLAYOUT_MOVES`` moves that asks ``stop`` before every move."""

    def __init__(self) -> None:
        self.worlds = 0
        self.started: list[tuple[int, str]] = []
        self.finished: list[tuple[int, str]] = []

    def sample(self, rng: random.Random) -> int:
        self.worlds += 1
        return self.worlds - 1

    def candidates(self, world: int) -> Sequence[str]:
        return ["a", "b"]

    def outcome(self, world: int, action: str, rng: random.Random, stop: Stop) -> float:
        self.started.append((world, action))
        for _ in range(PLAYOUT_MOVES):
            if stop():
                raise Interrupted
        self.finished.append((world, action))
        if action == "b":
            return 1.0 if world < 2 else 0.0
        return 10.0 if world >= 2 else 0.0

    def copy(self, world: int) -> int:
        return world

    def default(self, world: int) -> str:
        return "d"


# Questions per simulation: one before each playout move, one after the simulation.
ASKS_PER_SIMULATION = PLAYOUT_MOVES + 1


def test_a_budget_firing_inside_the_first_playout_abandons_it_and_plays_the_default() -> None:
    toy = Toy()
    budget = StopsAfterAsks(2)
    assert choose(toy, random.Random(0), budget) == "d"
    assert toy.started == [(0, "a")]
    assert toy.finished == []  # the playout was abandoned at its third move
    assert budget.asked == [0, 0, 0]  # all inside the first simulation


def test_a_budget_firing_inside_a_playout_chooses_over_the_complete_sweeps_only() -> None:
    # Sweeps 0 and 1 complete, then "a" in world 2 (10 points: counted, it would win), then
    # the budget fires at the second move of "b"'s playout in world 2.
    asks = 2 * 2 * ASKS_PER_SIMULATION + ASKS_PER_SIMULATION + 1
    toy = Toy()
    budget = StopsAfterAsks(asks)
    assert choose(toy, random.Random(0), budget) == "b"
    assert toy.started[-1] == (2, "b")
    assert toy.finished[-1] == (2, "a")
    assert len(toy.finished) == 5 and len(toy.started) == 6
    assert budget.asked[-1] == 5  # fired with five simulations complete, inside the sixth


def test_too_few_complete_sweeps_when_a_playout_is_cut_play_the_default() -> None:
    asks = 2 * 2 * ASKS_PER_SIMULATION + ASKS_PER_SIMULATION + 1
    toy = Toy()
    assert choose(toy, random.Random(0), StopsAfterAsks(asks), min_sweeps=3) == "d"
    assert toy.started[-1] == (2, "b") and toy.finished[-1] == (2, "a")


def test_a_budget_that_never_fires_inside_a_simulation_changes_nothing() -> None:
    # An Iterations budget is asked inside the playouts too, and never says stop there.
    # Seven simulations: sweeps 0-2 complete ("a" 10/3 against 2/3), "a" in world 3.
    toy = Toy()
    assert choose(toy, random.Random(0), Iterations(7)) == "a"
    assert toy.finished == toy.started and len(toy.finished) == 7


def _split_state_to_decide() -> tuple[SplitState, int]:
    """A 2-player SPLIT state early in the first round where the seat to move has a choice."""
    state, _ = split_rules.new_game(["p0", "p1"], 3)
    while len(split_rules.legal_actions(state, to_move(state))) < 2:
        seat = to_move(state)
        split_rules.apply(state, seat, split_greedy(state, seat))
    return state, to_move(state)


def _ten_state_to_decide(players: int) -> tuple[TenState, int]:
    """A TEN state early in the game where the seat to move has a choice."""
    state, _ = ten_rules.new_game([f"p{i}" for i in range(players)], 3)
    while True:
        seat = ten_rules.waiting_seat(state)
        assert seat is not None
        if len(TenSearch(state, seat).candidates(state)) >= 2:
            return state, seat
        ten_rules.apply_action(state, seat, greedy_move(state, seat))


def _asks_then_stops(times: int) -> tuple[Stop, list[int]]:
    """A ``stop`` that says no ``times`` times, then yes; and the list of its answers."""
    answers: list[int] = []

    def stop() -> bool:
        answers.append(len(answers) < times)
        return not answers[-1]

    return stop, answers


def test_split_round_playout_raises_before_its_first_move_when_stop_fires_at_once() -> None:
    state, _ = _split_state_to_decide()
    before = state.model_dump(mode="json")
    with pytest.raises(Interrupted):
        play_out_round(state, lambda: True)
    assert state.model_dump(mode="json") == before


def test_split_round_playout_asks_every_few_moves_and_stops_before_the_round_ends() -> None:
    state, _ = _split_state_to_decide()
    start = state.round
    stop, answers = _asks_then_stops(1)
    with pytest.raises(Interrupted):
        play_out_round(state, stop)
    assert len(answers) == 2  # before move 0 and before move STOP_EVERY_MOVES
    assert state.round == start and state.step != Step.GAME_OVER


def test_split_round_playout_with_a_stop_that_never_fires_ends_as_without_one() -> None:
    state, _ = _split_state_to_decide()
    start = state.round
    other = copy_state(state)
    play_out_round(state)
    play_out_round(other, lambda: False)
    assert state.model_dump(mode="json") == other.model_dump(mode="json")
    assert state.round != start or state.step == Step.GAME_OVER


@pytest.mark.parametrize("players", [2, 4])
def test_ten_playouts_raise_before_their_first_move_when_stop_fires_at_once(
    players: int,
) -> None:
    state, _ = _ten_state_to_decide(players)
    before = state.model_dump(mode="json")
    with pytest.raises(Interrupted):
        play_out(state, lambda: True)
    with pytest.raises(Interrupted):
        play_out_turns(state, 4, lambda: True)
    assert state.model_dump(mode="json") == before


@pytest.mark.parametrize("players", [2, 4])
def test_ten_playout_asks_every_few_moves_and_stops_before_the_game_ends(players: int) -> None:
    state, _ = _ten_state_to_decide(players)
    stop, answers = _asks_then_stops(2)
    with pytest.raises(Interrupted):
        play_out(state, stop)
    assert len(answers) == 3  # before moves 0, STOP_EVERY_MOVES and 2 * STOP_EVERY_MOVES
    assert ten_rules.waiting_seat(state) is not None


@pytest.mark.parametrize("players", [2, 4])
def test_ten_playout_with_a_stop_that_never_fires_ends_as_without_one(players: int) -> None:
    state, _ = _ten_state_to_decide(players)
    other = TenEngine().copy_state(state)
    play_out(state)
    play_out(other, lambda: False)
    assert state.model_dump(mode="json") == other.model_dump(mode="json")
    assert ten_rules.waiting_seat(state) is None


def test_split_expert_cut_inside_its_first_playout_plays_the_rollout_move() -> None:
    state, seat = _split_state_to_decide()
    budget = StopsAfterAsks(1)  # no at move 0 of the first playout, yes at move 16
    assert split_expert(state, seat, random.Random(0), budget) == split_greedy(state, seat)
    assert budget.asked == [0, 0]


@pytest.mark.parametrize("players", [2, 4])
def test_ten_expert_cut_inside_its_first_playout_plays_the_rollout_move(players: int) -> None:
    state, seat = _ten_state_to_decide(players)
    budget = StopsAfterAsks(3)
    assert ten_expert(state, seat, random.Random(0), budget) == greedy_move(state, seat)
    assert budget.asked == [0, 0, 0, 0]  # all inside the first playout
