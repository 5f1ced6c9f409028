"""The Discord client: opens the store, restores sessions, loads the cogs, syncs commands."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.autoplay import Autoplay
from bot.leaderboard import Leaderboards
from bot.manager import SessionManager
from bot.ownership import Ownership
from bot.settings import Settings
from bot.store import Store
from bot.turn_clock import TurnClock
from cogs.unexpected import TableTree
from game.base import Engine

if TYPE_CHECKING:
    from cogs.publisher import TablePublisher
    from cogs.turn_ping import TurnPing

log = logging.getLogger(__name__)

TREE_HASH_KEY = "command_tree_hash"
CLEAN_STOP_KEY = "clean_stop"  # meta: "1" after a clean shutdown, "0" while running

# Gateway events the bot has no use for: it only answers interactions and edits its own
# messages over REST. No privileged intent (members, presences, message_content) is used.
_UNNEEDED_INTENTS = (
    "members", "presences", "message_content", "messages", "reactions", "typing",
    "voice_states", "invites", "integrations", "webhooks", "emojis_and_stickers",
    "scheduled_events", "auto_moderation", "polls", "bans", "moderation",
)


def bot_intents() -> discord.Intents:
    intents = discord.Intents.default()
    for name in _UNNEEDED_INTENTS:
        if hasattr(intents, name):
            setattr(intents, name, False)
    return intents


class TableBot(commands.Bot):
    """``services`` (manager + UIs), ``leaderboards``, ``autoplay`` (bot seats) and
    ``turn_clock`` exist once ``setup_hook`` ran."""

    def __init__(
        self, settings: Settings, *, engines: Mapping[str, Engine[Any, Any]] | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        self.ownership = ownership or Ownership.whole()  # shard set and lease (bot.ownership)
        super().__init__(
            **self.ownership.shards.client_options(),
            command_prefix=commands.when_mentioned, intents=bot_intents(), help_command=None,
            tree_cls=TableTree,
            # Nobody is pinged unless a message names them (turn pings, reminders).
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self._engines = engines
        self.store: Store | None = None
        self.manager: SessionManager | None = None
        self.autoplay: Autoplay | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._catch_up_task: asyncio.Task[int] | None = None
        self._restart_pings = False  # the last stop was not clean: ping awaited players again

    async def setup_hook(self) -> None:
        from cogs.dynamic import DYNAMIC_ITEMS
        from cogs.game_cog import GameCog
        from cogs.leaderboard_cog import LEADERBOARD_ITEMS, LeaderboardCog
        from cogs.publisher import TablePublisher
        from cogs.services import Services
        from cogs.split_announce import SplitAnnouncer
        from cogs.turn_ping import TurnPing
        from cogs.ui_registry import game_uis
        from game.registry import engines as registry_engines

        engines = dict(self._engines) if self._engines is not None else registry_engines()
        self.store = await Store.open(self.settings.database, fence=self.ownership.fence)
        # "0" while a process runs; close() writes "1" once its posts went out.
        clean_stop = self.ownership.shards.meta_key(CLEAN_STOP_KEY)
        self._restart_pings = await self.store.get_meta(clean_stop) == "0"
        await self.store.set_meta(clean_stop, "0")
        if self._restart_pings:
            log.info("the last stop was not clean: awaited players are pinged again")
        self.manager = SessionManager(
            self.store,
            engines,
            idle_after=timedelta(days=self.settings.session_idle_days),
            turn_minutes=self.settings.turn_minutes,
            game_seed=self.settings.game_seed,
        )
        await self.manager.restore(shards=self.ownership.shards)
        self.services = Services(manager=self.manager, uis=game_uis(engines))
        await self.add_cog(GameCog({key: engine.title for key, engine in engines.items()}))
        self.leaderboards = Leaderboards(
            self.store, min_games=self.settings.leaderboard_min_games
        )
        await self.add_cog(LeaderboardCog())
        self.add_dynamic_items(*DYNAMIC_ITEMS, *LEADERBOARD_ITEMS)
        publisher = TablePublisher(self, self.services)
        self.manager.subscribe(publisher.on_change)
        self.autoplay = Autoplay(self.manager, notifier=publisher)
        self.turn_clock = TurnClock(self.manager, notifier=publisher)
        self.manager.subscribe(self.autoplay.on_change)
        self.manager.subscribe(self.turn_clock.on_change)
        self.manager.subscribe(SplitAnnouncer(self, self.services).on_change)
        turn_ping = TurnPing(self, self.services)
        self.manager.subscribe(turn_ping.on_change)
        await self.sync_commands()
        self.autoplay.resume()  # bot turns that were pending when the process stopped
        self._catch_up_task = asyncio.create_task(
            self._catch_up(publisher, turn_ping), name="table-catch-up"
        )
        self._clock_task = asyncio.create_task(self.turn_clock.run(), name="turn-clock")

    async def _catch_up(self, publisher: TablePublisher, turn_ping: TurnPing) -> int:
        assert self.manager is not None
        then = turn_ping.ping_again if self._restart_pings else None
        redrawn = await publisher.catch_up(self.manager.live_sessions(), then=then)
        self._restart_pings = False  # done: a clean stop from now on needs no second round
        return redrawn

    def command_tree_hash(self) -> str:
        payload = sorted(
            (command.to_dict(self.tree) for command in self.tree.get_commands()),
            key=lambda data: data["name"],
        )
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    async def sync_commands(self) -> bool:
        """Sync to DEV_GUILD_ID, or globally only when the tree changed; True when synced."""
        assert self.store is not None
        if not self.ownership.shards.syncs_commands:
            return False  # the owner of shard 0 syncs them
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("commands synced to guild %s", self.settings.dev_guild_id)
            return True
        digest = self.command_tree_hash()
        if await self.store.get_meta(TREE_HASH_KEY) == digest:
            log.info("command tree unchanged; no global sync")
            return False
        await self.tree.sync()
        await self.store.set_meta(TREE_HASH_KEY, digest)
        log.info("commands synced globally")
        return True

    async def close(self) -> None:
        """Let actions in flight finish and their posts go out, disconnect, then close the
        database."""
        if self.manager is not None:
            await self.manager.drain()
        if self._catch_up_task is not None:
            self._catch_up_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._catch_up_task
            self._catch_up_task = None
        if self._clock_task is not None:
            self._clock_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._clock_task
            self._clock_task = None
            await self.turn_clock.close()  # its last announcements go out
        if self.autoplay is not None:
            await self.autoplay.close()
        await super().close()
        if self.store is not None:
            # A catch-up cut short still owes its pings: then the next start sends them.
            await self.store.set_meta(self.ownership.shards.meta_key(CLEAN_STOP_KEY),
                                      "0" if self._restart_pings else "1")
            await self.store.close()
            self.store = None
