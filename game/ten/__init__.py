"""TEN: push your luck, auctions and set collection (spec ``shared/rules/TEN.md``)."""

from game.ten.engine import TenEngine
from game.ten.odds import bust_chance
from game.ten.payments import Payment, payment_options
from game.ten.scoring import Score, score_notes

__all__ = ["Payment", "Score", "TenEngine", "bust_chance", "payment_options", "score_notes"]

# The names the Discord UI (cogs/ten/) uses.
from game.ten import data
from game.ten.cards import display, sort_key
from game.ten.payments import pay_action, wealth
from game.ten.state import Back, Bid, Buy, Draw, Pass, Pay, Skip, Stop, TenAction, TenState
from game.ten.view import MarketCard, PlayerView, RunView, TenView

__all__ += [
    "Back", "Bid", "Buy", "Draw", "MarketCard", "Pass", "Pay", "PlayerView", "RunView", "Skip",
    "Stop", "TenAction", "TenState", "TenView", "data", "display", "pay_action", "sort_key",
    "wealth",
]
