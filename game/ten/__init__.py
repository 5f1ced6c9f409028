"""TEN: push your luck, auctions and set collection (spec ``shared/rules/TEN.md``)."""

from game.ten.engine import TenEngine
from game.ten.odds import bust_chance
from game.ten.payments import Payment, payment_options
from game.ten.scoring import Score, score_notes
from game.ten.vocabulary import (
    ActionType,
    BustKind,
    EventKind,
    PayFor,
    Phase,
    Reward,
    TablePhase,
)

__all__ = [
    "ActionType",
    "BustKind",
    "EventKind",
    "PayFor",
    "Payment",
    "Phase",
    "Reward",
    "Score",
    "TablePhase",
    "TenEngine",
    "bust_chance",
    "payment_options",
    "score_notes",
]
