"""The replays built for the Replay buttons (``cogs.rendering.replay_pages``), kept so paging
does not rebuild them: a small bounded cache, one per bot (``cogs.table_services``)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from bot.records.session import Session
from bot.sessions.export import GameExport
from game.replay import Replay

CACHE_SIZE = 16


@dataclass(frozen=True)
class BuiltReplay:
    """One game's replay with the stored session it came from and its export."""

    session: Session
    export: GameExport
    replay: Replay


class ReplayCache:
    """The last :data:`CACHE_SIZE` replays built, by session id (least recently used out)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._built: OrderedDict[int, BuiltReplay] = OrderedDict()

    def __len__(self) -> int:
        return len(self._built)

    def get(self, session_id: int) -> BuiltReplay | None:
        built = self._built.get(session_id)
        if built is not None:
            self._built.move_to_end(session_id)
        return built

    def put(self, session_id: int, built: BuiltReplay) -> None:
        self._built[session_id] = built
        self._built.move_to_end(session_id)
        while len(self._built) > self.size:
            self._built.popitem(last=False)
