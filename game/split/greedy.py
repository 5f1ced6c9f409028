"""The normal SPLIT bot ("normal" level): a greedy player, also the expert's rollout policy.

It picks from the row only when that takes at most ``GREEDY_MAX_PICK`` cards, plays the
highest-level match or upgrade it can, else discards its least useful card; it aims the
perfect bonus at the best other sheet, draws the strong bonus while the pile lasts, and swaps
only when its box rows gain.
"""

from __future__ import annotations

from game.split.actions import (
    BonusDraw,
    Discard,
    Done,
    Draw,
    LayMatch,
    MakeMatch,
    Pick,
    Skip,
    SplitAction,
    Swap,
    Target,
    Upgrade,
)
from game.split.cards import FACE_NAMES, FACE_OF, FACE_RANK, RANK_OF, face_level, parse_face
from game.split.rules import can_upgrade_with, legal_actions, match_pairs
from game.split.scoring import rank_row_value, sheet_score
from game.split.state import SplitState
from game.split.vocabulary import Step

# The greedy player picks from the row only when it takes at most this many cards.
GREEDY_MAX_PICK = 3


def least_useful_card(state: SplitState, seat: int) -> str:
    """The held card the greedy player parts with most easily: fewest partners of its rank
    in hand, no upgrade on the table, highest rank last kept."""
    hand = state.hands[seat]
    pairs = match_pairs(state)
    rank_counts: dict[int, int] = {}
    for card in hand:
        rank_counts[RANK_OF[card]] = rank_counts.get(RANK_OF[card], 0) + 1
    best_face, best_key = -1, (0, 0, 0)
    for face in sorted({FACE_OF[card] for card in hand}):
        key = (rank_counts[FACE_RANK[face]], int(can_upgrade_with(pairs, face)), -face)
        if best_face < 0 or key < best_key:
            best_face, best_key = face, key
    return FACE_NAMES[best_face]


def _action_level(state: SplitState, action: SplitAction) -> int:
    if isinstance(action, MakeMatch | LayMatch):
        return face_level(parse_face(action.a), parse_face(action.b))
    if isinstance(action, Upgrade):
        halves = [FACE_OF[card] for card in state.matches[action.match].halves]
        replaced = parse_face(action.replace)
        kept = halves[1] if halves[0] == replaced else halves[0]
        return face_level(parse_face(action.card), kept)
    return 0


def _owned_boxes(state: SplitState, seat: int, rank: int) -> int:
    on_table = sum(1 for m in state.matches if m.owner == seat and RANK_OF[m.halves[0]] == rank)
    return state.boxes[seat][rank] + on_table


def _box_gain(state: SplitState, seat: int, rank: int) -> int:
    boxes = _owned_boxes(state, seat, rank)
    return rank_row_value(boxes + 1) - rank_row_value(boxes)


def greedy_action(state: SplitState, seat: int) -> SplitAction:
    legal = legal_actions(state, seat)
    step = state.step
    if step == Step.TAKE:
        picks = [a for a in legal if isinstance(a, Pick) and a.pos is not None]
        if picks:
            best = max(picks, key=lambda a: a.pos or 0)
            if len(state.row) - (best.pos or 0) <= GREEDY_MAX_PICK:
                return best
        return Draw()
    if step in (Step.MAIN, Step.LAYDOWN):
        plays = [a for a in legal if isinstance(a, MakeMatch | LayMatch | Upgrade)]
        if plays:
            # Best level first; matches before upgrades; taking others' matches first.
            def key(action: SplitAction) -> tuple[int, int, int]:
                takes = int(
                    isinstance(action, Upgrade) and state.matches[action.match].owner != seat
                )
                return (_action_level(state, action), int(not isinstance(action, Upgrade)), takes)

            return max(plays, key=key)
        if step == Step.LAYDOWN:
            return Done()
        return Discard(card=least_useful_card(state, seat))
    if step == Step.BONUS_PERFECT:
        count = len(state.players)
        others = [(seat + k) % count for k in range(1, count)]
        target = max(others, key=lambda s: sheet_score(state.boxes[s], state.negatives[s]))
        return Target(player=state.players[target])
    if step == Step.BONUS_STRONG:
        return BonusDraw() if len(state.pile) > 1 else Skip()
    swaps = [a for a in legal if isinstance(a, Swap)]
    best_gain, best_swap = 0, None
    for swap in swaps:
        mine_rank = RANK_OF[state.matches[swap.mine].halves[0]]
        theirs_rank = RANK_OF[state.matches[swap.theirs].halves[0]]
        if mine_rank == theirs_rank:
            continue
        gain = _box_gain(state, seat, theirs_rank) - (
            rank_row_value(_owned_boxes(state, seat, mine_rank))
            - rank_row_value(_owned_boxes(state, seat, mine_rank) - 1)
        )
        if gain > best_gain:
            best_gain, best_swap = gain, swap
    return best_swap if best_swap is not None else Skip()
