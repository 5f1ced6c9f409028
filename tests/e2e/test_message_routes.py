"""Issue 32 at the real bot: what a person's click causes goes through its interaction's token,
what a machine seat causes through the channel, and a token Discord no longer accepts falls back
to the channel without losing anything (``cogs.kit.message_routes``)."""

from __future__ import annotations

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import InteractionRecord, StoredMessage
from game.split import SplitEngine
from game.ten import TenEngine
from tests.e2e.players import Strategy
from tests.e2e.scenario_support import assert_clean_log
from tests.e2e.table_play import PING_MARK, TablePlay
from tests.e2e.test_scenario_split import split_rank, table_is_current
from tests.e2e.test_scenario_ten import ten_rank

STEPS = 80  # enough for both kinds of ping in a TEN game with a machine seat


def all_pings(fd: FakeDiscord, table: TablePlay) -> list[StoredMessage]:
    """Every turn ping the channel ever had (deleted ones included)."""
    return [m for m in fd.world.messages.values()
            if m.channel_id == table.channel.id and not m.ephemeral and PING_MARK in m.content]


def live_ping_of(fd: FakeDiscord, table: TablePlay, user_id: int) -> int | None:
    """The id of the live ping that mentions ``user_id`` (None: there is none)."""
    return next((m.id for m in all_pings(fd, table)
                 if user_id in m.mentions and not m.deleted), None)


async def ping_after_machine(fd: FakeDiscord, bot: BotProcess, table: TablePlay) -> int:
    """The id of the ping of the person the game awaits after a machine's move, once it is
    posted."""
    awaited = table.users[table.oracle.awaiting()[0]].id
    await bot.wait_until(lambda: live_ping_of(fd, table, awaited) is not None, 20.0,
                         "the ping after the machine's move")
    return live_ping_of(fd, table, awaited) or 0


def maker(fd: FakeDiscord, message_id: int) -> InteractionRecord | None:
    """The interaction whose token made ``message_id`` (None: a channel post)."""
    return next((r for r in fd.interactions if message_id in r.followup_ids), None)


async def test_a_persons_click_pings_by_token_a_machine_seats_move_by_channel(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    alice, bob, _ = guild.world.users.values()
    channel = guild.channel_named("ten-table")
    table = TablePlay(guild, live_bot, channel, TenEngine(), Strategy(ten_rank, seed=5))
    await table.open("ten", alice, bob, level="easy")
    after_machine: list[int] = []
    while table.steps < STEPS and not table.oracle.over:
        if table.oracle.awaiting()[0] in table.users:
            await table.step()
            continue
        await table.machine_moves()
        if table.oracle.over:
            break
        after_machine.append(await ping_after_machine(guild, live_bot, table))
    by_token = [m for m in all_pings(guild, table) if m.interaction_id is not None]
    by_channel = [m for m in all_pings(guild, table) if m.interaction_id is None]
    assert after_machine and by_token, "the game did not pass the turn both ways"
    # A ping after a machine's move has no click to ride on: a channel post. Every other ping
    # is a follow-up of the person's click that passed the turn.
    assert {m.id for m in by_channel} == set(after_machine)
    for ping in by_token:
        record = maker(guild, ping.id)
        assert record is not None and record.user.id not in ping.mentions
    assert_clean_log(live_bot)


async def test_tokens_discord_refuses_fall_back_to_the_channel(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    alice, bob, _ = guild.world.users.values()
    channel = guild.channel_named("split-table")
    table = TablePlay(guild, live_bot, channel, SplitEngine(), Strategy(split_rank, seed=9))
    table.checks.append(lambda: table_is_current(table))
    await table.open("split", alice, bob)
    while not table.pings() or maker(guild, table.pings()[0].id) is None:
        await table.step()
    ping = table.pings()[0]
    pinger = maker(guild, ping.id)
    assert pinger is not None
    # Both the ping's token and the token that holds the table end now (as 15 minutes after
    # their clicks on Discord).
    guild.expire_token(pinger)
    table_holder = next(r for r in reversed(guild.interactions)
                        if r.original_message_id == table.row().table_message_id)
    guild.expire_token(table_holder)
    old_table = table.row().table_message_id
    while not guild.message(ping.id).deleted:
        await table.step()
    deletes = [c for c in guild.world.calls
               if c.method == "DELETE" and c.route.startswith("/channels/")]
    refused = [c for c in guild.world.calls if c.status == 401]
    # Discord refused the old tokens once each at most; the old ping and (posted anew) the old
    # table were deleted through the channel; the game goes on with one live ping.
    assert refused and all(c.route.startswith("/webhooks/") for c in refused)
    assert any(str(ping.id) in c.path and c.status == 204 for c in deletes)
    assert table.row().table_message_id != old_table and guild.message(old_table or 0).deleted
    assert len(table.pings()) <= 1
    for _ in range(6):
        if table.oracle.over:
            break
        await table.step()
    table.run_checks()
    assert_clean_log(live_bot)
