"""Spec sections 4 (end of the game), 5 (scoring) and 8 example 5."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.base import IllegalAction
from game.ten import Phase, data, score_notes
from game.ten.scoring import run_points
from game.ten.state import Bid, Buy, Draw, Pass, Pay, Skip, Stop, TenState
from tests.engine.ten_helpers import ENGINE, act, build, kinds


def test_s4_last_card_forces_stop_then_final_buys_in_order() -> None:
    state = build(3, flips=["R1", "B2"], rest_in_pile=False, active=1)
    act(state, "B", Draw())
    act(state, "B", Draw())
    assert not state.pile and ENGINE.legal_actions(state, "B") == [
        Stop(take="numbers"),
        Stop(take="currency"),
    ]
    act(state, "B", Stop(take="currency"))
    order = []
    while not ENGINE.is_over(state):
        assert ENGINE.view(state, None).phase == "final buys"
        buyer = ENGINE.awaiting(state)[0]
        order.append(buyer)
        events = act(state, buyer, Skip())
    assert order == ["C", "A", "B"] and events[-1].kind == "over"
    assert ENGINE.awaiting(state) == [] and ENGINE.legal_actions(state, "A") == []
    with pytest.raises(IllegalAction, match="The game is over"):
        ENGINE.apply(state, "A", Skip())


def test_s4_final_player_taking_numbers_has_normal_then_extra_buy() -> None:
    state = build(2, flips=["R1"], market=["G1", "G2"], rest_in_pile=False, active=0)
    act(state, "A", Draw())
    act(state, "A", Stop(take="numbers"))
    assert ENGINE.view(state, None).phase == "buy"  # the normal buy phase first
    act(state, "A", Buy(card="G1"))
    act(state, "A", Pay(c=1))
    assert ENGINE.awaiting(state) == ["B"] and ENGINE.view(state, None).phase == "final buys"
    act(state, "B", Skip())
    assert ENGINE.awaiting(state) == ["A"]
    act(state, "A", Buy(card="G2"))
    act(state, "A", Pay(c=2))
    assert ENGINE.is_over(state) and state.currency[0] == 2


def test_s4_bust_on_last_card_ends_with_final_buys() -> None:
    state = build(2, flips=["R9", "B9"], rest_in_pile=False)
    act(state, "A", Draw())
    events = act(state, "A", Draw())
    assert kinds(events) == ["flip", "bust", "final_buy"]
    assert ENGINE.awaiting(state) == ["B"]


def test_s4_wild_flipped_last_is_auctioned_first() -> None:
    state = build(2, flips=["R3", "W#"], rest_in_pile=False)
    act(state, "A", Draw())
    act(state, "A", Draw())
    assert state.phase == "auction"
    act(state, "B", Bid(amount=1))
    act(state, "A", Pass())
    assert ENGINE.legal_actions(state, "A") == [Stop(take="numbers"), Stop(take="currency")]
    act(state, "A", Stop(take="numbers"))
    act(state, "A", Skip())
    act(state, "B", Skip())
    act(state, "A", Skip())
    assert ENGINE.is_over(state)


def test_s8_example5_blue_run_scores_three() -> None:
    assert score_notes(["B1", "B2", "B3", "B5", "B7"]).total == 3


def test_s8_example5_red_wilds_assignment() -> None:
    score = score_notes(["R3", "R4", "R6", "R#", "W7"])
    assert score.total == 5
    assert set(score.assignment) == {("R#", "R5"), ("W7", "R7")}
    red = score.runs[0]
    assert (red.start, red.end, red.cards) == (3, 7, ("R3", "R4", "R#", "R6", "W7"))


def test_s8_example5_green_full_wild_complete_run_scores_ten() -> None:
    score = score_notes(["G1", "G2", "G3", "G4", "G5", "G6", "G8", "G9", "W#"])
    assert score.total == 10 and score.assignment == (("W#", "G7"),)


def test_s5_only_longest_run_per_colour_counts_and_duplicates_ignored() -> None:
    assert score_notes(["O1", "O2", "O4", "O5", "O6", "O6", "G9"]).total == 4


def test_s5_each_wild_used_once() -> None:
    score = score_notes(["R1", "R3", "B1", "B3", "W2"])
    assert score.total == 4 and len(score.assignment) == 1


def _longest(numbers: set[int]) -> int:
    best = run = 0
    for n in data.NUMBERS:
        run = run + 1 if n in numbers else 0
        best = max(best, run)
    return run_points(best)


def _brute_force(notes: list[str]) -> int:
    fixed = {c: {int(n[1]) for n in notes if n[0] == c and n[1] != "#"} for c in data.COLOURS}
    choices = []
    for note in notes:
        if note[0] in data.COLOURS and note[1] == "#":
            choices.append([None, *((note[0], n) for n in data.NUMBERS)])
        elif note[0] == "W" and note[1] != "#":
            choices.append([None, *((c, int(note[1])) for c in data.COLOURS)])
        elif note == "W#":
            choices.append([None, *itertools.product(data.COLOURS, data.NUMBERS)])
    best = 0
    for combo in itertools.product(*choices):
        sets = {c: set(fixed[c]) for c in data.COLOURS}
        for pick in combo:
            if pick is not None:
                sets[pick[0]].add(pick[1])
        best = max(best, sum(_longest(s) for s in sets.values()))
    return best


NUMBER_NOTES = [f"{c}{n}" for c in data.COLOURS for n in data.NUMBERS]
WILD_NOTES = [f"{c}#" for c in data.COLOURS] + [f"W{n}" for n in data.NUMBERS] + ["W#"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(NUMBER_NOTES), max_size=14),
    st.lists(st.sampled_from(WILD_NOTES), max_size=3, unique=True),
)
def test_s5_wild_assignment_optimal_against_brute_force(
    numbers: list[str], wilds: list[str]
) -> None:
    notes = numbers + wilds
    score = score_notes(notes)
    assert score.total == _brute_force(notes)
    # the shown assignment really yields the total
    sets = {c: {int(n[1]) for n in numbers if n[0] == c} for c in data.COLOURS}
    for wild, as_card in score.assignment:
        assert wild in notes
        sets[as_card[0]].add(int(as_card[1]))
    assert sum(_longest(s) for s in sets.values()) == score.total


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.sampled_from(NUMBER_NOTES), max_size=10),
    st.lists(st.sampled_from(WILD_NOTES[:-1]), max_size=1),
)
def test_s5_two_full_wilds_optimal_against_brute_force(
    numbers: list[str], wilds: list[str]
) -> None:
    """The real deck has one full wild; the programme still scores any collection."""
    notes = [*numbers, *wilds, "W#", "W#"]
    score = score_notes(notes)
    assert score.total == _brute_force(notes)
    sets = {c: {int(n[1]) for n in numbers if n[0] == c} for c in data.COLOURS}
    for _, as_card in score.assignment:
        sets[as_card[0]].add(int(as_card[1]))
    assert sum(_longest(s) for s in sets.values()) == score.total

def test_s5_complete_run_bonus() -> None:
    assert score_notes([f"B{n}" for n in range(1, 10)]).total == 10
    assert run_points(8) == 8


def _finished(collections: list[list[str]], currency: list[int]) -> TenState:
    state = build(len(collections), collections=collections, currency=currency, rest_in_pile=False)
    state.phase = Phase.OVER
    return state


def test_s5_tie_break_currency_then_fewest_cards_then_shared() -> None:
    state = _finished(
        [["R1", "R2"], ["B1", "B2"], ["G1", "G2", "G2"], ["O1", "O2"], ["W1"]],
        [4, 6, 4, 4, 9],
    )
    results = {r.player: r for r in ENGINE.results(state)}
    assert results["B"].placement == 1 and results["B"].breakdown["decided_by"] == "currency tokens"
    assert results["A"].placement == 2 and results["D"].placement == 2
    assert results["A"].breakdown["decided_by"] == "shared"
    assert results["C"].placement == 4 and results["C"].breakdown["decided_by"] == "fewest cards"
    assert results["E"].placement == 5 and results["E"].breakdown["decided_by"] == "score"
    assert results["B"].breakdown["runs"]["B"]["points"] == 2


@pytest.mark.parametrize("seed", range(3))
def test_s5_results_sorted_by_placement(seed: int) -> None:
    rng = random.Random(seed)
    state, _ = ENGINE.new_game(["a", "b", "c"], seed=seed)
    while not ENGINE.is_over(state):
        player = ENGINE.awaiting(state)[0]
        ENGINE.apply(state, player, ENGINE.bot_action(state, player, "normal", rng))
    results = ENGINE.results(state)
    assert [r.placement for r in results] == sorted(r.placement for r in results)
    assert results[0].placement == 1
