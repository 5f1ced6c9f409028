"""The settings cache (bounded, expiring, written through) and the typed server settings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store, open_store
from cogs.i18n import Language
from cogs.i18n.settings_cache import StoredSettings, stored_settings
from cogs.kit.server_settings import ServerDefaults, parse_channels, resolve

AT = datetime(2026, 12, 1, tzinfo=UTC)


class Counting:
    """A store stand-in that counts reads."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.reads = 0

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        self.reads += 1
        return await self.store.guild_settings(guild_id)

    async def user_settings(self, user_id: int) -> dict[str, str]:
        self.reads += 1
        return await self.store.user_settings(user_id)

    async def set_guild_setting(self, *args: object, **kwargs: object) -> None:
        await self.store.set_guild_setting(*args, **kwargs)  # type: ignore[arg-type]

    async def set_user_setting(self, *args: object, **kwargs: object) -> None:
        await self.store.set_user_setting(*args, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(tmp_path / "settings.sqlite3")
    yield opened
    await opened.close()


async def test_reads_once_expires_and_stays_bounded(store: Store) -> None:
    now = [0.0]
    counting = Counting(store)
    cache = StoredSettings(counting, size=2, ttl=60, clock=lambda: now[0])  # type: ignore[arg-type]
    await store.set_user_setting(1, "language", "gu", at=AT)
    assert await cache.user(1) == {"language": "gu"}
    assert await cache.user(1) == {"language": "gu"} and counting.reads == 1
    now[0] = 61  # another process may have changed it: read again
    assert await cache.user(1) == {"language": "gu"} and counting.reads == 2
    await cache.user(2)
    await cache.user(3)  # evicts user 1, the least recently used
    await cache.user(1)
    assert counting.reads == 5


async def test_writes_go_through_and_update_the_copy(store: Store) -> None:
    cache = StoredSettings(store)
    assert await cache.guild(7) == {} and cache.guild_now(8) is None
    await cache.set_guild(7, "language", "sq", by="1", at=AT)
    assert cache.guild_now(7) == {"language": "sq"}
    assert await store.guild_settings(7) == {"language": "sq"}
    await cache.set_user(5, "language", "es", at=AT)
    await cache.set_user(5, "language", None, at=AT)  # forget
    assert await cache.user(5) == {} and await store.user_settings(5) == {}
    assert stored_settings(store) is stored_settings(store)


def test_unreadable_stored_values_fall_back_to_the_defaults() -> None:
    defaults = ServerDefaults(turn_minutes=5, leaderboard_min_games=3, images=True,
                              threads=False)
    settings = resolve({"language": "fr", "turn_minutes": "99", "leaderboard_min_games": "x",
                        "images": "maybe", "replays": "nobody", "channels": "12,x,12,٣,34"},
                       defaults)
    assert settings.language is None and settings.turn_minutes == 5
    assert settings.leaderboard_min_games == 3 and settings.images is True
    assert settings.replays == "everyone" and settings.channels == (12, 34)
    assert settings.stored == {"channels"}
    assert settings.allows_games_in(99, 34) and not settings.allows_games_in(99, None)
    good = resolve({"language": "GU", "turn_minutes": "0", "threads": "on"}, defaults)
    assert good.language is Language.GU and good.turn_minutes == 0 and good.threads
    assert resolve({}, defaults).allows_games_in(1)
    assert parse_channels("") == () and len(parse_channels(",".join(map(str, range(40))))) == 25


async def test_player_words_read_a_players_choice(store: Store) -> None:
    from types import SimpleNamespace

    from cogs.i18n.interaction import player_words

    client: Any = SimpleNamespace(manager=SimpleNamespace(store=store))
    await stored_settings(store).set_user(42, "language", "sq", at=AT)
    assert (await player_words(client, "42")).language is Language.SQ
    assert (await player_words(client, 42, "es-ES")).language is Language.SQ
    assert (await player_words(client, 43, "es-419")).language is Language.ES
    assert (await player_words(client, "bot:1")).language is Language.EN


class _AnyStore:
    """Enough of a store for ``stored_settings`` (which only keeps it, weakly)."""


def test_each_store_has_its_own_cache_whichever_was_asked_last() -> None:
    first: Any = _AnyStore()
    second: Any = _AnyStore()
    mine = stored_settings(first)
    theirs = stored_settings(second)
    assert mine is not theirs
    assert stored_settings(first) is mine and stored_settings(first) is mine
    assert stored_settings(second) is theirs and stored_settings(first) is mine
    assert stored_settings(_AnyStore()) not in (mine, theirs)  # a new store, a new cache
    assert stored_settings(first) is mine and stored_settings(second) is theirs
