"""Issue 27: a command registration Discord refuses never stops the real bot.

The bot syncs globally (no DEV_GUILD_ID); after a release whose command tree changed, the
stand-in refuses the registration as Discord refuses a bad field. The bot names what was
refused in one ERROR line, keeps serving with the commands Discord already holds, does not
record the tree as synced, and the next start registers it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from tests.e2e.scenario_support import BOT_ENV

TREE_HASH_KEY = "command_tree_hash"  # bot.process.client's meta key
REFUSAL_LINE = (
    "command sync refused by Discord (HTTP 400, code 50035): /game export, option session, "
    "field max_value: NUMBER_TYPE_MAX int53 out of range"
)


def _recorded_tree(database: Path) -> str | None:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (TREE_HASH_KEY,)).fetchone()
    return None if row is None else str(row[0])


def _forget_tree(database: Path) -> None:
    """What a release with a changed command tree looks like to the next start."""
    with sqlite3.connect(database) as db:
        db.execute("DELETE FROM meta WHERE key = ?", (TREE_HASH_KEY,))


async def test_a_refused_sync_is_logged_the_bot_serves_and_the_next_start_retries(
    tmp_path: Path,
) -> None:
    fd = FakeDiscord()
    alice = fd.add_user("alice")
    async with fd:
        bot = BotProcess(fd, tmp_path / "bot", dev_guild=False, extra_env=BOT_ENV)
        try:
            await bot.start()
            await bot.wait_until(lambda: fd.world.command_syncs == 1, 20.0, "the global sync")
            held = [c["name"] for c in fd.world.commands[None]]
            assert "game" in held and _recorded_tree(bot.database_path) is not None
            assert await bot.terminate() == 0, bot.log_text()

            _forget_tree(bot.database_path)
            fd.refuse_command_sync("game", "max_value", option="export session",
                                   code="NUMBER_TYPE_MAX", message="int53 out of range")
            await bot.start()
            await bot.wait_until(lambda: REFUSAL_LINE in bot.log_text(), 20.0,
                                 "the ERROR line naming the refused field")
            # Texts mention the commands Discord holds, learnt by fetching them.
            game = next(c for c in fd.world.commands[None] if c["name"] == "game")
            none = await fd.slash(alice, fd.general, "game status")
            assert (none.callback_data or {}).get("content") == (
                f"There is no game in this channel. Open one with </game new:{game['id']}>.")
            record = await fd.slash(alice, fd.general, "game new", game="split")
            assert record.callback_type in (4, 5), record.errors
            lobby = await fd.wait_for(lambda: fd.latest_public(fd.general), 10.0,
                                      "the lobby the bot opened")
            assert lobby.interactive()
            log = bot.log_text()
            assert [line for line in log.splitlines() if "command sync" in line] == [
                line for line in log.splitlines() if REFUSAL_LINE in line
            ], log
            assert "ERROR" in next(line for line in log.splitlines() if REFUSAL_LINE in line)
            assert "Traceback" not in log, log
            assert fd.world.command_syncs == 1  # Discord kept what it held
            assert [c["name"] for c in fd.world.commands[None]] == held
            assert await bot.terminate() == 0, bot.log_text()
            assert _recorded_tree(bot.database_path) is None  # not recorded as synced

            fd.refuse_command_sync(None)
            await bot.start()  # READY comes after setup_hook, and so after its sync
            assert fd.world.command_syncs == 2, bot.log_text()
            assert _recorded_tree(bot.database_path) is not None
            assert "commands synced globally" in bot.log_text()
        finally:
            await bot.close()
