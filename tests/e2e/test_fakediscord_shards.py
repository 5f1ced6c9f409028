"""The stand-in's shards: several guilds, READY and GUILD_CREATE per shard, a guild's events
only on its shard's session, and the shard count of ``GET /gateway/bot``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.playground.fakediscord import FakeDiscord, commands


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.set_shard_count(2)
    fake.add_user("alice")
    async with fake:
        yield fake


async def identify(http: aiohttp.ClientSession, fd: FakeDiscord,
                   shard: list[int]) -> aiohttp.ClientWebSocketResponse:
    ws = await http.ws_connect(fd.base_url.replace("http", "ws", 1) + "/")
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == 10
    await ws.send_str(json.dumps({"op": 2, "d": {"token": fd.token, "intents": 1,
                                                  "shard": shard, "properties": {}}}))
    return ws


async def events(ws: aiohttp.ClientWebSocketResponse, count: int) -> list[dict[str, Any]]:
    return [json.loads((await ws.receive(timeout=5)).data) for _ in range(count)]


async def test_guilds_and_their_events_go_to_their_shard(fd: FakeDiscord) -> None:
    first = fd.add_guild("zero", shard=(0, 2))
    second = fd.add_guild("one", shard=(1, 2))
    assert (first >> 22) % 2 == 0 and (second >> 22) % 2 == 1
    on_first = fd.add_channel("games", guild_id=first)
    on_second = fd.add_channel("games", guild_id=second)
    main_shard = (fd.guild_id >> 22) % 2
    alice = next(iter(fd.world.users.values()))
    async with aiohttp.ClientSession() as http:
        answer = await http.get(fd.base_url + "/api/v10/gateway/bot",
                                headers={"Authorization": f"Bot {fd.token}"})
        assert (await answer.json())["shards"] == 2
        sockets = [await identify(http, fd, [0, 2]), await identify(http, fd, [1, 2])]
        for shard, ws in enumerate(sockets):
            mine = [g for g in (fd.guild_id, first, second) if (g >> 22) % 2 == shard]
            ready, *creates = await events(ws, 1 + len(mine))
            assert ready["t"] == "READY" and ready["d"]["shard"] == [shard, 2]
            assert [int(g["id"]) for g in ready["d"]["guilds"]] == mine
            assert [c["t"] for c in creates] == ["GUILD_CREATE"] * len(mine)
            assert [int(c["d"]["id"]) for c in creates] == mine
            channels = {int(ch["id"]) for c in creates for ch in c["d"]["channels"]}
            assert (on_first.id in channels) == (shard == 0)
            assert (on_second.id in channels) == (shard == 1)
        assert fd.gateway.shard_connected(0) and fd.gateway.shard_connected(1)

        # A slash command in each guild reaches only its shard's socket, naming its guild.
        commands.overwrite(fd.world, None, [{"name": "ping", "type": 1, "description": "p"}])
        for channel, shard in ((on_first, 0), (on_second, 1), (fd.general, main_shard)):
            await fd.slash(alice, channel, "ping", wait=False)
            (got,) = await events(sockets[shard], 1)
            assert got["t"] == "INTERACTION_CREATE"
            assert got["d"]["guild_id"] == str(fd.world.guild_of(channel))
            assert got["d"]["channel"]["guild_id"] == got["d"]["guild_id"]
            with pytest.raises(TimeoutError):
                await sockets[1 - shard].receive(timeout=0.2)
        for ws in sockets:
            await ws.close()
