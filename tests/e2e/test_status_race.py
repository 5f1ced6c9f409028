"""Issue 34 at the real bot: any number of ``/game status`` at once leave exactly one live
table in the channel (each call deletes the copy before its own), the one the game edits."""

from __future__ import annotations

import asyncio

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from tests.e2e.players import GameDb
from tests.e2e.scenario_support import assert_clean_log


async def test_ten_status_calls_at_once_leave_one_live_table(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    alice, bob, carol = guild.world.users.values()
    channel = guild.channel_named("split-table")
    opened = await guild.slash(alice, channel, "game new", game="split")
    assert opened.original_message_id is not None
    await guild.click_label(bob, opened.original_message_id, "Join")
    await guild.click_label(alice, opened.original_message_id, "Start")
    db = GameDb(live_bot.database_path)
    session = db.session_in(channel.id)

    def tables() -> list[int]:
        """Public messages of the channel that carry the table's "My hand" button."""
        return [m.id for m in guild.public(channel)
                if f"tb:hand:{session.id}" in m.custom_ids() and "your turn" not in m.text]

    for count in (2, 10):
        records = await asyncio.gather(*(
            guild.slash((alice, bob, carol)[n % 3], channel, "game status", wait=False)
            for n in range(count)))
        await asyncio.gather(*(guild.wait_response(r) for r in records))
        assert all(not r.ephemeral for r in records)
        await live_bot.wait_until(lambda: len(tables()) == 1, 20.0, "one live table")
        await live_bot.wait_until(
            lambda: db.session_in(channel.id).table_message_id == tables()[0], 20.0,
            "the live table is the stored one")
    assert_clean_log(live_bot)
