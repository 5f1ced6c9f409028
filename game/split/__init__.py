"""SPLIT: the card game of half-cards (rules in shared/rules/SPLIT.md)."""

# The names the Discord UI (cogs/split/) uses.
from game.split.actions import SplitAction
from game.split.engine import SplitEngine
from game.split.state import RoundSummary
from game.split.view import MatchView, SheetView, SplitView

__all__ = ["SplitEngine"]
__all__ += ["MatchView", "RoundSummary", "SheetView", "SplitAction", "SplitView"]
