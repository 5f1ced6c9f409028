"""Issue 20: the bot's gateway socket drops mid-game (no close frame), the bot RESUMEs.

Clicks made while the socket is down wait in the session and are replayed by sequence number
on RESUME, as Discord does. Checked: the bot resumed (no new IDENTIFY), every click during and
after the drop was answered exactly once and stored exactly once, and the bot posted nothing
twice (no message repeated, no second callback).
"""

from __future__ import annotations

import itertools

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord, InteractionRecord
from tests.e2e.scenario_support import assert_clean_log
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_split import new_play, table_is_current


async def step_during_drop(table: TablePlay, replayed: list[InteractionRecord]) -> None:
    """Cut the socket, then the awaited player clicks at once (before the bot can resume)."""
    fd = table.fd
    clicks_before = len(fd.interactions)
    await fd.drop_bot_gateway()
    assert not fd.gateway.connected
    await table.step()  # opens the hand if needed, then the move: both answered after RESUME
    made = fd.interactions[clicks_before:]
    assert made and not made[0].delivered, "the first click was not made while disconnected"
    replayed.extend(r for r in made if not r.delivered)


async def test_a_gateway_drop_mid_game_loses_no_click_and_posts_nothing_twice(
    guild: FakeDiscord, live_bot: BotProcess
) -> None:
    alice, bob, _ = guild.world.users.values()
    table = new_play(guild, live_bot, seed=5)
    table.checks.append(lambda: table_is_current(table))
    await table.open("split", alice, bob)
    identifies = guild.gateway.identifies
    replayed: list[InteractionRecord] = []

    async def drop() -> None:
        await step_during_drop(table, replayed)

    await table.play_to_end(at_step={10: drop, 30: drop, 50: drop})

    assert guild.gateway.drops == 3 and guild.gateway.resumes == 3
    assert guild.gateway.identifies == identifies, "the bot identified anew instead of resuming"
    assert replayed, "no click was replayed on RESUME"
    assert all(r.responded for r in replayed)
    # Every click answered once: a replayed click handled twice would be a second callback.
    assert [r for r in guild.interactions if r.errors] == []
    assert all(r.responded for r in guild.interactions)
    # Every move stored once: the oracle replays exactly the stored actions, one per step.
    assert table.oracle.matches_stored(table.row())
    assert len(table.oracle.actions) == table.steps
    assert table.row().status == "finished"
    await live_bot.wait_until(  # the final post goes out after the table's last edit
        lambda: any(cid.startswith("tb:rematch:") for m in guild.public(table.channel)
                    for cid in m.custom_ids()),
        20.0, "the final post")
    # What the bot posted (by channel or as follow-ups, issue 32), the table left out.
    posts = [m for m in guild.public(table.channel) if m.id != table.row().table_message_id]
    repeated = [(a.text, b.text) for a, b in itertools.pairwise(posts) if a.text == b.text]
    assert repeated == [], "a message was posted twice in a row"
    assert len([m for m in posts if "SPLIT — final result" in m.text]) == 1
    assert_clean_log(live_bot)
    assert guild.unknown_routes == []
    print(f"gateway drops: {len(replayed)} clicks replayed on RESUME, {table.steps} moves")
