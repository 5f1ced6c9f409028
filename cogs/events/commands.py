"""``/event new`` (a Swiss tournament or an arena) and the event post's buttons (Join,
Leave or Withdraw, Cancel); the cog registers the feature (its buttons, its listener at
``Place.EVENTS``) and runs the schedule's tick (``bot.events.service.EventService.tick``)
while the process runs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.events.service import (
    MAX_ARENA_MINUTES,
    MAX_ROUNDS,
    EventRefusal,
    EventRefused,
    EventService,
)
from bot.process.client import TableBot
from bot.records import errors
from bot.records.events import Event, EventFormat, EventSettings, EventStatus
from cogs.click_context import enter
from cogs.client_services import Interaction, Refusable, player_id, refuse
from cogs.commands.game_option import GameOption, game_choices
from cogs.events.controls import EventAction, EventButton
from cogs.events.host import DiscordEventHost
from cogs.events.renders import event_embed, event_view, history_value, record_value
from cogs.features import Feature, Place, StatsField
from cogs.i18n.commands import L_
from cogs.i18n.interaction import channel_words, server_words, user_words
from cogs.i18n.messages import N_
from cogs.i18n.words import Words
from cogs.kit.discord_limits import clip
from cogs.kit.server_settings import server_settings
from cogs.table_services import TableServices
from game.base import PlayerId

log = logging.getLogger(__name__)

TICK_SECONDS = 2.0  # how often the schedule is looked at (start times, tables to open)
MAX_START_MINUTES = 7 * 24 * 60
NAME_MAX = 100
HISTORY_EVENTS = 5
ROUND_ESTIMATE_MINUTES = 30  # a Swiss round's length as the Discord event's end states it

NOT_ORGANISER = N_("Only members who may manage events (or have the server's event role) can"
                   " open or cancel one.")
NO_THREADS = N_("I cannot create threads in this channel, and every table of an event plays"
                " in its own thread. Give me Create Public Threads and Send Messages in"
                " Threads here, or open the event in another channel.")
NOT_SCHEDULED = N_("The event is open, but I could not add it to the server's Discord events:"
                   " I need the Manage Events permission for that.")
TOO_MANY_AT_TABLE = N_("{game} plays with at most {most} players at a table.")
REFUSALS: dict[EventRefusal, Refusable] = {
    EventRefusal.NO_EVENT: N_("That button belongs to no event of this server."),
    EventRefusal.OTHER_SERVER: N_("That button belongs to an event of another server."),
    EventRefusal.JOINED_ALREADY: N_("You have joined this event already."),
    EventRefusal.STARTED: N_("This event has started: registration is closed."),
    EventRefusal.NOT_JOINED: N_("You are not playing in this event."),
    EventRefusal.OVER: N_("This event is over."),
    EventRefusal.NOT_ALLOWED: NOT_ORGANISER,
}


async def may_organise(interaction: Interaction) -> bool:
    """Manage Events in this channel (an administrator has every permission), or the role the
    server set in ``/config event_role``."""
    permissions = interaction.permissions
    if permissions.manage_events or permissions.administrator:
        return True
    role = (await server_settings(interaction.client, interaction.guild_id or 0)).event_role
    return role is not None and any(r.id == role for r in getattr(interaction.user, "roles", []))


def takes_threads(interaction: Interaction) -> bool:
    """Whether the bot may start and post in public threads of the command's channel."""
    if not isinstance(interaction.channel, discord.TextChannel):
        return False
    allowed = interaction.app_permissions
    return bool(allowed.create_public_threads and allowed.send_messages_in_threads)


