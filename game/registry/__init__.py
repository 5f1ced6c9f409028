"""Game key -> engine. The only place that lists the games.

A package above the games (``game.split``, ``game.ten`` import nothing of it), with what needs
every game: an export replayed through its game's engine and step marker (:func:`replay_export`)
and the search for the ``/learn`` deals (``python -m game.registry.learn_deals``).
"""

from __future__ import annotations

from typing import Any

from game.base import Engine
from game.export_format import GameExport
from game.export_format import replay_export as replay_through
from game.replay import DEFAULT_CHECKPOINT_EVERY, Replay, StepMarkerFn, no_marker
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


def replay_export(
    export: GameExport,
    engine: Engine[Any, Any] | None = None,
    *,
    marker: StepMarkerFn | None = None,
    checkpoint_every: int = DEFAULT_CHECKPOINT_EVERY,
) -> Replay:
    """Replay an export through its game's engine (from the registry unless given), with the
    game's registered step marker unless given. Raises ReplayRefused when the log does not
    replay, KeyError for a game this build does not know."""
    if engine is None:
        engine = engines()[export.game]
    if marker is None:
        marker = step_markers().get(export.game, no_marker)
    return replay_through(export, engine, marker=marker, checkpoint_every=checkpoint_every)
