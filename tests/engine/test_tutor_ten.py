"""TEN's lessons for /learn: each rule detected from the state and the move (one test per
rule, named after it), the tutor over the fixed deal, and suggestions that never peek."""

from __future__ import annotations

import random

import pytest

from game.base import Event
from game.registry.learn_deals import LEARNER, play_through
from game.ten import rules
from game.ten.lessons import REQUIRED, Lesson, decision_lesson, event_lessons, suggestion
from game.ten.state import Bid, Buy, Draw, Pass, Pay, Skip, Stop
from game.ten.vocabulary import EventKind, Phase, Reward
from game.tutor import LEARN_DEALS
from tests.engine.ten_helpers import ENGINE, act, build
from tests.engine.test_expert_ten import _mid_game_states


def test_lesson_flip_while_the_bust_chance_is_low() -> None:
    state = build(2, flips=["R2", "B3"])
    move = suggestion(state, 0)
    assert move == Draw()
    assert decision_lesson(state, 0, move) == Lesson.FLIP


def test_lesson_stop_and_take_numbers_or_currency() -> None:
    state = build(2, tableau=["R6", "B3"])
    move = suggestion(state, 0)
    assert isinstance(move, Stop)
    assert decision_lesson(state, 0, Stop(take=Reward.NUMBERS)) == Lesson.STOP
    assert decision_lesson(state, 0, Stop(take=Reward.CURRENCY)) == Lesson.STOP


def test_lesson_bust_from_a_bust_event_of_anyone() -> None:
    state = build(2, tableau=["R6", "B4"], flips=["G5"])
    events = act(state, "A", Draw())
    assert [event.kind for event in events][:2] == [EventKind.FLIP, EventKind.BUST]
    assert event_lessons(events, "A", state) == [Lesson.BUST]
    assert event_lessons(events, "B", state) == [Lesson.BUST]


def test_lesson_auction_for_a_flipped_wild() -> None:
    state = build(2, flips=["W#"])
    act(state, "A", Draw())
    assert state.phase == Phase.AUCTION
    bidder = rules.waiting_seat(state)
    assert bidder is not None
    assert decision_lesson(state, bidder, suggestion(state, bidder)) == Lesson.AUCTION
    assert decision_lesson(state, bidder, Pass()) == Lesson.AUCTION
    assert decision_lesson(state, bidder, Bid(amount=1)) == Lesson.AUCTION


def test_lesson_buy_from_the_market_and_its_payment() -> None:
    state = build(2, tableau=["R1", "R2"], market=["R3"])
    act(state, "A", Stop(take=Reward.NUMBERS))
    assert state.phase == Phase.BUY
    move = suggestion(state, 0)
    assert move == Buy(card="R3")
    assert decision_lesson(state, 0, move) == Lesson.BUY
    assert decision_lesson(state, 0, Skip()) == Lesson.BUY
    act(state, "A", move)
    assert state.phase == Phase.PAY
    pay = suggestion(state, 0)
    assert isinstance(pay, Pay)
    assert decision_lesson(state, 0, pay) == Lesson.PAYMENT


def test_lesson_end_the_extra_buy_phases_after_the_last_card() -> None:
    state = build(2, tableau=["R1"], market=["B3"], flips=["G2"], rest_in_pile=False)
    events = act(state, "A", Draw())
    events += act(state, "A", Stop(take=Reward.CURRENCY))
    assert state.final_buys and state.phase == Phase.BUY
    buyer = state.buyer
    assert buyer is not None
    assert decision_lesson(state, buyer, Skip()) == Lesson.END
    assert Lesson.END in event_lessons(events, state.players[1 - buyer], state)


def test_lesson_runs_and_wilds_scored_at_the_end() -> None:
    state = build(2, collections=[["R1", "R2", "W#"], ["B1"]])
    over = [Event(EventKind.OVER)]
    assert event_lessons(over, "A", state) == [Lesson.END, Lesson.RUNS, Lesson.WILDS]
    assert event_lessons(over, "B", state) == [Lesson.END, Lesson.RUNS]


def test_following_the_suggestions_on_the_fixed_deal_meets_every_rule() -> None:
    tutor, complete_at = play_through("ten", LEARN_DEALS["ten"])
    assert tutor.missing() == []
    assert set(REQUIRED) <= set(tutor.met)
    assert complete_at > 0


def test_ignoring_the_suggestions_still_ends_cleanly() -> None:
    tutor, _ = play_through("ten", LEARN_DEALS["ten"], lambda tutor, legal: legal[-1])
    assert tutor.engine.is_over(tutor.state)
    comment = tutor.comment()
    assert comment is not None and comment.now is None and comment.suggestion is None
    assert LEARNER in tutor.state.players


@pytest.mark.parametrize("players", [2, 4])
def test_the_suggestion_does_not_peek(players: int) -> None:
    decisions = 0
    for index, state in enumerate(_mid_game_states(3, players, every=7)):
        seat = rules.waiting_seat(state)
        assert seat is not None
        if len(rules.legal(state, seat)) < 2:
            continue
        decisions += 1
        move = suggestion(state, seat)
        for k in range(3):
            redealt = ENGINE.copy_state(state)
            random.Random(1000 * index + k).shuffle(redealt.pile)
            redealt.seed = 1000 * index + k
            assert suggestion(redealt, seat) == move
    assert decisions > 8
