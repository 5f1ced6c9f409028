"""The stand-in's places of user installs (``fakediscord/places.py``, issue 39), checked without
a bot: what Discord's client offers where, and the channel routes refused where the bot is not
a member."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord import commands as synced

GAME: dict[str, object] = {"name": "game", "description": "play", "type": 1,
                           "integration_types": [0, 1], "contexts": [0, 1, 2]}
GUILD_ONLY: dict[str, object] = {"name": "admin", "description": "owner", "type": 1}


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    for name in ("alice", "bob"):
        fake.add_user(name)
    async with fake:
        yield fake


async def test_channel_routes_where_the_bot_is_not_answer_missing_access(
    fd: FakeDiscord,
) -> None:
    alice, bob = fd.world.users.values()
    group = fd.add_group_dm("friends", alice, bob)
    elsewhere = fd.add_foreign_guild("Elsewhere", "games", alice)
    dm = fd.add_dm(alice)
    headers = {"Authorization": f"Bot {fd.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        for channel in (group, elsewhere):
            url = f"{fd.base_url}/api/v10/channels/{channel.id}/messages"
            async with http.post(url, json={"content": "hello"}) as answer:
                assert answer.status == 403
                assert (await answer.json())["code"] == 50001
        async with http.get(f"{fd.base_url}/api/v10/channels/{dm.id}") as answer:
            assert answer.status == 200 and (await answer.json())["type"] == 1
    assert fd.take_violations() == []


async def test_commands_are_offered_only_as_discord_offers_them(fd: FakeDiscord) -> None:
    alice, bob = fd.world.users.values()
    synced.overwrite(fd.world, None, [GAME, GUILD_ONLY])
    synced.overwrite(fd.world, fd.guild_id, [{**GAME, "name": "dev"}])
    group = fd.add_group_dm("friends", alice, bob)
    with pytest.raises(PermissionError, match="only the installer"):
        await fd.slash(bob, group, "game")  # a friend in the installer's group DM
    with pytest.raises(PermissionError, match="declares installs"):
        await fd.slash(alice, group, "admin")  # no user install, no private channel
    with pytest.raises(PermissionError, match="server"):
        await fd.slash(alice, group, "dev")  # a server's own command
    elsewhere = fd.add_foreign_guild("Elsewhere", "games", alice)
    with pytest.raises(PermissionError, match="did not install"):
        await fd.slash(bob, elsewhere, "game")
