"""``python -m bot.rankings.rebuild_ratings``: recompute the stored leaderboard standings (counts
and OpenSkill ratings of every period) from the results rows, in one transaction.

The store does this by itself when it opens a database whose standings were computed with
another rating model (``bot.records.ratings.MODEL_ID``); run it by hand after changing the model in
a way MODEL_ID does not show, or to check a database. It reads DATABASE_URL (or
DATABASE_PATH) like the bot; no Discord token is needed. The bot may keep running meanwhile.

Exit codes: 0 done; 2 a setting or the database is unusable (one line on stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence

from bot.records.errors import ConfigError
from bot.records.ratings import MODEL_ID
from bot.store import check_database, open_store
from bot.store.database_settings import load_database_settings
from bot.store.database_url import DatabaseUrl, parse_database_url


async def rebuild(url: DatabaseUrl, guild_id: int | None, game: str | None) -> int:
    store = await open_store(url)
    try:
        return await store.rebuild_standings(guild_id, game)
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.rankings.rebuild_ratings",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="a DATABASE_URL (default: the bot's setting)")
    parser.add_argument("--guild", type=int, help="only this guild (with --game)")
    parser.add_argument("--game", help="only this game (with --guild)")
    args = parser.parse_args(argv)
    if (args.guild is None) != (args.game is None):
        parser.error("--guild and --game go together")
    try:
        url = (parse_database_url(args.database) if args.database
               else load_database_settings().database)
        check_database(url)
    except ValueError as err:
        print(f"rebuild_ratings: DATABASE_URL is invalid: {err}", file=sys.stderr)
        return 2
    except ConfigError as err:
        print(f"rebuild_ratings: {err}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    replayed = asyncio.run(rebuild(url, args.guild, args.game))
    scope = "all guilds and games" if args.guild is None else f"guild {args.guild}, {args.game}"
    print(f"rebuilt the standings of {scope} from {replayed:,} results rows in "
          f"{time.perf_counter() - started:.1f} s ({MODEL_ID}) on {url}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
