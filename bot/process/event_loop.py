"""The process's event loop: uvloop's where it is installed, unless ``EVENT_LOOP=asyncio``.

uvloop (libuv under the asyncio interface; what discord.py and aiohttp are commonly run on)
does the loop's own work, its socket transports and the wake-ups from the store's thread in C:
issue 42 measured the bot process's CPU per action with and without it
(``python -m bench.action_cpu``, ``docs/performance.md``). Nothing of the bot depends on the
loop's class, so the plain asyncio loop stays a choice (``EVENT_LOOP=asyncio``) for a platform
without uvloop or a comparison.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

LOOPS = ("uvloop", "asyncio")


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The factory of the loop called ``name`` (None: asyncio's own); uvloop falls back to
    asyncio's loop when it is not installed (it is a Linux/macOS wheel)."""
    if name == "uvloop":
        try:
            uvloop = importlib.import_module("uvloop")
        except ImportError:
            return None
        factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
        return factory
    return None


def run(main: Coroutine[Any, Any, T], name: str) -> T:
    """``asyncio.run(main)`` on the loop called ``name``."""
    with asyncio.Runner(loop_factory=loop_factory(name)) as runner:
        return runner.run(main)
