"""The rules a SPLIT learner meets (``/learn``): which rule applies to a decision, and which
rules the events since the learner's last decision brought up. Pure: the words live in the
cogs' catalogs, keyed by :class:`Lesson`.

A decision's lesson is read from the move itself (the tutor's suggestion, or the move the
learner played) and the public state; the suggestion is the greedy policy's move, which reads
only what the seat may see (its hand, the row, the matches, public counts and sheets).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from game.base import Event
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
from game.split.cards import PERFECT, STRONG, face_level, parse_face
from game.split.greedy import greedy_action
from game.split.state import SplitState
from game.split.vocabulary import EventKind, RoundEnd, Step


class Lesson(StrEnum):
    """One rule of the spec (``shared/rules/SPLIT.md``), by the section it comes from."""

    DRAW = "draw"  # 4, step 1: draw the top card
    PICK = "pick"  # 4, step 1: pick from the discard row, and use the picked card
    MATCH_WEAK = "match_weak"  # 2: same rank, different colour; 5: the swap bonus
    MATCH_STRONG = "match_strong"  # 2: same colour; 5: a bonus draw
    MATCH_PERFECT = "match_perfect"  # 2: the two halves of one card; 5: a negative box
    UPGRADE = "upgrade"  # 4, step 2: a half covers a half, the match changes owner
    PERFECT_BONUS = "perfect_bonus"  # 5: choose who marks a negative box
    STRONG_BONUS = "strong_bonus"  # 5: draw the top card, or not
    SWAP = "swap"  # 5: the weak bonus, a swap of two matches of one level
    DISCARD = "discard"  # 4, step 3: one card on the row ends the turn
    GO_OUT = "go_out"  # 4, step 3 and 6: the last card discarded ends the round
    LAYDOWN = "laydown"  # 6: lay matches after a first-turn go-out
    NEGATIVE_BOXES = "negative_boxes"  # 6 and 7: a box per card left, and perfect marks
    ROUND_SCORING = "round_scoring"  # 6 and 7: a box per match in its rank's row


# The rules issue 29 lists for SPLIT, in the order a first game usually meets them.
REQUIRED: tuple[Lesson, ...] = (
    Lesson.PICK,
    Lesson.MATCH_WEAK,
    Lesson.MATCH_STRONG,
    Lesson.MATCH_PERFECT,
    Lesson.UPGRADE,
    Lesson.SWAP,
    Lesson.PERFECT_BONUS,
    Lesson.GO_OUT,
    Lesson.ROUND_SCORING,
    Lesson.NEGATIVE_BOXES,
)

_MATCH_LESSONS = {PERFECT: Lesson.MATCH_PERFECT, STRONG: Lesson.MATCH_STRONG}


def suggestion(state: SplitState, seat: int) -> SplitAction:
    """The move the tutor suggests: the greedy player's, from the seat's view."""
    return greedy_action(state, seat)


def match_lesson(a: str, b: str) -> Lesson:
    return _MATCH_LESSONS.get(face_level(parse_face(a), parse_face(b)), Lesson.MATCH_WEAK)


def decision_lesson(state: SplitState, seat: int, action: SplitAction) -> Lesson:
    """The rule that applies to playing ``action`` now (``seat`` is the one deciding)."""
    if isinstance(action, Draw):
        return Lesson.DRAW
    if isinstance(action, Pick):
        return Lesson.PICK
    if isinstance(action, MakeMatch):
        return match_lesson(action.a, action.b)
    if isinstance(action, LayMatch | Done):
        return Lesson.LAYDOWN
    if isinstance(action, Upgrade):
        return Lesson.UPGRADE
    if isinstance(action, Target):
        return Lesson.PERFECT_BONUS
    if isinstance(action, BonusDraw):
        return Lesson.STRONG_BONUS
    if isinstance(action, Swap):
        return Lesson.SWAP
    if isinstance(action, Skip):
        return Lesson.SWAP if state.step == Step.BONUS_WEAK else Lesson.STRONG_BONUS
    assert isinstance(action, Discard)
    return Lesson.GO_OUT if len(state.hands[seat]) == 1 else Lesson.DISCARD


def event_lessons(events: Iterable[Event], player: str, state: SplitState) -> list[Lesson]:
    """The rules that ``events`` (everything since ``player``'s last decision) brought up for
    ``player``, in the order of the story (``_STORY``), each once (``state``, where they
    led, is not needed: the events say it all)."""
    found: list[Lesson] = []

    def add(lesson: Lesson) -> None:
        if lesson not in found:
            found.append(lesson)

    for event in events:
        if event.kind == EventKind.MARK and event.data.get("target") == player:
            add(Lesson.NEGATIVE_BOXES)
        elif event.kind == EventKind.ROUND_END:
            if event.data.get("ended_by") == RoundEnd.OUT and event.data.get("out") != player:
                add(Lesson.GO_OUT)
            add(Lesson.ROUND_SCORING)
            for line in event.data.get("players", ()):
                if line["player"] == player and line["hand_marks"] + line["bonus_marks"] > 0:
                    add(Lesson.NEGATIVE_BOXES)
    return sorted(found, key=_STORY.index)


# How a comment tells what happened: who went out, the round's scores, your negative boxes.
_STORY = [Lesson.GO_OUT, Lesson.ROUND_SCORING, Lesson.NEGATIVE_BOXES]

