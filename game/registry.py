"""Game key -> engine. The only place that lists the games."""

from __future__ import annotations

from typing import Any

from game.base import Engine


def engines() -> dict[str, Engine[Any, Any]]:
    from game.split import SplitEngine
    from game.ten import TenEngine

    return {SplitEngine.key: SplitEngine(), TenEngine.key: TenEngine()}
