"""The Discord client: opens the store, restores sessions, loads the cogs, syncs commands.

The Discord client of ``bot`` (with ``sharded_client``, ``client_ops``, ``api_base`` and
``__main__``, the only modules of ``bot`` that know Discord). It imports nothing from ``cogs``:
it loads them as discord.py extensions by name (:data:`EXTENSIONS`), and each extension's
``async def setup(bot)`` adds its cog. The table's subscribes one manager listener per named
place, in their one order (``cogs.features.Place``: the machine seats and the turn clock made
here among them), makes the notifier of the machine players and the turn clock and the
catch-up after a restart (:attr:`TableBot.catch_up`); each feature's cog registers its
controls, listeners and private add-on with the table in ``cog_load``. Cogs reach the process
through this typed client: ``interaction.client.manager``, ``.leaderboards``, ``.autoplay``,
``.turn_clock``, ``.daily``, and what the extensions share, ``.services``
(``cogs.table_services``), read once by each feature's extension.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timedelta
from typing import Any, TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.automation.autoplay import Autoplay
from bot.automation.decision_pool import DecisionPool
from bot.automation.season_watcher import SeasonWatcher
from bot.automation.turn_clock import TurnClock
from bot.daily.service import DailyDeals
from bot.ops.request_budget import RequestBudget, budget_for_share
from bot.ops.rest_trace import attempt_recorder, rest_trace
from bot.process import lean_answers, lean_dispatch, lean_interactions, message_events
from bot.process.client_ops import TrackedTree
from bot.process.env_settings import Settings
from bot.process.ownership import Ownership
from bot.process.sync_refusal import refusal_text
from bot.process.token_requests import TokenRequests
from bot.process.token_writes import LeanWrites, TokenWrites
from bot.rankings.leaderboard import Leaderboards
from bot.records.session import utcnow
from bot.reviews.pool import ReviewPool
from bot.reviews.reviewer import Reviewer
from bot.sessions.manager import SessionManager
from bot.store import Store, open_store
from game.base import Engine
from game.registry import engines as registry_engines

log = logging.getLogger(__name__)
lean_dispatch.install()  # the controls' clicks skip discord.py's rebuilding of the clicked view
lean_answers.install()  # a callback's answer is not parsed into a message the bot never reads
lean_interactions.install()  # an interaction's message is made as far as it is read

TREE_HASH_KEY = "command_tree_hash"
CLEAN_STOP_KEY = "clean_stop"  # meta: "1" after a clean shutdown, "0" while running
# Loaded in this order; the table extension loads each game's UI package (cogs.<game key>),
# then each feature registers with the table (cogs.features).
EXTENSIONS = (
    "cogs.table.extension", "cogs.hints.extension", "cogs.reviews.extension",
    "cogs.learn.extension", "cogs.daily.extension", "cogs.leaderboard.extension",
    "cogs.seasons.extension", "cogs.settings.extension", "cogs.admin.extension",
    "cogs.events.extension",
)
# After a restart: redraw the running tables, then (when the last stop was not clean, the
# argument) ping their awaited players again; set by the table extension.
CatchUp = Callable[[bool], Awaitable[int]]  # ping again? -> the tables redrawn
# What a click on one of the bot's controls calls, set by the table extension
# (cogs.click_context.dispatcher): the interaction, the control's kind, its parsed parts and a
# select's chosen values (None for a button).
ControlDispatch = Callable[
    [discord.Interaction[Any], Any, tuple[Any, ...], list[str] | None], Awaitable[None]]

# Gateway events the bot has no use for: it answers interactions and edits its own messages
# over REST, and counts the messages posted below a table (guild MESSAGE_CREATE / DELETE,
# ids only: ``cogs.listeners.table_watch``). No privileged intent (members, presences,
# message_content) is used.
_UNNEEDED_INTENTS = (
    "members", "presences", "message_content", "dm_messages", "reactions", "typing",
    "voice_states", "invites", "integrations", "webhooks", "emojis_and_stickers",
    "scheduled_events", "auto_moderation", "polls", "bans", "moderation",
)


def bot_intents() -> discord.Intents:
    intents = discord.Intents.default()
    for name in _UNNEEDED_INTENTS:
        if hasattr(intents, name):
            setattr(intents, name, False)
    intents.guild_messages = True
    return intents


class TableBot(commands.Bot):
    """``manager``, ``leaderboards``, ``autoplay`` (machine seats) and ``turn_clock`` exist
    once ``setup_hook`` ran (reading one before raises RuntimeError)."""

    def __init__(
        self, settings: Settings, *, engines: Mapping[str, Engine[Any, Any]] | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        # The shard set and its lease (bot.process.ownership).
        self.ownership = ownership or Ownership.whole()
        super().__init__(
            **self.ownership.shards.client_options(),
            command_prefix=commands.when_mentioned, intents=bot_intents(), help_command=None,
            # Nobody is pinged unless a message names them (turn pings, reminders).
            allowed_mentions=discord.AllowedMentions.none(),
            # Channel messages are counted by id, never kept: no message cache. No member is
            # cached or requested (interactions carry their member): no chunking at start
            # (already the default without the members intent; said so it stays so).
            max_messages=None, chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
            # Operations (bot.ops): each command's outcome, each REST call and 429 counted.
            tree_cls=TrackedTree, http_trace=rest_trace(),
        )
        # A message is only counted (``cogs.listeners.table_watch``), never parsed: no
        # ``message`` event, so ``commands.Bot`` processes none (the bot has no prefix commands).
        message_events.install(self._connection)
        self.settings = settings
        self._engines = engines
        # The globally-limited requests the cogs make wait here (GLOBAL_RATE_SHARE).
        self.budget: RequestBudget = budget_for_share(settings.global_rate_share)
        # The writes through an interaction's token, without discord.py's message objects, on
        # the process's own HTTP/1.1 wire (each attempt traced as discord.py's are).
        self.token_requests = TokenRequests(user_agent=self.http.user_agent,
                                            trace=attempt_recorder())
        self.token_writes: TokenWrites = LeanWrites(self.token_requests)
        self.store: Store | None = None
        self._manager: SessionManager | None = None
        self._leaderboards: Leaderboards | None = None
        self._autoplay: Autoplay | None = None
        # Expert moves' processes (bot.automation.decision_pool).
        self.decisions: DecisionPool | None = None
        # The expert's reviews of finished games (bot.reviews), in their own pool.
        self._reviews: Reviewer | None = None
        # The daily deal (bot.daily): its extension scores finished dailies.
        self._daily: DailyDeals | None = None
        self._turn_clock: TurnClock | None = None
        self._season_watcher: SeasonWatcher | None = None
        self._season_task: asyncio.Task[None] | None = None
        self.catch_up: CatchUp | None = None
        self.dispatch_control: ControlDispatch | None = None
        # What the extensions share (``cogs.table_services.TableServices``, set by the table
        # extension): the bot never reads it, and this module imports nothing of cogs.
        self.services: object | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._catch_up_task: asyncio.Task[None] | None = None
        self._restart_pings = False  # the last stop was not clean: ping awaited players again

    @property
    def manager(self) -> SessionManager:
        manager = self._manager  # _ready's check inline: read ~14 times an action (issue 42)
        if manager is None:
            return _ready(manager, "manager")
        return manager

    @property
    def leaderboards(self) -> Leaderboards:
        return _ready(self._leaderboards, "leaderboards")

    @property
    def autoplay(self) -> Autoplay:
        return _ready(self._autoplay, "autoplay")

    @property
    def reviews(self) -> Reviewer:
        return _ready(self._reviews, "reviews")

    @property
    def daily(self) -> DailyDeals:
        return _ready(self._daily, "daily")

    @property
    def turn_clock(self) -> TurnClock:
        return _ready(self._turn_clock, "turn_clock")

    @property
    def season_watcher(self) -> SeasonWatcher:
        return _ready(self._season_watcher, "season_watcher")

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # An event nobody listens to is not dispatched (bot.process.lean_interactions).
        if lean_interactions.heard(self, event_name):
            super().dispatch(event_name, *args, **kwargs)

    def clock(self) -> datetime:
        """The process's clock: UTC now, shifted by ``CLOCK_OFFSET_SECONDS`` (tests only)."""
        now = utcnow()
        offset = self.settings.clock_offset_seconds
        return now + timedelta(seconds=offset) if offset else now

    async def setup_hook(self) -> None:
        engines = dict(self._engines) if self._engines is not None else registry_engines()
        self.store = await open_store(self.settings.database, fence=self.ownership.fence)
        # "0" while a process runs; close() writes "1" once its posts went out.
        clean_stop = self.ownership.shards.meta_key(CLEAN_STOP_KEY)
        self._restart_pings = await self.store.get_meta(clean_stop) == "0"
        await self.store.set_meta(clean_stop, "0")
        if self._restart_pings:
            log.info("the last stop was not clean: awaited players are pinged again")
        manager = self._manager = SessionManager(
            self.store,
            engines,
            idle_after=timedelta(days=self.settings.session_idle_days),
            turn_minutes=self.settings.turn_minutes,
            game_seed=self.settings.game_seed,
            clock=self.clock,
        )
        await manager.restore(shards=self.ownership.shards)
        self._leaderboards = Leaderboards(
            self.store, min_games=self.settings.leaderboard_min_games, clock=self.clock
        )
        # The seasons extension sets its notifier (the end-of-season post).
        self._season_watcher = SeasonWatcher(
            self.store, self._leaderboards, list(engines), clock=self.clock,
            shards=self.ownership.shards,
        )
        self.decisions = DecisionPool(
            self.settings.expert_workers, self.settings.expert_deadline_ms / 1000
        )
        self._autoplay = Autoplay(manager, decisions=self.decisions)
        secret = self.settings.daily_secret
        self._daily = DailyDeals(manager, secret=secret.get_secret_value() if secret else None,
                                 clock=self.clock)
        self._reviews = Reviewer(
            self.store, ReviewPool(self.settings.review_workers),
            self.settings.review_cpu_seconds, self.clock, shards=self.ownership.shards,
            at_end=self.settings.review_at_end, backlog=self.settings.review_backlog,
        )
        self._turn_clock = TurnClock(manager)
        for name in EXTENSIONS:
            await self.load_extension(name)  # the table extension subscribes the listeners
        await self.sync_commands()
        self.autoplay.resume()  # bot turns that were pending when the process stopped
        self.reviews.start()
        await self.reviews.resume()  # reviews a stop or a crash left pending
        self._catch_up_task = asyncio.create_task(self._catch_up(), name="table-catch-up")
        self._clock_task = asyncio.create_task(self.turn_clock.run(), name="turn-clock")
        self._season_task = asyncio.create_task(self._watch_seasons(), name="season-watcher")

    async def _watch_seasons(self) -> None:
        # The post names channels and roles of guilds the gateway delivers: wait for them.
        await self.wait_until_ready()
        await self.season_watcher.run()

    async def _catch_up(self) -> None:
        if self.catch_up is not None:
            redrawn = await self.catch_up(self._restart_pings)
            log.info("catch-up after the start done: %d table(s) redrawn", redrawn)
        self._restart_pings = False  # done: a clean stop from now on needs no second round

    def command_tree_hash(self) -> str:
        payload = sorted(
            (command.to_dict(self.tree) for command in self.tree.get_commands()),
            key=lambda data: data["name"],
        )
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    async def sync_commands(self) -> bool:
        """Sync to DEV_GUILD_ID, or globally only when the tree changed; True when synced.

        A sync Discord refuses (or that cannot reach it) never stops the bot: one ERROR line
        says what was refused, the commands Discord already holds stay in force, and the tree
        is not recorded as synced, so the next start tries again."""
        assert self.store is not None
        if not self.ownership.shards.syncs_commands:
            await self._learn_commands()
            return False  # the owner of shard 0 syncs them
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            if not await self._sync(guild):
                await self._learn_commands()
                return False
            log.info("commands synced to guild %s", self.settings.dev_guild_id)
            return True
        digest = self.command_tree_hash()
        if await self.store.get_meta(TREE_HASH_KEY) == digest:
            log.info("command tree unchanged; no global sync")
            await self._learn_commands()
            return False
        if not await self._sync(None):
            await self._learn_commands()  # the commands Discord holds still have their ids
            return False
        await self.store.set_meta(TREE_HASH_KEY, digest)
        log.info("commands synced globally")
        return True

    async def _learn_commands(self) -> None:
        """Fetch the registered global commands and say their ids (``on_app_commands_known``)
        when no sync returned them; texts mention commands as ``</game new:id>``."""
        guild = (discord.Object(id=self.settings.dev_guild_id) if self.settings.dev_guild_id
                 else None)
        try:
            commands = await self.tree.fetch_commands(guild=guild)
        except (discord.DiscordException, aiohttp.ClientError, TimeoutError) as err:
            log.warning("could not fetch the registered commands (%s); texts name them as"
                        " plain /commands", type(err).__name__)
            return
        await self._commands_known(commands)

    async def _commands_known(self, commands: list[app_commands.AppCommand]) -> None:
        """Hand the registered commands to the cogs' ``on_app_commands_known`` listeners, at
        once (no task: the texts sent right after the start already mention them)."""
        for listener in self.extra_events.get("on_app_commands_known", []):
            await listener(commands)

    async def _sync(self, guild: discord.abc.Snowflake | None) -> bool:
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as err:
            # discord.py keeps the body's ``errors`` object only as a private attribute.
            errors = getattr(err, "_errors", None)
            if err.status == 400 and err.code == 50035 and isinstance(errors, dict):
                # The same commands, in the same order, as the payload tree.sync sent.
                payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
                what = refusal_text(errors, payload)
            else:
                what = str(err.text or err).replace("\n", " ")
            verdict = "refused by Discord" if 400 <= err.status < 500 else "failed"
            log.error("command sync %s (HTTP %s, code %s): %s; the commands Discord holds "
                      "stay in force, the next start tries again",
                      verdict, err.status, err.code, what.rstrip("."))
            return False
        except (aiohttp.ClientError, TimeoutError) as err:
            log.error("command sync failed (%s: %s); the commands Discord holds stay in force, "
                      "the next start tries again", type(err).__name__, err)
            return False
        # The registration's ids, for command mentions in texts (the cogs listen).
        await self._commands_known(synced)
        return True

    async def close(self) -> None:
        """Let actions in flight finish and their posts go out, disconnect, then close the
        database."""
        if self._manager is not None:
            await self._manager.drain()
        if self._catch_up_task is not None:
            self._catch_up_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._catch_up_task
            self._catch_up_task = None
        if self._season_task is not None:
            self._season_task.cancel()
            # RuntimeError: a client that never logged in had no gateway to wait for.
            with contextlib.suppress(asyncio.CancelledError, RuntimeError):
                await self._season_task
            self._season_task = None
        if self._clock_task is not None:
            self._clock_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._clock_task
            self._clock_task = None
            await self.turn_clock.close()  # its last announcements go out
        if self._autoplay is not None:
            await self._autoplay.close()
        if self._reviews is not None:
            await self._reviews.close()  # a review under way stays pending: redone at start
        if self.decisions is not None:
            await self.decisions.close()  # waits for searches under way (each has a deadline)
        await self.budget.drain()  # the channel writes still waiting for their slot go out
        await super().close()
        await self.token_requests.close()
        if self.store is not None:
            # A catch-up cut short still owes its pings: then the next start sends them.
            await self.store.set_meta(self.ownership.shards.meta_key(CLEAN_STOP_KEY),
                                      "0" if self._restart_pings else "1")
            await self.store.close()
            self.store = None


Ready = TypeVar("Ready")


def _ready(value: Ready | None, name: str) -> Ready:
    if value is None:
        raise RuntimeError(f"TableBot.{name} exists once setup_hook ran")
    return value
