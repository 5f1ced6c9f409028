"""SPLIT: the card game of half-cards (rules in shared/rules/SPLIT.md).

A UI imports SPLIT only through these names: the engine, its state, action and view models,
the card notation helpers its labels need, and the vocabulary (``StrEnum`` s whose values
are the JSON strings).

Modules: ``cards`` (card ids and notation), ``state``, ``actions``, ``rules`` (dealing, legal
actions, applying them, scoring a round), ``view`` (what a player sees, words for events),
``bots`` (the machine players by level: ``greedy``, and ``expert`` searching sampled
``hidden`` worlds with ``rollout`` playouts), ``scoring`` (the score pad), ``invariants`` and
``simulate`` (self-play checks), ``vocabulary``; ``engine`` puts them behind
``game.base.Engine``.
"""

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
from game.split.cards import (
    FACE_NAMES,
    FACE_OF,
    LEVEL_NAMES,
    RANKS,
    SUIT_COLOUR,
    SUIT_LETTERS,
    SUITS,
    face_level,
    parse_face,
)
from game.split.engine import SplitEngine
from game.split.lessons import Lesson
from game.split.rules import pair_name
from game.split.state import ROUNDS, RoundSummary, SplitState
from game.split.view import MatchView, SheetView, SplitView
from game.split.vocabulary import ActionType, EventKind, Level, RoundEnd, Step

__all__ = [
    "FACE_NAMES",
    "FACE_OF",
    "LEVEL_NAMES",
    "RANKS",
    "ROUNDS",
    "SUITS",
    "SUIT_COLOUR",
    "SUIT_LETTERS",
    "ActionType",
    "BonusDraw",
    "Discard",
    "Done",
    "Draw",
    "EventKind",
    "LayMatch",
    "Lesson",
    "Level",
    "MakeMatch",
    "MatchView",
    "Pick",
    "RoundEnd",
    "RoundSummary",
    "SheetView",
    "Skip",
    "SplitAction",
    "SplitEngine",
    "SplitState",
    "SplitView",
    "Step",
    "Swap",
    "Target",
    "Upgrade",
    "face_level",
    "pair_name",
    "parse_face",
]
