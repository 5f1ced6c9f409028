"""SPLIT's lessons for /learn: each rule detected from the state and the move (one test per
rule, named after it), the tutor over the fixed deal, and suggestions that never peek."""

from __future__ import annotations

import random

import pytest

from game.base import Event
from game.registry.learn_deals import LEARNER, play_through
from game.split import rules
from game.split.actions import (
    BonusDraw,
    Discard,
    Done,
    Draw,
    LayMatch,
    MakeMatch,
    Pick,
    Skip,
    Swap,
    Target,
    Upgrade,
)
from game.split.lessons import REQUIRED, Lesson, decision_lesson, event_lessons, suggestion
from game.split.vocabulary import EventKind, RoundEnd
from game.tutor import LEARN_DEALS
from tests.engine.split_helpers import make_state
from tests.engine.test_expert_split import _mid_game_states, _redeal, to_move


def _round_end(player: str, hand_marks: int, bonus_marks: int, out: str | None) -> Event:
    line = {"player": player, "hand_marks": hand_marks, "bonus_marks": bonus_marks}
    return Event(
        kind=EventKind.ROUND_END,
        data={"ended_by": RoundEnd.OUT if out else RoundEnd.PILE, "out": out, "players": [line]},
    )


def test_lesson_pick_from_the_discard_row_is_suggested_when_the_row_card_matches() -> None:
    state = make_state(["9♣ 4♦ 4♣ J♥ Q♠", "2♠ 3♠"], row="3♣ K♦ 9♠ 2♥", step="take")
    move = suggestion(state, 0)
    assert move == Pick(card="9♠", pos=2)
    assert decision_lesson(state, 0, move) == Lesson.PICK
    assert decision_lesson(state, 0, Draw()) == Lesson.DRAW


@pytest.mark.parametrize(
    ("a", "b", "lesson"),
    [
        ("7♥", "7♠", Lesson.MATCH_WEAK),
        ("7♥", "7♦", Lesson.MATCH_STRONG),
        ("7♥", "7♥", Lesson.MATCH_PERFECT),
    ],
)
def test_lesson_match_of_each_level(a: str, b: str, lesson: Lesson) -> None:
    state = make_state([f"{a} {b} 2♣", "2♠ 3♠"])
    assert decision_lesson(state, 0, MakeMatch(a=a, b=b)) == lesson
    move = suggestion(state, 0)
    assert isinstance(move, MakeMatch) and {move.a, move.b} == {a, b}


def test_lesson_upgrade_covers_a_half_and_takes_the_match() -> None:
    state = make_state(["7♦ 2♣", "2♠ 3♠"], matches=[(1, "7♥ 7♠", "")])
    move = suggestion(state, 0)
    assert move == Upgrade(match=0, card="7♦", replace="7♠")
    assert decision_lesson(state, 0, move) == Lesson.UPGRADE


def test_lesson_perfect_bonus_chooses_who_marks_a_negative_box() -> None:
    state = make_state(["2♣ 5♦", "2♠ 3♠", "4♠"], matches=[(0, "7♥ 7♥", "")],
                       step="bonus_perfect")
    move = suggestion(state, 0)
    assert isinstance(move, Target)
    assert decision_lesson(state, 0, move) == Lesson.PERFECT_BONUS


def test_lesson_strong_bonus_draw_or_skip() -> None:
    state = make_state(["2♣ 5♦", "2♠ 3♠"], matches=[(0, "7♥ 7♦", "")], step="bonus_strong")
    assert decision_lesson(state, 0, BonusDraw()) == Lesson.STRONG_BONUS
    assert decision_lesson(state, 0, Skip()) == Lesson.STRONG_BONUS


def test_lesson_swap_is_the_weak_bonus() -> None:
    state = make_state(["2♣ 5♦", "2♠ 3♠"], matches=[(0, "7♥ 7♠", ""), (1, "K♥ K♠", "")],
                       step="bonus_weak")
    assert decision_lesson(state, 0, Swap(mine=0, theirs=1)) == Lesson.SWAP
    assert decision_lesson(state, 0, Skip()) == Lesson.SWAP


def test_lesson_go_out_is_the_discard_of_the_last_card() -> None:
    state = make_state(["2♣", "2♠ 3♠"])
    assert decision_lesson(state, 0, Discard(card="2♣")) == Lesson.GO_OUT
    state = make_state(["2♣ 5♦", "2♠ 3♠"])
    assert decision_lesson(state, 0, Discard(card="2♣")) == Lesson.DISCARD


def test_lesson_laydown_after_a_first_turn_go_out() -> None:
    state = make_state(["2♣", "5♠ 5♣"], step="laydown")
    assert decision_lesson(state, 1, LayMatch(a="5♠", b="5♣")) == Lesson.LAYDOWN
    assert decision_lesson(state, 1, Done()) == Lesson.LAYDOWN


def test_lesson_round_scoring_and_negative_boxes_from_the_round_end() -> None:
    state = make_state(["2♣", "2♠ 3♠"])
    found = event_lessons([_round_end("ana", 2, 0, "ben")], "ana", state)
    assert found == [Lesson.GO_OUT, Lesson.ROUND_SCORING, Lesson.NEGATIVE_BOXES]
    assert event_lessons([_round_end("ana", 0, 0, "ana")], "ana", state) == [
        Lesson.ROUND_SCORING
    ]


def test_lesson_negative_boxes_from_a_perfect_mark_on_the_learner() -> None:
    state = make_state(["2♣", "2♠ 3♠"])
    mark = Event(kind=EventKind.MARK, actor="ben", data={"target": "ana"})
    assert event_lessons([mark], "ana", state) == [Lesson.NEGATIVE_BOXES]
    other = Event(kind=EventKind.MARK, actor="ana", data={"target": "ben"})
    assert event_lessons([other], "ana", state) == []


def test_following_the_suggestions_on_the_fixed_deal_meets_every_rule() -> None:
    tutor, complete_at = play_through("split", LEARN_DEALS["split"])
    assert tutor.missing() == []
    assert set(REQUIRED) <= set(tutor.met)
    assert 0 < complete_at <= 20


def test_ignoring_the_suggestions_still_ends_cleanly() -> None:
    tutor, _ = play_through("split", LEARN_DEALS["split"], lambda tutor, legal: legal[-1])
    assert tutor.engine.is_over(tutor.state)
    comment = tutor.comment()
    assert comment is not None and comment.now is None and comment.suggestion is None
    assert LEARNER in tutor.state.players


@pytest.mark.parametrize("players", [2, 3])
def test_the_suggestion_does_not_peek(players: int) -> None:
    decisions = 0
    for index, state in enumerate(_mid_game_states(4, players, every=5)):
        seat = to_move(state)
        if len(rules.legal_actions(state, seat)) < 2:
            continue
        decisions += 1
        move = suggestion(state, seat)
        for k in range(3):
            redealt = _redeal(state, seat, random.Random(1000 * index + k))
            assert redealt.hands != state.hands or redealt.pile != state.pile
            assert suggestion(redealt, seat) == move
    assert decisions > 20
