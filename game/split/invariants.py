"""Consistency checks of a SPLIT state, used by the simulate command and the tests."""

from __future__ import annotations

from game.invariants import require
from game.split.cards import DECK_SIZE, FACE_OF, FACE_RANK, RANK_OF, RANKS, face_level
from game.split.rules import match_pairs, usable
from game.split.scoring import RANK_ROW_VALUES, sheet_score
from game.split.state import ROUNDS, SplitState
from game.split.vocabulary import Step

_BONUS_STEPS = (Step.BONUS_PERFECT, Step.BONUS_STRONG, Step.BONUS_WEAK)
_TURN_STEPS = (Step.TAKE, Step.MAIN, *_BONUS_STEPS)


def all_cards(state: SplitState) -> list[int]:
    cards = [card for hand in state.hands for card in hand]
    cards += state.pile + state.row
    for match in state.matches:
        cards += match.halves + match.covered
    return cards


def check_invariants(state: SplitState) -> None:
    """Raise InvariantError when ``state`` breaks a rule of the game."""
    count = len(state.players)
    cards = all_cards(state)
    require(len(cards) == DECK_SIZE, f"{len(cards)} cards accounted for, not {DECK_SIZE}")
    require(sorted(cards) == list(range(DECK_SIZE)), "a card is duplicated or missing")
    for list_name in ("hands", "turns_started", "boxes", "negatives", "round_marks"):
        require(len(getattr(state, list_name)) == count, f"{list_name} has the wrong length")
    for match_id, match in enumerate(state.matches):
        require(0 <= match.owner < count, f"match {match_id} has no owner")
        require(len(match.halves) == 2, f"match {match_id} does not have two halves")
        rank = RANK_OF[match.halves[0]]
        require(
            {RANK_OF[card] for card in match.halves + match.covered} == {rank},
            f"match {match_id} mixes ranks",
        )
        require(face_level(FACE_OF[match.halves[0]], FACE_OF[match.halves[1]]) > 0, "not a match")
    step = state.step
    if step in _TURN_STEPS:
        require(bool(state.pile), "the draw pile is empty during a turn")
        require(bool(state.hands[state.turn]), "the turn player has no cards")
    require((step == Step.LAYDOWN) == bool(state.laydown_waiting), "lay-down list out of step")
    require((state.bonus_match is not None) == (step in _BONUS_STEPS), "bonus match out of step")
    if state.picked is not None:
        require(step == Step.MAIN or step in _BONUS_STEPS, "a picked card outside a turn")
        hand = state.hands[state.turn]
        face = FACE_OF[state.picked]
        require(any(FACE_OF[card] == face for card in hand), "the picked card left the hand")
        rank_count = sum(1 for card in hand if RANK_OF[card] == FACE_RANK[face])
        require(
            usable(len(hand), rank_count, face, match_pairs(state)),
            "the picked card became unusable",
        )
    finished = ROUNDS if step == Step.GAME_OVER else state.round - 1
    require(len(state.history) == finished, "round history out of step")
    for seat in range(count):
        require(len(state.boxes[seat]) == len(RANKS), "a sheet has the wrong rows")
        rows = state.boxes[seat]
        require(min(rows) >= 0 and max(rows) < len(RANK_ROW_VALUES), "a rank row overflows")
        if state.history and step != Step.GAME_OVER:
            before_marks = state.negatives[seat] - state.round_marks[seat]
            require(
                sheet_score(state.boxes[seat], before_marks)
                == state.history[-1].players[seat].score_after,
                "a sheet disagrees with the round history",
            )
    if step == Step.GAME_OVER:
        for seat in range(count):
            require(
                sheet_score(state.boxes[seat], state.negatives[seat])
                == state.history[-1].players[seat].score_after,
                "a final sheet disagrees with the round history",
            )
