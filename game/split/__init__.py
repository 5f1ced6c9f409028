"""SPLIT: the card game of half-cards (rules in shared/rules/SPLIT.md)."""

from game.split.engine import SplitEngine
from game.split.vocabulary import ActionType, EventKind, Level, RoundEnd, Step

__all__ = ["ActionType", "EventKind", "Level", "RoundEnd", "SplitEngine", "Step"]
