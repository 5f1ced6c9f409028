"""Game key -> engine. The only place that lists the games."""

from __future__ import annotations

from typing import Any

from game.base import Engine
from game.replay import StepMarkerFn
from game.tutor import Teacher


def engines() -> dict[str, Engine[Any, Any]]:
    from game.split import SplitEngine
    from game.ten import TenEngine

    return {SplitEngine.key: SplitEngine(), TenEngine.key: TenEngine()}


def step_markers() -> dict[str, StepMarkerFn]:
    """Game key -> where a state stands (round, turn), for replays; a game without an entry
    replays with no markers."""
    from game.split import SplitEngine
    from game.split.markers import step_marker as split_marker
    from game.ten import TenEngine
    from game.ten.markers import step_marker as ten_marker

    return {SplitEngine.key: split_marker, TenEngine.key: ten_marker}


def teachers() -> dict[str, Teacher]:
    """Game key -> its /learn lessons (``game/<game>/lessons.py``)."""
    from game.split import lessons as split_lessons
    from game.ten import lessons as ten_lessons

    return {"split": split_lessons, "ten": ten_lessons}  # type: ignore[dict-item]
