"""The rules a TEN learner meets (``/learn``): which rule applies to a decision, and which
rules the events since the learner's last decision brought up. Pure: the words live in the
cogs' catalogs, keyed by :class:`Lesson`.

The suggestion is the greedy policy's move: TEN hides only the order of the draw pile, and
the greedy player reads the public bust chance (spec section 7), never the pile itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from game.base import Event
from game.ten import cards
from game.ten.greedy import greedy_action
from game.ten.state import Bid, Draw, Pass, Pay, Stop, TenAction, TenState
from game.ten.vocabulary import EventKind


class Lesson(StrEnum):
    """One rule of the spec (``shared/rules/TEN.md``), by the section it comes from."""

    FLIP = "flip"  # 3.1: flip a card; the running total
    STOP = "stop"  # 3.2: stop and take the number cards or the currency
    BUST = "bust"  # 3.3: a number bust or a currency bust
    AUCTION = "auction"  # 3.4: a wild is auctioned, once around the table
    BUY = "buy"  # 3.5: one market card, price = its number
    PAYMENT = "payment"  # 3.4 and 3.5: tokens, bust tokens (3, no change), collection cards
    END = "end"  # 4: the last card flipped, an extra buy phase for everyone
    RUNS = "runs"  # 5: the longest run per colour scores
    WILDS = "wilds"  # 5: wilds are assigned at scoring, to the best total


# The rules issue 29 lists for TEN, in the order a first game usually meets them.
REQUIRED: tuple[Lesson, ...] = (
    Lesson.FLIP,
    Lesson.STOP,
    Lesson.BUST,
    Lesson.AUCTION,
    Lesson.BUY,
    Lesson.PAYMENT,
    Lesson.END,
    Lesson.RUNS,
    Lesson.WILDS,
)


def suggestion(state: TenState, seat: int) -> TenAction:
    """The move the tutor suggests: the greedy player's, from public information."""
    return greedy_action(state, seat)


def decision_lesson(state: TenState, seat: int, action: TenAction) -> Lesson:
    """The rule that applies to playing ``action`` now (``seat`` is the one deciding)."""
    if isinstance(action, Draw):
        return Lesson.FLIP
    if isinstance(action, Stop):
        return Lesson.STOP
    if isinstance(action, Bid | Pass):
        return Lesson.AUCTION
    if isinstance(action, Pay):
        return Lesson.PAYMENT
    return Lesson.END if state.final_buys else Lesson.BUY


def owns_wild(state: TenState, seat: int) -> bool:
    return any(cards.IS_WILD[card] for card in state.collections[seat])


def event_lessons(events: Iterable[Event], player: str, state: TenState) -> list[Lesson]:
    """The rules that ``events`` (everything since ``player``'s last decision, ending in
    ``state``) brought up for ``player``, each once."""
    found: list[Lesson] = []

    def add(lesson: Lesson) -> None:
        if lesson not in found:
            found.append(lesson)

    for event in events:
        if event.kind == EventKind.BUST:
            add(Lesson.BUST)
        elif event.kind == EventKind.FINAL_BUY and event.actor != player:
            add(Lesson.END)
        elif event.kind == EventKind.OVER:
            add(Lesson.END)
            add(Lesson.RUNS)
            if owns_wild(state, state.players.index(player)):
                add(Lesson.WILDS)
    return found
