"""The worked examples of SPLIT.md section 9."""

from __future__ import annotations

import pytest

from game.base import IllegalAction
from game.split import SplitEngine
from game.split.actions import (
    BonusDraw,
    Discard,
    Done,
    Draw,
    LayMatch,
    MakeMatch,
    Pick,
    Target,
    Upgrade,
)
from game.split.cards import level, parse_face
from game.split.scoring import sheet_score
from tests.engine.split_helpers import make_state, names

E = SplitEngine()


def test_s9_example1_levels() -> None:
    def lv(a: str, b: str) -> int:
        return level(parse_face(a) * 2, parse_face(b) * 2 + 1)

    assert lv("7♥", "7♥") == 3
    assert lv("7♥", "7♦") == 2
    assert lv("7♥", "7♠") == 1
    assert lv("7♥", "8♥") == 0


def test_s9_example2_pick_from_row() -> None:
    state = make_state(["9C 4D 4C JH QS", "2C"], step="take", row="3C KD 9S 2H")
    for card in ("KD", "2H"):
        with pytest.raises(IllegalAction, match="may not pick"):
            E.apply(E.copy_state(state), "ana", Pick(card=card))
    E.apply(state, "ana", Pick(card="9S"))
    assert names(state.row) == ["3♣", "K♦"]
    assert "9♠" in names(state.hands[0]) and "2♥" in names(state.hands[0])
    with pytest.raises(IllegalAction, match="use the 9♠ you picked"):
        E.apply(E.copy_state(state), "ana", Discard(card="2H"))
    events = E.apply(state, "ana", MakeMatch(a="9C", b="9S"))
    assert events[0].data["level"] == "strong"
    assert state.step == "bonus_strong"
    E.apply(state, "ana", BonusDraw())
    E.apply(state, "ana", Discard(card="2H"))
    assert state.turn == 1


def test_s9_example3_upgrade_takes_the_match() -> None:
    # ana=0, ben=1, cy=2
    state = make_state(["7D 7H 2C", "4C", "5C"], matches=[(1, "7H 7S", "")])
    E.apply(state, "ana", Upgrade(match=0, card="7D", replace="7S"))
    match = state.matches[0]
    assert names(match.halves) == ["7♥", "7♦"] and names(match.covered) == ["7♠"]
    assert match.owner == 0
    assert state.step == "bonus_strong"
    state = make_state(["7D 7H 2C", "4C", "5C"], matches=[(1, "7H 7S", "")])
    E.apply(state, "ana", Upgrade(match=0, card="7H", replace="7S"))
    assert state.step == "bonus_perfect"
    E.apply(state, "ana", Target(player="cy"))
    assert state.negatives == [0, 0, 1]


def test_s9_example4_keep_a_card() -> None:
    state = make_state(["5C", "4C"], step="take", pile="3D 5S")
    E.apply(state, "ana", Draw())
    with pytest.raises(IllegalAction, match="keep a card"):
        E.apply(E.copy_state(state), "ana", MakeMatch(a="5C", b="5S"))
    assert {a.type for a in E.legal_actions(state, "ana")} == {"discard"}


def test_s9_example5_first_turn_out() -> None:
    # cy (seat 2) deals; ana goes first, draws, lays four matches, discards her last card.
    state = make_state(
        ["2C 2S 3C 3S 4C 4S 5C 5S", "8H 8D 9C", "JH JD QS"],
        step="take",
        dealer=2,
        pile="KD KD 6H",
    )
    E.apply(state, "ana", Draw())
    for rank in "2345":
        E.apply(state, "ana", MakeMatch(a=rank + "C", b=rank + "S"))  # strong: skip the bonus
        E.apply(state, "ana", E.parse_action({"type": "skip"}))
    E.apply(state, "ana", Discard(card="6H"))
    assert state.step == "laydown"
    assert sorted(E.awaiting(state)) == ["ben", "cy"]
    E.apply(state, "cy", LayMatch(a="JH", b="JD"))
    E.apply(state, "cy", Done())
    E.apply(state, "ben", LayMatch(a="8H", b="8D"))
    E.apply(state, "ben", Done())
    summary = state.history[0]
    assert summary.out == "ana" and summary.first_turn_out
    assert [p.matches for p in summary.players] == [4, 1, 1]
    assert [p.hand_marks for p in summary.players] == [0, 1, 1]
    assert state.dealer == 0 and state.round == 2


def test_s9_example6_score() -> None:
    boxes = [0] * 13
    boxes[6], boxes[12] = 3, 1
    assert sheet_score(boxes, 5) == 6 + 1 - 7 == 0
