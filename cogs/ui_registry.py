"""Game key -> GameUI. A game without its own UI gets the plain one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cogs.game_ui import GameUI
from cogs.plain_ui import PlainUI
from cogs.split_ui import SplitUI
from cogs.ten_ui import TenUI
from game.base import Engine

# Game key -> factory(engine) of its own UI. The SPLIT and TEN UIs add themselves here.
UI_FACTORIES: dict[str, Callable[[Engine[Any, Any]], GameUI]] = {}
UI_FACTORIES["ten"] = TenUI
UI_FACTORIES["split"] = SplitUI


def game_uis(engines: Mapping[str, Engine[Any, Any]]) -> dict[str, GameUI]:
    return {
        key: UI_FACTORIES.get(key, PlainUI)(engine) for key, engine in engines.items()
    }
