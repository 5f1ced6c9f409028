"""Game states for the image tests, the goldens and ``bench/images.py``: seeded bot play
through the real engines (``bot_action`` at the "normal" level), stopped after a number of
actions or at the end of the game."""

from __future__ import annotations

import random
from typing import Any

from game.base import Engine
from game.split import SplitEngine
from game.split.state import SplitState
from game.ten import TenEngine
from game.ten.state import TenState

LEVEL = "normal"


def players(count: int) -> list[str]:
    return [f"p{index}" for index in range(1, count + 1)]


def names(count: int) -> dict[str, str]:
    """Display names: ordinary ones, a long one and one with letters the font lacks."""
    pool = ["Ana", "Benedikt Kowalczyk-Øster", "Cy", "Dora 🎲", "Émile", "Fumiko"]
    return {player: pool[index] for index, player in enumerate(players(count))}


def play(engine: Engine[Any, Any], count: int, seed: int, actions: int | None) -> Any:
    """The state after ``actions`` bot actions (None: to the end of the game)."""
    state, _ = engine.new_game(players(count), seed)
    rng = random.Random(seed)
    done = 0
    while (actions is None or done < actions) and (waiting := engine.awaiting(state)):
        player = waiting[0]
        engine.apply(state, player, engine.bot_action(state, player, LEVEL, rng))
        done += 1
    return state


def split_state(count: int, seed: int, actions: int | None = 40) -> SplitState:
    state: SplitState = play(SplitEngine(), count, seed, actions)
    return state


def ten_state(count: int, seed: int, actions: int | None = 60) -> TenState:
    state: TenState = play(TenEngine(), count, seed, actions)
    return state
