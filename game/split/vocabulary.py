"""The words SPLIT's modules share, as ``StrEnum`` s: steps, action types, event kinds, match
levels and how a round ends.

A member *is* its value (``Step.TAKE == "take"``), so JSON, snapshots and stored action logs
read and write the same strings as before the enums existed.

Python 3.11 reads an enum member (``Step.TAKE``) through a Python-level descriptor, about ten
times the cost of reading a module global; the rules' hot paths therefore bind the members
they compare against to module globals once.
"""

from __future__ import annotations

from enum import StrEnum


class Step(StrEnum):
    """What the game waits for (``SplitState.step``)."""

    TAKE = "take"  # the turn player draws or picks from the discard row
    MAIN = "main"  # the turn player makes matches / upgrades, then discards
    BONUS_PERFECT = "bonus_perfect"  # the turn player chooses who marks a negative box
    BONUS_STRONG = "bonus_strong"  # the turn player may draw a bonus card
    BONUS_WEAK = "bonus_weak"  # the turn player may swap two matches of one level
    LAYDOWN = "laydown"  # after a first-turn go-out: players without a turn lay matches
    GAME_OVER = "game_over"


class ActionType(StrEnum):
    """The ``type`` discriminator of the action models (``game.split.actions``)."""

    DRAW = "draw"
    PICK = "pick"
    MATCH = "match"
    UPGRADE = "upgrade"
    TARGET = "target"
    BONUS_DRAW = "bonus_draw"
    SWAP = "swap"
    SKIP = "skip"
    DISCARD = "discard"
    LAY = "lay"
    DONE = "done"


class EventKind(StrEnum):
    """``Event.kind`` of the events the rules make."""

    ROUND_START = "round_start"
    DRAW = "draw"
    BONUS_DRAW = "bonus_draw"
    PICK = "pick"
    MATCH = "match"
    LAY = "lay"
    UPGRADE = "upgrade"
    MARK = "mark"
    SKIP = "skip"
    NO_SWAP = "no_swap"
    SWAP = "swap"
    DISCARD = "discard"
    LAYDOWN_START = "laydown_start"
    DONE = "done"
    ROUND_END = "round_end"
    GAME_OVER = "game_over"


class Level(StrEnum):
    """The name of a match level (and of the bonus it earns)."""

    WEAK = "weak"
    STRONG = "strong"
    PERFECT = "perfect"


class RoundEnd(StrEnum):
    """How a round ended (``RoundSummary.ended_by``)."""

    OUT = "out"  # a player discarded their last card
    PILE = "pile"  # the draw pile ran out
