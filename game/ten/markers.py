"""Where a TEN state stands, for a replay's turn jumps (TEN has no rounds)."""

from __future__ import annotations

from game.replay import StepMarker
from game.ten.state import TenState


def step_marker(state: TenState) -> StepMarker:
    """No round; the turn counted from 1 (the final buy phases belong to the last turn)."""
    return StepMarker(None, state.turn)
