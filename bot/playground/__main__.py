"""``python -m bot.playground``: try tablebot without Discord.

Starts the local Discord stand-in (the one the end-to-end tests use: gateway, REST,
interactions, Discord's specification and limits enforced) on loopback, the real bot process
(``python -m bot``) against it with SQLite in a data folder, and a web page that shows the
server as Discord would, where you act as any of the players."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import tempfile
from pathlib import Path

from aiohttp import web

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from bot.playground.web import Playground

LOOPBACK = "127.0.0.1"
PLAYER_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana")
CHANNELS = ("games", "lounge")  # besides #general


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot.playground",
        description="Play tablebot in your browser, without Discord: the real bot runs against "
        "a local Discord stand-in on 127.0.0.1 only, and a page shows its server.",
    )
    parser.add_argument("--port", type=int, default=8765,
                        help="the page's port on 127.0.0.1 (default 8765; 0: a free one)")
    parser.add_argument("--data", type=Path, default=None,
                        help="folder for the bot's SQLite database, kept after exit "
                        "(default: a temporary folder, removed at exit)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, len(PLAYER_NAMES) + 1),
                        metavar=f"2..{len(PLAYER_NAMES)}",
                        help="how many members you can act as (default 4; the first is the "
                        "server's admin)")
    parser.add_argument("--images", choices=("on", "off"), default="on",
                        help="pictures of the table and hands (default on)")
    parser.add_argument("--rate-limits", choices=("on", "off"), default="on",
                        help="Discord's rate limits in the stand-in (default on)")
    parser.add_argument("--bot-log", action="store_true",
                        help="print the bot process's log lines as they come")
    return parser.parse_args(argv)


async def serve(args: argparse.Namespace, data: Path) -> int:
    fd = FakeDiscord(rate_limits=args.rate_limits == "on")
    players = [fd.add_user(name, admin=index == 0)
               for index, name in enumerate(PLAYER_NAMES[:args.players])]
    for name in CHANNELS:
        fd.add_channel(name)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await fd.start()
    bot = BotProcess(fd, data, extra_env={"IMAGES": args.images}, keep_lines=2000)
    runner = web.AppRunner(Playground(fd, players).app(), access_log=None)
    try:
        print(f"playground: starting the bot (python -m bot) against the Discord stand-in at "
              f"{fd.base_url}; data in {data}", flush=True)
        await bot.start(timeout=60.0)
        await bot.wait_until(lambda: bool(fd.commands()), 60.0, "the bot's slash commands")
        await runner.setup()
        site = web.TCPSite(runner, LOOPBACK, args.port)
        await site.start()
        port = runner.addresses[0][1]
        print(f"playground: open http://{LOOPBACK}:{port}/ (listening on {LOOPBACK} only, "
              f"reachable from this computer alone); Ctrl+C stops it", flush=True)
        printed = 0
        while not stop.is_set() and bot.running:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)
            if args.bot_log:
                lines = list(bot.output)
                for line in lines[printed:]:
                    print(f"bot: {line}", flush=True)
                printed = len(lines)
        if not bot.running:
            print("playground: the bot exited; its last lines:\n" + "\n".join(
                list(bot.output)[-30:]), file=sys.stderr)
            return 1
        return 0
    finally:
        await bot.close()
        await runner.cleanup()
        await fd.stop()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.data is not None:
        args.data.mkdir(parents=True, exist_ok=True)
        return asyncio.run(serve(args, args.data.resolve()))
    with tempfile.TemporaryDirectory(prefix="tablebot-playground-") as folder:
        return asyncio.run(serve(args, Path(folder)))


if __name__ == "__main__":
    sys.exit(main())
