"""The stand-in, checked with a small in-process discord.py bot (tests/e2e/demo_bot.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import discord.gateway
import discord.http
import pytest

from bot.playground.fakediscord import FakeDiscord, FakeUser, NotVisible, gather_clicks
from bot.process.api_base import apply_api_base
from tests.e2e.demo_bot import DemoBot


@dataclass
class Env:
    fd: FakeDiscord
    bot: DemoBot
    alice: FakeUser
    bob: FakeUser


@pytest.fixture
async def env(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Env]:
    fd = FakeDiscord()
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    await fd.start()
    # Restored after the test: apply_api_base changes discord.py's class attributes.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway_cls = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway_cls, "DEFAULT_GATEWAY", gateway_cls.DEFAULT_GATEWAY)
    apply_api_base(fd.base_url)
    bot = DemoBot(fd.guild_id)
    task = asyncio.create_task(bot.start(fd.token))
    try:
        await fd.wait_ready()
        await fd.wait_commands("demo", "ping", "find")
        yield Env(fd, bot, alice, bob)
    finally:
        await bot.close()
        await asyncio.gather(task, return_exceptions=True)
        await fd.stop()


async def test_bot_connects_and_syncs_global_and_guild_commands(env: Env) -> None:
    fd = env.fd
    assert fd.gateway.identifies == 1
    assert {c["name"] for c in fd.world.commands[fd.guild_id]} == {"demo", "find"}
    assert [c["name"] for c in fd.world.commands[None]] == ["ping"]
    demo = next(c for c in fd.commands() if c["name"] == "demo")
    assert {o["name"] for o in demo["options"]} >= {"secret", "counter", "slow", "form"}
    assert env.bot.application_id == fd.world.app_id
    guild = env.bot.get_guild(fd.guild_id)
    # Without the members intent only the bot's own member is sent, as on Discord.
    assert guild is not None and guild.member_count == 3
    assert [m.name for m in guild.members] == ["tablebot"]
    assert fd.unknown_routes == []


async def test_resync_keeps_command_ids(env: Env) -> None:
    before = {c["name"]: c["id"] for c in env.fd.commands()}
    await env.bot.tree.sync(guild=env.bot.guild)
    assert {c["name"]: c["id"] for c in env.fd.commands()} == before


async def test_public_reply_is_seen_in_the_channel_with_options(env: Env) -> None:
    fd = env.fd
    record = await fd.slash(env.alice, fd.general, "ping", mood="sad", times=3)
    assert record.callback_type == 4 and not record.ephemeral
    assert record.data["id"] == next(c["id"] for c in fd.commands() if c["name"] == "ping")
    message = fd.latest_public(fd.general)
    assert message is not None and message.content == "pong (sad) x3"
    assert message.type == 20 and message.interaction_id == record.id
    assert record.latency is not None and record.latency >= 0
    assert fd.ephemerals(env.alice) == []


async def test_slash_options_are_checked_against_the_synced_schema(env: Env) -> None:
    fd = env.fd
    with pytest.raises(ValueError, match="not one of"):
        await fd.slash(env.alice, fd.general, "ping", mood="angry")
    with pytest.raises(ValueError, match="no option"):
        await fd.slash(env.alice, fd.general, "ping", colour="red")
    with pytest.raises(ValueError, match="name a subcommand"):
        await fd.slash(env.alice, fd.general, "demo")
    with pytest.raises(LookupError):
        await fd.slash(env.alice, fd.general, "nosuch")


async def test_ephemeral_is_seen_only_by_its_user_and_button_updates_it(env: Env) -> None:
    fd, alice, bob = env.fd, env.alice, env.bob
    record = await fd.slash(alice, fd.general, "demo secret")
    assert record.ephemeral
    message = fd.latest_ephemeral(alice)
    assert message is not None and message.content == "a secret for you"
    assert fd.ephemerals(bob) == [] and fd.public(fd.general) == []
    assert message.custom_ids() == ["secret:reveal"]
    with pytest.raises(NotVisible):
        await fd.click(bob, message, "secret:reveal")

    click = await fd.click_label(alice, message, "Reveal")
    assert click.callback_type == 7
    shown = fd.message(message)
    assert shown.content == "the secret is 42" and shown.components == []
    assert shown.ephemeral_for == alice.id and len(shown.versions) == 2
    assert any("secret is 42" in t for t in fd.texts_seen_by(alice))
    assert not any("secret" in t for t in fd.texts_seen_by(bob))
    assert not any("secret" in t for t in fd.public_texts())


async def test_dynamic_item_button_edits_the_public_message(env: Env) -> None:
    fd = env.fd
    await fd.slash(env.alice, fd.general, "demo counter")
    message = fd.latest_public(fd.general)
    assert message is not None
    await fd.click(env.bob, message, "counter:0")
    await fd.click(env.alice, message, "counter:1")
    current = fd.message(message)
    assert current.content == "count is 2" and current.custom_ids() == ["counter:2"]
    assert [v.content for v in current.versions] == ["count is 0", "count is 1", "count is 2"]
    with pytest.raises(NotVisible):
        await fd.click(env.alice, message, "counter:0")


async def test_simultaneous_clicks_are_all_delivered_and_answered(env: Env) -> None:
    fd = env.fd
    users = [env.alice, env.bob] * 10
    await fd.slash(env.alice, fd.general, "demo counter")
    message = fd.latest_public(fd.general)
    assert message is not None
    records = await gather_clicks(fd, users, message, "counter:0")
    assert len(records) == 20 and all(r.callback_type == 7 for r in records)
    assert len({r.id for r in records}) == 20
    # Every click saw the message as "counter:0", so every edit writes the same next state.
    assert fd.message(message).custom_ids() == ["counter:1"]
    assert len(fd.latencies()) == 21


async def test_deferred_reply_followups_and_original_edit(env: Env) -> None:
    fd, alice = env.fd, env.alice
    record = await fd.slash(alice, fd.general, "demo slow")
    assert record.callback_type == 5
    await fd.wait_for(lambda: len(record.followup_ids) == 2, what="two follow-ups")
    await fd.wait_for(lambda: any(c.method == "PATCH" for c in record.calls), what="edit")
    original = fd.message(record.original_message_id or 0)
    # The first follow-up after a "thinking" defer replaces the loading message.
    assert record.followup_ids[0] == original.id
    assert original.content == "done (edited)" and not original.loading
    assert [m.content for m in fd.public(fd.general)] == ["done (edited)"]
    assert [m.content for m in fd.ephemerals(alice)] == ["psst"]
    assert fd.ephemerals(env.bob) == []


async def test_a_thinking_answer_becomes_a_card_by_its_edit(env: Env) -> None:
    fd, alice = env.fd, env.alice
    record = await fd.slash(alice, fd.general, "demo card")
    assert record.callback_type == 5
    original = fd.message(record.original_message_id or 0)
    assert not original.card  # the loading message is not one (the flag is set on the edit)
    await fd.wait_for(lambda: not fd.message(original.id).loading, what="the edit")
    shown = fd.message(original.id)
    assert shown.card and shown.text == "a card" and fd.violations == []


async def test_channel_message_send_edit_and_fetch(env: Env) -> None:
    fd = env.fd
    record = await fd.slash(env.alice, fd.general, "demo announce", text=f"hi {env.bob.mention}")
    assert fd.message(record.original_message_id or 0).content == f"sent hi {env.bob.mention}!"
    posted = fd.public(fd.general)
    assert [m.content for m in posted] == [f"hi {env.bob.mention}!"]
    assert posted[0].interaction_id is None and posted[0].versions[0].content.endswith(">")
    assert fd.mentions_of(env.bob) == posted


async def test_modal_submit(env: Env) -> None:
    fd, alice = env.fd, env.alice
    shown = await fd.slash(alice, fd.general, "demo form")
    assert shown.callback_type == 9 and shown.modal is not None
    assert shown.modal["title"] == "Your answer"
    with pytest.raises(NotVisible):
        await fd.submit_modal(env.bob, shown, {"form:answer": "x"})
    submitted = await fd.submit_modal(alice, shown, {"form:answer": "forty-two"})
    assert submitted.callback_type == 4
    latest = fd.latest_public(fd.general)
    assert latest is not None and latest.content == f"{alice.mention} answered forty-two"


async def test_select_menu(env: Env) -> None:
    fd, alice = env.fd, env.alice
    await fd.slash(alice, fd.general, "demo pick")
    message = fd.latest_ephemeral(alice)
    assert message is not None
    with pytest.raises(ValueError, match="not among"):
        await fd.select(alice, message, "pick:colour", ["pink"])
    await fd.select(alice, message, "pick:colour", ["red", "blue"])
    assert fd.message(message).content == "picked red, blue"


async def test_autocomplete(env: Env) -> None:
    choices = await env.fd.autocomplete(env.alice, env.fd.general, "find", "word", word="ap")
    assert [c["value"] for c in choices] == ["apple", "apricot"]


async def test_refused_message_and_unknown_route_are_reported(env: Env) -> None:
    fd = env.fd
    record = await fd.slash(env.alice, fd.general, "demo refused")
    reply = fd.message(record.original_message_id or 0)
    assert reply.content == "too long: 400/50035; unknown route: 404"
    assert [c.status for c in record.calls] == [400, 200]
    assert fd.unknown_routes == [f"POST /api/v10/channels/{fd.general.id}/invites"]
    refused = record.calls[0].body
    assert refused["code"] == 50035 and refused["errors"]["data"]["content"]["_errors"][0][
        "code"] == "BASE_TYPE_MAX_LENGTH"
    [violation] = fd.take_violations()  # provoked on purpose: taken, so the test passes
    assert violation.paths() == ["data.content"]


async def test_second_callback_is_refused(env: Env) -> None:
    fd = env.fd
    record = await fd.slash(env.alice, fd.general, "ping")
    status = await _post_callback(fd, record.id, record.token)
    assert status == 400 and record.errors == ["second callback: interaction already acknowledged"]


async def test_bot_resumes_after_reconnect_and_reidentifies_after_invalid_session(
    env: Env,
) -> None:
    fd = env.fd
    await fd.reconnect_bot(resumable=True)
    await fd.wait_ready(count=2)
    assert fd.gateway.resumes == 1 and fd.gateway.identifies == 1
    await fd.slash(env.alice, fd.general, "ping")
    await fd.reconnect_bot(resumable=False)
    await fd.wait_for(lambda: fd.gateway.identifies == 2, what="a new IDENTIFY")
    await fd.wait_ready(count=3)
    record = await fd.slash(env.alice, fd.general, "ping")
    assert record.callback_type == 4


async def test_wrong_token_is_refused(env: Env) -> None:
    client = discord.Client(intents=discord.Intents.none())
    with pytest.raises(discord.LoginFailure):
        await client.login("bm90.dGhl.cmlnaHRfdG9rZW4")
    await client.close()


async def _post_callback(fd: FakeDiscord, interaction_id: int, token: str) -> int:
    import aiohttp

    url = f"{fd.base_url}/api/v10/interactions/{interaction_id}/{token}/callback"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json={"type": 4, "data": {"content": "again"}}) as response,
    ):
        return response.status