class EventsCog(commands.Cog):
    def __init__(self, client: TableBot, table: TableServices, service: EventService) -> None:
        self.client = client
        self.table = table
        self.service = service
        self.host = DiscordEventHost(client, table, service)
        service.host = self.host
        self._ticking: asyncio.Task[None] | None = None

    def feature(self) -> Feature:
        return Feature(
            "events",
            controls={EventButton: lambda ia, parts, _: self.button_click(ia, *parts)},
            listeners={Place.EVENTS: self.service.on_change},
            stats=self.stats,
            history=self.history,
        )

    async def stats(self, guild_id: int, player: PlayerId, games: Mapping[str, str],
                    words: Words) -> StatsField | None:
        """/stats: the person's finished events in this server (any game)."""
        record = await self.service.player_record(guild_id, player)
        if record.played == 0:
            return None
        return StatsField(words.gettext("Server events"), record_value(words, record))

    async def history(self, guild_id: int, channel_id: int,
                      words: Words) -> StatsField | None:
        """/history: the newest events opened in this channel, with their winners."""
        summaries = await self.service.channel_events(guild_id, channel_id, HISTORY_EVENTS)
        if not summaries:
            return None
        return StatsField(words.gettext("Events in this channel"),
                          history_value(words, summaries))

    async def cog_load(self) -> None:
        self.table.features.register(self.feature())

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """The schedule starts once the gateway delivered the servers (their channels take the
        tables' threads); a later READY (a new session) leaves it running."""
        if self._ticking is None:
            self._ticking = asyncio.create_task(self._tick(), name="event-schedule")

    async def cog_unload(self) -> None:
        if self._ticking is not None:
            self._ticking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticking

    async def _tick(self) -> None:
        while True:
            if not self.client.manager.closing:
                await self.service.tick()
            await asyncio.sleep(TICK_SECONDS)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        enter(interaction, self.table)
        return True

    event = app_commands.Group(
        name=L_("command-name", "event"),
        description=L_("command-description", "Server events: Swiss tournaments and arenas"),
        guild_only=True,
    )

    @event.command(name=L_("command-name", "new"),
                   description=L_("command-description",
                                  "Open a Swiss tournament or an arena in this channel"))
    @app_commands.describe(
        game=L_("parameter-description", "Which game"),
        format=L_("parameter-description", "How players are paired"),
        name=L_("parameter-description", "The event's name"),
        start_in=L_("parameter-description", "Minutes until the first round (10 by default)"),
        rounds=L_("parameter-description", "Swiss: how many rounds (3 by default)"),
        minutes=L_("parameter-description", "Arena: how many minutes it lasts (20 by"
                                            " default)"),
        players=L_("parameter-description", "Players per table (3 by default)"),
        turn_minutes=L_("parameter-description", "Minutes per move before the turn clock"
                                                 " plays (5 by default)"),
        bots=L_("parameter-description", "Bot seats fill short tables (off by default)"),
        scheduled=L_("parameter-description", "Also add it to the server's Discord events,"
                                              " with Discord's reminder (off by default)"),
    )
    @app_commands.rename(
        game=L_("parameter-name", "game"), format=L_("parameter-name", "format"),
        name=L_("parameter-name", "name"), start_in=L_("parameter-name", "start_in"),
        rounds=L_("parameter-name", "rounds"), minutes=L_("parameter-name", "minutes"),
        players=L_("parameter-name", "players"),
        turn_minutes=L_("parameter-name", "turn_minutes"), bots=L_("parameter-name", "bots"),
        scheduled=L_("parameter-name", "scheduled"),
    )
    @app_commands.choices(format=[
        app_commands.Choice(name=L_("choice-name", "swiss"), value="swiss"),
        app_commands.Choice(name=L_("choice-name", "arena"), value="arena"),
    ])
    async def new(self, interaction: Interaction, game: GameOption, format: str,
                  name: app_commands.Range[str, 1, NAME_MAX],
                  start_in: app_commands.Range[int, 0, MAX_START_MINUTES] = 10,
                  rounds: app_commands.Range[int, 1, MAX_ROUNDS] = 3,
                  minutes: app_commands.Range[int, 5, MAX_ARENA_MINUTES] = 20,
                  players: app_commands.Range[int, 2, 4] = 3,
                  turn_minutes: app_commands.Range[int, 1, 30] = 5,
                  bots: bool = False, scheduled: bool = False) -> None:
        engine = self.client.manager.engines.get(game)
        if engine is None:
            await refuse(interaction, errors.unknown_game_refusal(game))
            return
        if not await may_organise(interaction):
            await refuse(interaction, NOT_ORGANISER)
            return
        if not takes_threads(interaction):
            await refuse(interaction, NO_THREADS)
            return
        if players > engine.max_players:
            words = await server_words(self.client, interaction.guild_id or 0)
            await refuse(interaction, words.text(TOO_MANY_AT_TABLE, game=engine.title,
                                                 most=words.number(engine.max_players)))
            return
        created = await self.service.create(
            guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0,
            game=game, name=name.strip() or name, created_by=player_id(interaction.user),
            starts_at=self.service.clock() + timedelta(minutes=start_in),
            settings=EventSettings(rounds=rounds, per_table=players,
                                   turn_minutes=turn_minutes, bots=bots, minutes=minutes),
            format=EventFormat(format))
        words = await channel_words(interaction)
        view = event_view(words, created) or discord.ui.View()
        await interaction.response.send_message(
            embed=event_embed(words, created, engine.title, [], []), view=view)
        view.stop()
        message = await interaction.original_response()
        discord_event = await self._scheduled(interaction, created, start_in) \
            if scheduled else None
        await self.service.set_message(created, message.id, discord_event)
        log.info("event %s: %s %s opened at tables of %d", created.id, game, format, players)

    async def _scheduled(self, interaction: Interaction, event: Event,
                         start_in: int) -> int | None:
        """The event in the server's Discord events (an external one, located in its
        channel), so members get Discord's own reminder; None, with a private note, when
        Discord refuses (the bot needs Manage Events for it)."""
        guild = self.client.get_guild(event.guild_id)
        starts = discord.utils.utcnow() + timedelta(minutes=max(start_in, 1))
        if event.format is EventFormat.ARENA:
            lasts = timedelta(minutes=event.settings.minutes)
        else:
            lasts = timedelta(minutes=ROUND_ESTIMATE_MINUTES * event.settings.rounds)
        channel = interaction.channel
        where = channel.mention if isinstance(channel, discord.TextChannel) else event.name
        if guild is not None:
            try:
                made = await guild.create_scheduled_event(
                    name=clip(event.name, 100), start_time=starts, end_time=starts + lasts,
                    entity_type=discord.EntityType.external,
                    privacy_level=discord.PrivacyLevel.guild_only, location=where)
                return made.id
            except discord.HTTPException as err:
                log.warning("event %s: Discord refused its scheduled event (%s)", event.id,
                            err.status)
        words = await user_words(interaction)
        await interaction.followup.send(words.text(NOT_SCHEDULED), ephemeral=True)
        return None

    @new.autocomplete("game")
    async def _game_choices(self, interaction: Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        titles = {key: engine.title for key, engine in self.client.manager.engines.items()}
        return game_choices(titles, current)

    # --- the event post's buttons ---------------------------------------------------------

    async def button_click(self, interaction: Interaction, action: EventAction,
                           event_id: int) -> None:
        guild_id = interaction.guild_id or 0
        me = player_id(interaction.user)
        try:
            if action is EventAction.CANCEL:
                event = await self.service.event_in(event_id, guild_id)
                if not (event.created_by == me or await may_organise(interaction)):
                    raise EventRefused(EventRefusal.NOT_ALLOWED)
                await interaction.response.defer()
                await self.service.cancel(event_id, guild_id)
                return
            if action is EventAction.JOIN:
                event = await self.service.join(event_id, guild_id, me,
                                                interaction.user.display_name)
            else:
                event = await self.service.leave(event_id, guild_id, me)
        except EventRefused as refused:
            await refuse(interaction, REFUSALS[refused.reason])
            return
        await self._redraw(interaction, event)

    async def _redraw(self, interaction: Interaction, event: Event) -> None:
        """Answer the click by redrawing the event post it was made on."""
        current = await self.service.store.load_event(event.id) or event
        words = await channel_words(interaction)
        players = await self.service.players(current.id)
        lines = await self.service.standing(current) \
            if current.status is not EventStatus.OPEN else []
        view = event_view(words, current)
        await interaction.response.edit_message(
            embed=event_embed(words, current, self.host.title(current), players, lines),
            view=view)
        if view is not None:
            view.stop()
