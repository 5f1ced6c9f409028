"""Issue 15 at the real bot: a private view follows the game (edited through its interaction
token when its owner's turn comes), ``/game new`` refuses a channel where the bot may not
post, and a 403 mid-game is told privately on the next click."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from tests.e2e.players import HAND_ID, Choice, choices_on, use
from tests.e2e.test_scenario_split import new_play

# View channel, read history, use application commands: no Send Messages, Embed Links,
# Attach Files.
READ_ONLY = (1 << 10) | (1 << 16) | (1 << 31)


async def poll(predicate: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Wait for something the stand-in is not told about (the bot's log), checking often."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


def hand_button(choices: list[Choice]) -> Choice:
    return next(c for c in choices if HAND_ID.fullmatch(c.custom_id))


async def test_an_open_view_follows_the_game_and_a_403_is_told(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    alice, bob, _ = guild.world.users.values()
    table = new_play(guild, live_bot, 11)
    await table.open("split", alice, bob)
    first = table.oracle.awaiting()[0]
    waiting = bob if first == str(alice.id) else alice
    # The waiting player opens their view: no controls yet.
    opened = await use(guild, waiting, hand_button(choices_on(table.table())))
    assert opened.ephemeral and opened.original_message_id is not None
    view = guild.message(opened.original_message_id)
    assert "No moves for you now" in view.text and not view.interactive()
    before = len(view.versions)
    while table.oracle.awaiting() == [first]:
        await table.step()
    # Their turn came: the same ephemeral message now shows their controls at the current
    # version, edited through the interaction's webhook.
    await live_bot.wait_until(lambda: len(guild.message(view.id).versions) > before, 10.0,
                              "the followed view's edit")
    shown = guild.message(view.id)
    version = table.row().version
    assert "No moves for you now" not in shown.text and shown.interactive()
    assert all(c.version == version for c in choices_on(shown) if c.is_game_control)
    assert guild.calls_by_route()["PATCH /webhooks/{app_id}/{token}/messages/{message_id}"]

    # The channel now refuses the bot's posts: moves still work; the next click says why.
    # (What a click causes goes by its token, which the channel does not refuse (issue 32):
    # the tokens that can edit the table are past their 15 minutes, so its edit goes through
    # the channel.)
    guild.forbid_channel(table.channel)
    table_id = table.table().id
    for record in guild.interactions:
        if table_id in (record.original_message_id, *record.followup_ids):
            guild.expire_token(record)
    table.private[str(waiting.id)] = view.id
    choice = table.strategy.choose(table.current_choices(shown, version))
    record = await use(guild, waiting, choice)
    assert record.callback_type == 7
    await poll(lambda: "403 missing permissions" in live_bot.log_text(), "the 403 warning")
    again = await use(guild, waiting, hand_button(choices_on(table.table())))
    await poll(lambda: any("can no longer post" in guild.message(m).text
                           for m in [*again.followup_ids, again.original_message_id] if m),
               "the private note about the channel")
    assert live_bot.log_text().count("403 missing permissions") == 1


async def test_game_new_refuses_where_the_bot_may_not_post(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    alice = next(iter(guild.world.users.values()))
    channel = guild.channel_named("ten-table")
    guild.set_bot_permissions(channel, READ_ONLY)
    refused = await guild.slash(alice, channel, "game new", game="ten")
    assert refused.ephemeral and refused.original_message_id is not None
    text = guild.message(refused.original_message_id).text
    for name in ("Send Messages", "Embed Links", "Attach Files"):
        assert f"**{name}**" in text
    assert "View Channel" not in text
    assert guild.public(channel) == []


async def test_a_view_whose_token_aged_out_is_left_alone(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    alice, bob, _ = guild.world.users.values()
    table = new_play(guild, live_bot, 11)
    await table.open("split", alice, bob)
    first = table.oracle.awaiting()[0]
    waiting = bob if first == str(alice.id) else alice
    opened = await use(guild, waiting, hand_button(choices_on(table.table())))
    assert opened.original_message_id is not None
    view = guild.message(opened.original_message_id)
    shown_before = len(view.versions)
    guild.expire_token(opened)  # as after Discord's 15 minutes; the players' new clicks work
    while table.oracle.awaiting() == [first]:
        await table.step()
    # The bot tries to edit the view when its owner's turn comes; the stand-in refuses (401).
    await live_bot.wait_until(
        lambda: any(c.status == 401 and opened.token in c.path for c in guild.world.calls),
        10.0, "the refused edit of the aged-out view",
    )
    # The view stays as it was and nothing crashed; the table's button opens a fresh view
    # with the controls.
    assert len(guild.message(view.id).versions) == shown_before
    fresh = await use(guild, waiting, hand_button(choices_on(table.table())))
    assert fresh.original_message_id is not None
    assert guild.message(fresh.original_message_id).interactive()
    assert "Traceback" not in live_bot.log_text()
