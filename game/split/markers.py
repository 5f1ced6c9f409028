"""Where a SPLIT state stands, for a replay's round and turn jumps."""

from __future__ import annotations

from game.replay import StepMarker
from game.split.state import SplitState
from game.split.vocabulary import Step


def step_marker(state: SplitState) -> StepMarker:
    """The round and the turn within it, counted from 1. A turn begins when its player is
    asked to take a card; the lay-down after a first-turn go-out belongs to the turn that
    went out."""
    started = sum(state.turns_started)
    return StepMarker(state.round, started + 1 if state.step == Step.TAKE else started)
