"""``python -m bot``: check the settings, then run the bot until SIGTERM/SIGINT.

Exit codes: 0 after a clean shutdown; 2 when a setting or the database path is unusable (one
line on stderr, no traceback).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

import discord

from bot.api_base import apply_api_base
from bot.errors import ConfigError
from bot.settings import Settings, load_settings
from bot.store import check_database

log = logging.getLogger("bot")


async def run(settings: Settings) -> None:
    from bot.client import TableBot

    bot = TableBot(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("signal received; shutting down")
            await bot.close()
        stopper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner  # re-raises a login failure


def main() -> int:
    try:
        settings = load_settings()
        check_database(settings.database)
    except ConfigError as err:
        print(f"tablebot: {err}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    apply_api_base(settings.discord_api_base_url)
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print("tablebot: DISCORD_TOKEN was refused by Discord", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
