"""The SPLIT game state: compact, JSON-exact, mutated in place by the rules.

Cards are ints (see ``game.split.cards``), seats indices into ``players``, matches indices
into ``matches``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from game.fast import PlainAssignment, construct
from game.split.vocabulary import RoundEnd, Step

ROUNDS = 3
HAND_SIZE = 9


class SplitOptions(BaseModel):
    """SPLIT has no table options: the spec fixes three rounds of nine-card hands."""

    model_config = ConfigDict(extra="forbid")


class TableMatch(BaseModel):
    """A match on the table. ``owner`` is a seat index; cards are card ids (see cards.py)."""

    owner: int
    halves: list[int]
    covered: list[int] = Field(default_factory=list)


class PlayerRoundScore(BaseModel):
    """What one player scored in one finished round."""

    player: str
    boxes: dict[str, int]  # rank -> boxes filled this round (ranks with none are left out)
    matches: int
    hand_marks: int  # negative boxes for cards left in hand
    bonus_marks: int  # negative boxes received from perfect bonuses during the round
    score_before: int
    score_after: int
    gained: int  # score_after - score_before


class RoundSummary(BaseModel):
    """The public record of one finished round."""

    round: int
    dealer: str
    ended_by: RoundEnd
    out: str | None = None  # who went out, when ended_by == "out"
    first_turn_out: bool = False
    players: list[PlayerRoundScore]


class SplitState(PlainAssignment):
    round: int = 1
    dealer: int = 0
    turn: int = 0
    step: Step = Step.TAKE
    hands: list[list[int]]
    pile: list[int]  # face down; the top card is the last element
    row: list[int]  # the discard row, oldest first; the newest card is the last element
    # A match's id is its index in this list; the list is emptied at each deal.
    matches: list[TableMatch] = Field(default_factory=list)
    picked: int | None = None  # card picked from the row this turn and not yet used
    bonus_match: int | None = None  # match whose bonus is being resolved
    turns_started: list[int]  # per seat: turns started this round
    # Seats still laying down matches after a first-turn go-out.
    laydown_waiting: list[int] = Field(default_factory=list)
    went_out: int | None = None  # seat that went out this round
    boxes: list[list[int]]  # per seat: 13 rank rows, boxes filled
    negatives: list[int]  # per seat: negative boxes filled
    round_marks: list[int]  # per seat: negative boxes from perfect bonuses this round
    history: list[RoundSummary] = Field(default_factory=list)
    # Per seat: faces everyone knows the seat holds (taken from the discard row, not yet
    # played). Empty in snapshots made before the field existed: nothing is known then.
    known: list[list[int]] = Field(default_factory=list)


def copy_state(state: SplitState) -> SplitState:
    """A cheap deep copy: lists are copied, finished-round records (never mutated) shared."""
    return construct(
        SplitState,
        dict(
            players=list(state.players),
            seed=state.seed,
            round=state.round,
            dealer=state.dealer,
            turn=state.turn,
            step=state.step,
            hands=[list(hand) for hand in state.hands],
            pile=list(state.pile),
            row=list(state.row),
            matches=[
                construct(
                    TableMatch,
                    dict(owner=match.owner, halves=list(match.halves), covered=list(match.covered)),
                    _MATCH_FIELDS,
                )
                for match in state.matches
            ],
            picked=state.picked,
            bonus_match=state.bonus_match,
            turns_started=list(state.turns_started),
            laydown_waiting=list(state.laydown_waiting),
            went_out=state.went_out,
            boxes=[list(rows) for rows in state.boxes],
            negatives=list(state.negatives),
            round_marks=list(state.round_marks),
            history=list(state.history),
            known=[list(faces) for faces in state.known],
        ),
        _STATE_FIELDS,
    )


_STATE_FIELDS = frozenset(SplitState.model_fields)
_MATCH_FIELDS = frozenset(TableMatch.model_fields)
