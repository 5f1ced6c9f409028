"""A game begun before the cards goes on after the upgrade (issue 41): the bot of the commit
before ``cogs/kit/card_layout.py`` (its tree, from git) opens a SPLIT table and plays a few
moves, its messages sent the old way (embeds, action rows, the picture as an embed image);
it is killed and this checkout's bot starts on the same database. Its first edit of the old
table turns that same message into a card (an edit may set the Components V2 flag when it
clears ``content`` and ``embeds``: discordjs/guide#1620, "Limitations"), the private views
opened before are turned into cards when clicked, the game ends with a card table and final
post, the turn pings stay ordinary messages, and the stand-in refuses nothing."""

from __future__ import annotations

import subprocess
import tarfile
from io import BytesIO
from pathlib import Path

import pytest

from bot.playground.botproc import REPO_ROOT, BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.fakediscord.model import StoredMessage
from tests.e2e.scenario_support import BOT_ENV, assert_clean_log
from tests.e2e.test_scenario_split import new_play

CARDS_MODULE = "cogs/kit/card_layout.py"
STEPS_BEFORE = 5


def before_the_cards(dest: Path) -> Path:
    """This repository's tree as it was just before the cards came (the parent of the commit
    that added :data:`CARDS_MODULE`), extracted under ``dest``."""
    try:
        added = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "log", "--format=%H", "--diff-filter=A", "-1", "--",
             CARDS_MODULE], capture_output=True, text=True, check=True).stdout.strip()
        archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", f"{added}^"],
                                 capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout with the cards' history")
    if not added:
        pytest.skip("the cards' module is not committed yet")
    dest.mkdir(parents=True)
    with tarfile.open(fileobj=BytesIO(archive)) as tree:
        tree.extractall(dest, filter="data")
    return dest


def is_ping(message: StoredMessage) -> bool:
    return bool(message.mentions) and not message.ephemeral


async def test_a_game_begun_with_embeds_goes_on_as_cards(guild: FakeDiscord,
                                                          tmp_path: Path) -> None:
    old = before_the_cards(tmp_path / "old")
    alice, bob, _ = guild.world.users.values()
    bot = BotProcess(guild, tmp_path / "bot",
                     extra_env={**BOT_ENV, "IMAGES": "on", "PYTHONPATH": str(old)})
    try:
        await bot.start()
        await bot.wait_until(lambda: guild.commands(), 20.0, "the command sync")
        table = new_play(guild, bot, seed=4)
        await table.open("split", alice, bob)
        for _ in range(STEPS_BEFORE):
            await table.step()
        before = table.table()
        assert not before.card and before.embeds, "the old bot sent an embed table"
        hands = [guild.message(m) for m in table.private.values()]
        assert hands and not any(hand.card for hand in hands)
        shown_before = {hand.id: len(hand.versions) for hand in hands}

        bot.extra_env.pop("PYTHONPATH")  # this checkout's bot from now on
        await table.restart_checked()
        upgraded = table.table()
        assert upgraded.id == before.id and upgraded.card and not upgraded.embeds
        assert not upgraded.content
        await table.play_to_end()

        assert table.table().card  # posted anew at the bottom meanwhile, or the same one

        def final_post() -> StoredMessage | None:
            return next((m for m in guild.public(table.channel)
                         if "tb:rematch" in str(m.components)), None)

        await bot.wait_until(final_post, 30.0, "the final post")
        post = final_post()
        assert post is not None and post.card
        # Every private view still shown was turned into a card by the clicks on it.
        clicked = [guild.message(hand.id) for hand in hands
                   if len(guild.message(hand.id).versions) > shown_before[hand.id]]
        assert clicked and all(hand.card for hand in clicked)
        pings = [m for m in guild.world.messages.values()
                 if is_ping(m) and m.channel_id == table.channel.id]
        assert pings and not any(ping.card for ping in pings)
        assert guild.violations == []
        assert_clean_log(bot)
    finally:
        await bot.close()
