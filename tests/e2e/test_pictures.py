"""Pictures at the real bot (issue 16): with ``IMAGES=on`` the public table message carries the
table picture as its embed's image and the private view the hand picture, each edit replacing
the old file; a server whose ``images`` setting is off gets the text alone. The stand-in
records every uploaded file and its size (``world.uploads``) and refuses files past Discord's
limits."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import StoredMessage
from bot.store import open_store
from cogs.kit.discord_limits import FILE_BYTES
from tests.e2e.scenario_support import assert_clean_log
from tests.e2e.table_play import TablePlay
from tests.e2e.test_scenario_split import new_play

STEPS = 6


def pictures_on(message: StoredMessage) -> list[str]:
    return [str(a["filename"]) for a in message.attachments]


def embed_image(message: StoredMessage) -> str | None:
    """The picture the message shows (a card's media item, issue 41)."""
    shown = message.pictures()
    return shown[0][0] if shown else None


async def play(guild: FakeDiscord, bot: BotProcess) -> TablePlay:
    alice, bob, _ = guild.world.users.values()
    table = new_play(guild, bot, seed=4)
    await table.open("split", alice, bob)
    for _ in range(STEPS):
        await table.step()
    return table


async def test_the_table_and_the_hand_show_their_pictures(
    guild: FakeDiscord, pictures_bot: BotProcess
) -> None:
    table = await play(guild, pictures_bot)
    message = table.table()
    await pictures_bot.wait_until(lambda: pictures_on(table.table()) == ["table.png"], 20.0,
                                  "the table picture")
    message = table.table()
    assert embed_image(message) == "attachment://table.png"
    assert "SPLIT · round" in message.text  # the text stays as the caption
    # Every edit replaced the picture: one file on the message, many uploaded over the game.
    tables = [u for u in guild.world.uploads if u.filename == "table.png"]
    assert len(tables) > 1
    assert all(0 < u.size < FILE_BYTES for u in guild.world.uploads)
    assert guild.world.attachments[int(message.attachments[0]["id"])][:8] == b"\x89PNG\r\n\x1a\n"
    # The private views the players used carry their hand picture.
    hands = [guild.message(m) for m in table.private.values()]
    assert hands
    await pictures_bot.wait_until(
        lambda: any(pictures_on(guild.message(h.id)) == ["hand.png"] for h in hands), 20.0,
        "a hand picture")
    for hand in hands:
        shown = guild.message(hand.id)
        if shown.attachments:
            assert embed_image(shown) == "attachment://hand.png"
    assert_clean_log(pictures_bot)


async def test_a_server_with_images_off_gets_the_text_alone(
    guild: FakeDiscord, pictures_bot: BotProcess
) -> None:
    store = await open_store(pictures_bot.database_path)
    try:
        await store.set_guild_setting(guild.guild_id, "images", "off", by="0",
                                      at=datetime.now(UTC))
    finally:
        await store.close()
    table = await play(guild, pictures_bot)
    assert table.table().attachments == []
    assert embed_image(table.table()) is None
    assert guild.world.uploads == []
    assert all(not guild.message(m).attachments for m in table.private.values())
    assert_clean_log(pictures_bot)


async def test_no_message_is_sent_again_the_picture_it_shows(
    guild: FakeDiscord, pictures_bot: BotProcess
) -> None:
    """A whole seeded game, its players clicking through their turns as soon as each answer
    arrives (as ``bench.action_cpu`` plays): no edit uploads onto a message the picture it
    carries already. Before issue 42's fourth pass, a player's view edited by their own click
    was edited again to the same version by the view follower (whose drawing had raced the
    click's), a fifth to a third of the hand pictures uploaded."""
    alice, bob, carol = guild.world.users.values()
    table = new_play(guild, pictures_bot, seed=4)
    await table.open("split", alice, bob, carol)
    await table.play_to_end(quick_runs=True)
    await pictures_bot.wait_until(
        lambda: any(u.filename == "final.png" for u in guild.world.uploads), 30.0,
        "the final picture")
    hands = [u for u in guild.world.uploads if u.filename == "hand.png"]
    assert len(hands) > 20
    assert [u for u in guild.world.uploads if u.unchanged] == []
    assert_clean_log(pictures_bot)
