"""The stand-in's rate limits (``fakediscord/ratelimit.py``), alone and against discord.py.

discord.py must wait on them, never error: it reads the bucket headers to wait before a bucket
runs dry, and sleeps ``retry_after`` on a 429 it could not foresee.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest

from bot.ops.metrics import Metrics
from bot.ops.request_budget import RequestBudget
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.ratelimit import Limits, RateLimiter, Verdict
from bot.process.api_base import apply_api_base
from tests.e2e.demo_bot import DemoBot

MESSAGES = "/channels/{channel_id}/messages"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limiter(**limits: float) -> tuple[RateLimiter, Clock]:
    clock = Clock()
    return RateLimiter(Limits(**limits), clock=clock), clock  # type: ignore[arg-type]


def check(lim: RateLimiter, method: str, path: str, template: str) -> Verdict:
    verdict = lim.check(method, path, template)
    assert verdict is not None, f"{method} {path} is not limited"
    return verdict


def post(lim: RateLimiter, channel: int = 1) -> Verdict:
    return check(lim, "POST", f"/api/v10/channels/{channel}/messages", MESSAGES)


def test_posts_and_edits_in_a_channel_share_five_per_five_seconds() -> None:
    lim, clock = limiter()
    answers = [post(lim) for _ in range(3)]
    answers += [
        check(lim, "PATCH", f"/api/v10/channels/1/messages/{i}", MESSAGES + "/{message_id}")
        for i in range(2)
    ]
    assert not any(a.limited for a in answers)
    last = answers[-1]
    assert last.headers["X-RateLimit-Limit"] == "5"
    assert last.headers["X-RateLimit-Remaining"] == "0"
    bucket = {a.headers["X-RateLimit-Bucket"] for a in answers}
    assert len(bucket) == 1, "posts and edits share one bucket hash"

    clock.now += 2.0
    refused = post(lim)
    assert refused.limited
    assert refused.scope == "user" and refused.retry_after == pytest.approx(3.0)
    assert refused.headers["Retry-After"] == "3"
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert refused.headers["Via"]  # without it discord.py takes a 429 for a Cloudflare ban
    assert refused.body() == {
        "message": "You are being rate limited.",
        "retry_after": 3.0,
        "global": False,
        "code": 0,
    }
    assert not post(lim, channel=2).limited  # another channel
    assert lim.limited == {"channel-messages": 1}

    clock.now += 3.0  # the window ended: five more
    assert [post(lim).limited for _ in range(6)] == [False] * 5 + [True]


def test_the_global_limit_counts_every_route_but_interactions() -> None:
    lim, clock = limiter(global_limit=4, global_window=1.0)
    for i in range(4):
        assert not check(lim, "GET", f"/api/v10/guilds/{i}", "/guilds/{guild_id}").limited
    # Interaction callbacks and interaction webhooks are not limited at all.
    assert lim.check("POST", "/api/v10/interactions/1/tok/callback", "") is None
    assert lim.check("PATCH", "/api/v10/webhooks/1/tok/messages/@original", "") is None
    refused = check(lim, "GET", "/api/v10/users/@me", "/users/@me")
    assert refused.limited and refused.scope == "global"
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.body()["global"] is True
    assert lim.limited == {"global": 1} and lim.total_limited == 1
    clock.now += 1.0
    assert not check(lim, "GET", "/api/v10/users/@me", "/users/@me").limited


def test_a_refused_request_does_not_use_up_the_global_limit() -> None:
    lim, _ = limiter(channel_writes=1, global_limit=3)
    assert not post(lim).limited
    assert [post(lim).limited for _ in range(5)] == [True] * 5
    assert not post(lim, channel=2).limited
    assert not post(lim, channel=3).limited
    assert post(lim, channel=4).scope == "global"


def test_limits_off_by_default_and_when_disabled() -> None:
    assert FakeDiscord().rest.limiter.enabled is False
    lim, _ = limiter(channel_writes=1)
    lim.enabled = False
    path = "/api/v10/channels/1/messages"
    assert lim.check("POST", path, MESSAGES) is None and lim.check("POST", path, MESSAGES) is None


# --- against discord.py ----------------------------------------------------------------------


@pytest.fixture
async def limited(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[FakeDiscord, DemoBot]]:
    # Short windows keep the test quick; the behaviour is the same as at 5 per 5 s.
    fd = FakeDiscord(rate_limits=Limits(channel_writes=3, channel_window=1.0))
    await fd.start()
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway_cls = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway_cls, "DEFAULT_GATEWAY", gateway_cls.DEFAULT_GATEWAY)
    apply_api_base(fd.base_url)
    bot = DemoBot(fd.guild_id)
    task = asyncio.create_task(bot.start(fd.token))
    try:
        await fd.wait_ready()
        await fd.wait_commands("demo")
        yield fd, bot
    finally:
        await bot.close()
        await asyncio.gather(task, return_exceptions=True)
        await fd.stop()


async def test_discord_py_waits_on_the_channel_bucket_instead_of_failing(
    limited: tuple[FakeDiscord, DemoBot],
) -> None:
    fd, bot = limited
    channel = bot.get_channel(fd.general.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await asyncio.gather(*(channel.send(f"message {i}") for i in range(7)))
    assert sorted(m.content for m in sent) == sorted(f"message {i}" for i in range(7))
    assert [m.content for m in fd.public(fd.general)] == [m.content for m in sent]
    # 7 posts at 3 per window, every one accepted at the first try: discord.py held them
    # back until the bucket had room (over three windows) instead of running into 429s.
    posts = [c for c in fd.world.calls if c.method == "POST" and c.route == MESSAGES]
    assert [c.status for c in posts] == [200] * 7
    assert fd.rate_limited["channel-messages"] == 0


async def test_discord_py_retries_after_an_unforeseen_429(
    limited: tuple[FakeDiscord, DemoBot],
) -> None:
    fd, bot = limited
    url = f"{fd.base_url}/api/v10/channels/{fd.general.id}/messages"
    headers = {"Authorization": f"Bot {fd.token}"}
    async with aiohttp.ClientSession() as http:  # another client drains the bucket first
        for i in range(4):
            async with http.post(url, json={"content": f"other {i}"}, headers=headers) as answer:
                assert answer.status == (429 if i == 3 else 200)
                if i == 3:
                    body = await answer.json()
                    assert body["retry_after"] > 0 and body["global"] is False
                    assert answer.headers["Retry-After"] and answer.headers["Via"]
    channel = bot.get_channel(fd.general.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("after the wait")
    assert fd.message(message.id).content == "after the wait"
    assert fd.rate_limited["channel-messages"] == 2  # the other client's and discord.py's


# --- the global limit against discord.py (issue 32) ------------------------------------------

GLOBAL_LIMIT = 5  # per second here; Discord's is 50
POSTS = 10


@pytest.fixture
async def global_limited(
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[FakeDiscord, DemoBot, list[discord.PartialMessageable]]]:
    # Roomy channel buckets: only the global limit can refuse a post.
    fd = FakeDiscord(rate_limits=Limits(channel_writes=100, channel_window=1.0,
                                        global_limit=GLOBAL_LIMIT, global_window=1.0))
    names = [fd.add_channel(f"room-{i}") for i in range(POSTS // 2)]
    await fd.start()
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway_cls = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway_cls, "DEFAULT_GATEWAY", gateway_cls.DEFAULT_GATEWAY)
    apply_api_base(fd.base_url)
    bot = DemoBot(fd.guild_id)
    task = asyncio.create_task(bot.start(fd.token))
    try:
        await fd.wait_ready()
        await fd.wait_commands("demo")
        channels = [bot.get_partial_messageable(c.id) for c in names]
        fd.rest.limiter.reset()
        yield fd, bot, channels
    finally:
        await bot.close()
        await asyncio.gather(task, return_exceptions=True)
        await fd.stop()


def global_429s(fd: FakeDiscord) -> list[Any]:
    return [c for c in fd.world.calls if c.status == 429 and c.body and c.body.get("global")]


async def test_the_global_limit_answers_429_and_discord_py_recovers(
    global_limited: tuple[FakeDiscord, DemoBot, list[discord.PartialMessageable]],
) -> None:
    fd, _, channels = global_limited
    sent = await asyncio.gather(*(channels[i % len(channels)].send(f"post {i}")
                                  for i in range(POSTS)))
    # More posts at once than the global limit allows: Discord's 429 (global: true, with its
    # retry_after), discord.py waits and sends again; every post arrives.
    refused = global_429s(fd)
    assert refused and fd.rate_limited["global"] == len(refused)
    assert all(c.body["retry_after"] > 0 for c in refused)
    assert sorted(m.content for m in sent) == sorted(f"post {i}" for i in range(POSTS))
    assert all(fd.message(m.id).content == m.content for m in sent)


async def test_within_the_processs_budget_the_global_limit_is_never_hit(
    global_limited: tuple[FakeDiscord, DemoBot, list[discord.PartialMessageable]],
) -> None:
    fd, _, channels = global_limited
    budget = RequestBudget(GLOBAL_LIMIT, metrics=Metrics())  # the share the stand-in allows

    async def post(index: int) -> discord.Message:
        return await budget.run(lambda: channels[index % len(channels)].send(f"post {index}"))

    sent = await asyncio.gather(*(post(i) for i in range(POSTS)))
    assert [m.content for m in sent] == [f"post {i}" for i in range(POSTS)]
    assert not global_429s(fd) and fd.rate_limited["global"] == 0
    assert budget.waited == POSTS - GLOBAL_LIMIT
