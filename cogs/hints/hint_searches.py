"""One expert search per seat and version for the Hint button.

A hint is the expert seat's search at one version of a game for one player, and it is the
same search however often it is asked for (its random generator is derived from the game's
seed, the version and the player). So a second click of the same Hint, or a burst of them,
waits for the first one's answer instead of holding another decision worker, which the
expert seats of every table share.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from bot.automation.hints import Hint

KEPT = 1024  # seats whose latest search is kept (the oldest is forgotten first)


class HintSearches:
    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        # (session id, player) -> (version, its search): only the latest version of a seat
        self._searches: OrderedDict[tuple[int, str], tuple[int, asyncio.Task[Hint]]] = (
            OrderedDict())

    def __len__(self) -> int:
        return len(self._searches)

    async def hint(self, session_id: int, player: str, version: int,
                   search: Callable[[], Awaitable[Hint]]) -> Hint:
        """The hint for ``player`` at ``version``: the search under way or done for it, else
        ``search()`` started now. A failed search is started again by the next click."""
        key = (session_id, player)
        held = self._searches.get(key)
        if held is None or held[0] != version or _failed(held[1]):
            task: asyncio.Task[Hint] = asyncio.ensure_future(search())
            held = (version, task)
            self._searches[key] = held
        self._searches.move_to_end(key)
        while len(self._searches) > self._kept:
            self._searches.popitem(last=False)
        # Shielded: a click whose wait is cancelled leaves the search to the others.
        return await asyncio.shield(held[1])


def _failed(task: asyncio.Task[Hint]) -> bool:
    return task.done() and (task.cancelled() or task.exception() is not None)
