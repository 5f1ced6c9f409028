"""SPLIT: the card game of half-cards (rules in shared/rules/SPLIT.md)."""

from game.split.engine import SplitEngine

__all__ = ["SplitEngine"]
