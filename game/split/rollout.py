"""Fast playouts for SPLIT search: a move applied without events, and greedy rollouts.

``step`` plays the moves a playout makes most (a draw that leaves cards in the pile, a
discard that does not go out) straight on the state, without validation and without building
events; every other move goes through ``rules.apply``. It leaves the state exactly as
``rules.apply`` does (``tests/engine/test_expert_split.py`` plays random games both ways and
compares every state). Only legal moves may be passed.
"""

from __future__ import annotations

from game.search.interrupt import STOP_EVERY_MOVES, Interrupted, Stop
from game.split import rules
from game.split.actions import Discard, Draw, SplitAction
from game.split.cards import FACE_OF, parse_face
from game.split.greedy import greedy_action
from game.split.scoring import sheet_score
from game.split.state import SplitState
from game.split.vocabulary import Step

_TAKE, _MAIN, _GAME_OVER, _LAYDOWN = Step.TAKE, Step.MAIN, Step.GAME_OVER, Step.LAYDOWN
# A rollout that has not reached its end after this many moves stops there (a guard only).
MAX_ROLLOUT_MOVES = 2000


def step(state: SplitState, seat: int, action: SplitAction) -> None:
    """Apply the legal ``action`` of ``seat`` as ``rules.apply`` would, without events."""
    kind = type(action)
    if kind is Draw and len(state.pile) > 1:
        state.turns_started[seat] += 1
        state.hands[seat].append(state.pile.pop())
        state.step = _MAIN
        return
    if kind is Discard and state.picked is None:
        hand = state.hands[seat]
        if len(hand) > 1:
            assert isinstance(action, Discard)
            face = parse_face(action.card)
            for index, card in enumerate(hand):
                if FACE_OF[card] == face:
                    state.row.append(hand.pop(index))
                    break
            if seat < len(state.known) and face in state.known[seat]:
                state.known[seat].remove(face)
            state.turn = (seat + 1) % len(state.players)
            state.step = _TAKE
            return
    rules.apply(state, seat, action)


def to_move(state: SplitState) -> int:
    """The seat the game waits for (the first of the lay-down seats)."""
    if state.step == _LAYDOWN:
        return state.laydown_waiting[0]
    return state.turn


def play_out_round(state: SplitState, stop: Stop | None = None) -> None:
    """Greedy play by every seat until the round (or the game) ends. ``stop`` is asked
    before the first move and every ``STOP_EVERY_MOVES`` moves; when it says so,
    ``Interrupted`` is raised (the state is then part-way through the round)."""
    start = state.round
    for moves in range(MAX_ROLLOUT_MOVES):
        if state.step == _GAME_OVER or state.round != start:
            return
        if stop is not None and moves % STOP_EVERY_MOVES == 0 and stop():
            raise Interrupted
        seat = to_move(state)
        step(state, seat, greedy_action(state, seat))


def sheet_scores(state: SplitState) -> list[int]:
    """Every seat's sheet score, by seat."""
    return [sheet_score(state.boxes[s], state.negatives[s]) for s in range(len(state.players))]


def margin(state: SplitState, seat: int) -> float:
    """The seat's score minus the best other score."""
    scores = sheet_scores(state)
    mine = scores.pop(seat)
    return float(mine - max(scores))
