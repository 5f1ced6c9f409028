"""SPLIT: the card game of half-cards (rules in shared/rules/SPLIT.md).

A UI imports SPLIT only through these names: the engine, its state, action and view models,
and the vocabulary (``StrEnum`` s whose values are the JSON strings).

Modules: ``cards`` (card ids and notation), ``state``, ``actions``, ``rules`` (dealing, legal
actions, applying them, scoring a round), ``view`` (what a player sees, words for events),
``bots``, ``scoring`` (the score pad), ``invariants`` and ``simulate`` (self-play checks),
``vocabulary``; ``engine`` puts them behind ``game.base.Engine``.
"""

from game.split.actions import SplitAction
from game.split.cards import RANKS, SUIT_COLOUR, SUITS
from game.split.engine import SplitEngine
from game.split.state import RoundSummary, SplitState
from game.split.view import MatchView, SheetView, SplitView
from game.split.vocabulary import ActionType, EventKind, Level, RoundEnd, Step

__all__ = [
    "RANKS",
    "SUITS",
    "SUIT_COLOUR",
    "ActionType",
    "EventKind",
    "Level",
    "MatchView",
    "RoundEnd",
    "RoundSummary",
    "SheetView",
    "SplitAction",
    "SplitEngine",
    "SplitState",
    "SplitView",
    "Step",
]
