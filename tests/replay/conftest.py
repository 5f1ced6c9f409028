"""The games the replay tests share: each played once through the manager into a store."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.records.session import ActionRow, ResultRow, Session
from bot.sessions.export import export_session
from game.export_format import GameExport
from tests.replay.stored_games import GUILD, stored_game

# id: (game, humans, bot seats, the second seat leaves after this many moves)
CONFIGS: dict[str, tuple[str, int, int, int | None]] = {
    "split-2": ("split", 2, 0, None),
    "split-4-bot-leaver": ("split", 3, 1, 15),
    "ten-solo": ("ten", 1, 0, None),
    "ten-3-leaver": ("ten", 3, 0, 8),
    "ten-5": ("ten", 5, 0, None),
}


@dataclass(frozen=True)
class Stored:
    session: Session  # as loaded back from the store
    actions: list[ActionRow]
    results: list[ResultRow]
    export: GameExport


async def _store_and_export(path: Path, config: tuple[str, int, int, int | None]) -> Stored:
    game, humans, bots, leave_after = config
    store, session = await stored_game(path, game, humans, seed=humans * 7 + bots,
                                       bots=bots, leave_after=leave_after)
    try:
        loaded = await store.load_session(session.id)
        assert loaded is not None
        return Stored(
            loaded,
            await store.actions(session.id),
            [r for r in await store.results(GUILD, game) if r.session_id == session.id],
            await export_session(store, session.id),
        )
    finally:
        await store.close()


@pytest.fixture(scope="session")
def stored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Stored]:
    """Each configuration played once through the manager into its own SQLite store."""
    folder = tmp_path_factory.mktemp("stores")

    async def all_of_them() -> dict[str, Stored]:
        return {
            name: await _store_and_export(folder / f"{name}.sqlite3", config)
            for name, config in CONFIGS.items()
        }

    return asyncio.run(all_of_them())


