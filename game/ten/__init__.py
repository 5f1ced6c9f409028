"""TEN: push your luck, auctions and set collection (spec ``shared/rules/TEN.md``).

A UI imports TEN only through these names: the engine, its state, action and view models,
payments and scores, card display helpers, what the draw phase allows (``may_draw``,
``may_stop``), and the vocabulary (``StrEnum`` s whose values are
the JSON strings).

Modules: ``data`` (every fixed number), ``cards`` (card ids and notation), ``state`` (state and
actions), ``rules`` (the transitions), ``payments`` and ``spending`` (what may pay a price),
``scoring`` and ``results`` (spec section 5), ``odds`` (the public bust chance), ``view``,
``describe`` (words for events), ``bots`` (the machine players by level: ``greedy``, and
``expert`` searching sampled ``hidden`` worlds with ``rollout`` playouts), ``invariants`` and
``simulate``, ``vocabulary``; ``engine`` puts them behind ``game.base.Engine``.
"""

from game.ten import data
from game.ten.cards import KNOWN_NOTATIONS, SORT_KEYS, display, sort_key
from game.ten.data import BUST_TOKEN_VALUE, COLOUR_NAMES, COLOURS
from game.ten.engine import TenEngine
from game.ten.lessons import Lesson
from game.ten.odds import bust_chance
from game.ten.payments import Payment, pay_action, payment_of, payment_options, wealth
from game.ten.rules import may_draw, may_stop
from game.ten.scoring import Score, score_notes
from game.ten.state import Back, Bid, Buy, Draw, Pass, Pay, Skip, Stop, TenAction, TenState
from game.ten.view import MarketCard, PlayerView, RunView, TenView
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
    "BUST_TOKEN_VALUE",
    "COLOURS",
    "COLOUR_NAMES",
    "KNOWN_NOTATIONS",
    "SORT_KEYS",
    "ActionType",
    "Back",
    "Bid",
    "BustKind",
    "Buy",
    "Draw",
    "EventKind",
    "Lesson",
    "MarketCard",
    "Pass",
    "Pay",
    "PayFor",
    "Payment",
    "Phase",
    "PlayerView",
    "Reward",
    "RunView",
    "Score",
    "Skip",
    "Stop",
    "TablePhase",
    "TenAction",
    "TenEngine",
    "TenState",
    "TenView",
    "bust_chance",
    "data",
    "display",
    "may_draw",
    "may_stop",
    "pay_action",
    "payment_of",
    "payment_options",
    "score_notes",
    "sort_key",
    "wealth",
]
