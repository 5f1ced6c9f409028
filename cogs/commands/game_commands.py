"""/game new | status | hand | leave | cancel and /rules (loaded by ``cogs.table.extension``).

The cog takes the bot's services (``cogs.table_services.TableServices``): the game UIs, the
pictures, the bot levels offered, the publisher.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.records import errors
from bot.records.errors import TableError
from bot.records.session import Session, Status
from bot.sessions.deadlines import MAX_TURN_MINUTES
from cogs.click_context import enter
from cogs.clicks import table_clicks
from cogs.client_services import Interaction, is_moderator, player_id, refuse, send_private
from cogs.commands.game_option import GameOption, game_choices
from cogs.commands.game_threads import no_thread_here, open_in_thread, wants_thread
from cogs.commands.lobby_open import open_lobby, post_lobby
from cogs.i18n import command_mentions
from cogs.i18n.commands import L_
from cogs.i18n.interaction import channel_words, user_words
from cogs.i18n.reader_words import reply_words
from cogs.i18n.words import Words
from cogs.kit.channel_health import (
    missing_permissions,
    missing_thread_permissions,
    refusal_text,
)
from cogs.kit.keyed_locks import TABLE_MOVES
from cogs.kit.places import CONTEXTS, INSTALLS, place_id, tokens_only
from cogs.kit.server_settings import server_settings
from cogs.listeners.table_publisher import delete_quietly
from cogs.rendering.message_delivery import public_table
from cogs.rendering.replay_pages import MAX_SESSION_ID, export_command
from cogs.rendering.rules_pages import rules_page
from cogs.rendering.table_renders import table_render
from cogs.table_services import TableServices


def games_only_in(words: Words, channels: tuple[int, ...]) -> str:
    """The refusal of ``/game new`` outside the server's game channels."""
    places = ", ".join(f"<#{channel}>" for channel in channels)
    return words.ngettext(
        "On this server games start only in this channel: {channels}.",
        "On this server games start only in these channels: {channels}.",
        len(channels), channels=places,
    )


def channel_game(interaction: Interaction) -> Session:
    """The live session of the channel the command was used in; refused when there is none."""
    session = interaction.client.manager.in_channel(interaction.channel_id or 0)
    if session is None:
        raise errors.Refusal(errors.NO_GAME)
    return session


class GameCog(commands.Cog):
    """Lobby and table commands. Game choices come from the engines the manager was given;
    the rest from the bot's ``services``."""

    game = app_commands.Group(
        name=L_("command-name", "game"),
        description=L_("command-description", "Play a card game in this channel"),
        allowed_contexts=CONTEXTS, allowed_installs=INSTALLS,
    )

    def __init__(self, services: TableServices) -> None:
        self.services = services

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Every command of the cog starts with its context (``cogs.click_context``)."""
        enter(interaction, self.services)
        return True

    async def cog_unload(self) -> None:
        self.services.pictures.close()

    @commands.Cog.listener()
    async def on_app_commands_known(self, known: list[app_commands.AppCommand]) -> None:
        """The client synced or fetched the commands: texts now mention them by id."""
        command_mentions.remember(known)

    @game.command(name=L_("command-name", "new"),
                  description=L_("command-description", "Open a lobby for a game in this channel"))
    @app_commands.describe(
        game=L_("parameter-description", "Which game to play"),
        turn_minutes=L_("parameter-description",
                        "Minutes per move before a default move is played (0 = no limit)"),
        thread=L_("parameter-description",
                  "Play in a new thread of this channel (default: the server's setting)"),
        level=L_("parameter-description",
                 "Seat a bot of this level at once (solo TEN: your opponent)"),
    )
    @app_commands.rename(game=L_("parameter-name", "game"),
                         turn_minutes=L_("parameter-name", "turn_minutes"),
                         thread=L_("parameter-name", "thread"),
                         level=L_("parameter-name", "level"))
    @app_commands.choices(level=[
        app_commands.Choice(name=L_("choice-name", "easy"), value="easy"),
        app_commands.Choice(name=L_("choice-name", "normal"), value="normal"),
        app_commands.Choice(name=L_("choice-name", "expert"), value="expert"),
    ])
    async def new(
        self,
        interaction: Interaction,
        game: GameOption,
        turn_minutes: app_commands.Range[int, 0, MAX_TURN_MINUTES] | None = None,
        thread: bool | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        server = await server_settings(interaction.client, place_id(interaction))
        channel = interaction.channel
        if not server.allows_games_in(interaction.channel_id,
                                      getattr(channel, "parent_id", None)):
            words = await user_words(interaction)
            await refuse(interaction, games_only_in(words, server.channels))
            return
        # Where the bot is not in the channel every message rides on a token: no channel
        # permission to check, and no thread to open (asking for one is refused).
        reach_tokens = tokens_only(interaction)
        no_thread = no_thread_here(interaction, thread) if reach_tokens else None
        if no_thread is not None:
            await refuse(interaction, no_thread)
            return
        in_thread = not reach_tokens and wants_thread(interaction, thread, server.threads)
        app_permissions = getattr(interaction, "app_permissions", None)
        missing = [] if reach_tokens else missing_permissions(app_permissions)
        if in_thread:
            missing += missing_thread_permissions(app_permissions)
        if missing:
            await refuse(interaction, refusal_text(missing, reply_words(interaction)))
            return
        if turn_minutes is not None and not (
            type(turn_minutes) is int and 0 <= turn_minutes <= MAX_TURN_MINUTES
        ):  # Discord keeps it a whole number in range; a forged command need not
            await refuse(interaction, errors.Refusal(errors.BAD_TURN_MINUTES,
                                                     most=MAX_TURN_MINUTES))
            return
        minutes = server.turn_minutes if turn_minutes is None else turn_minutes
        bot_level = level.value if level is not None else None
        levels = self.services.bot_levels
        if bot_level is not None and bot_level not in levels:
            await refuse(interaction, errors.bad_bot_level(levels))
            return
        if in_thread:
            await open_in_thread(interaction, game, minutes, bot_level, hints=server.hints)
            return
        try:
            session = await open_lobby(interaction, interaction.channel_id or 0, game, minutes,
                                       bot_level, hints=server.hints)
            render = table_render(interaction.client, self.services, session,
                                  await channel_words(interaction))
        except TableError as err:
            await refuse(interaction, err)
            return

        async def answer(**kwargs: Any) -> discord.Message:
            await interaction.response.send_message(**kwargs)
            return await interaction.original_response()

        await post_lobby(interaction, session, render, answer, original=True)

    @new.autocomplete("game")
    async def _game_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        titles = {key: engine.title for key, engine in interaction.client.manager.engines.items()}
        return game_choices(titles, current)

    @game.command(name=L_("command-name", "status"),
                  description=L_("command-description", "Show this channel's table"))
    async def status(self, interaction: Interaction) -> None:
        try:
            session = channel_game(interaction)
        except TableError as err:
            await refuse(interaction, err)
            return
        manager = interaction.client.manager
        render = await public_table(interaction.client, self.services, session)
        await interaction.response.send_message(**render.send_kwargs())
        # The newest copy becomes the table message that later changes edit; the one it
        # replaces goes, so that one table is in the channel, at the bottom. The replaced one
        # is read in the session's turn: calls at once each delete the copy before theirs.
        message = await interaction.original_response()
        self.services.routes.hold(session.id, message.id, interaction, original=True)
        async with TABLE_MOVES.of(session.id):
            current = manager.get(session.id)
            old_id = current.table_message_id if current is not None else None
            try:
                moved = await manager.set_table_message(session.id, message.id)
            except TableError:  # the game ended meanwhile; the copy is right
                return
            if old_id is not None and old_id != message.id:
                await delete_quietly(self.services.routes, interaction.client, moved, old_id,
                                     f"the old table of session {session.id}")
            publisher = self.services.publisher
            if publisher is not None and publisher.on_moved is not None:
                await publisher.on_moved(moved)

    @game.command(
        name=L_("command-name", "hand"),
        description=L_("command-description",
                       "Show your own view of this channel's game (only you)"),
    )
    async def hand(self, interaction: Interaction) -> None:
        session = interaction.client.manager.in_channel(interaction.channel_id or 0)
        await table_clicks.show_hand(interaction, session)

    @game.command(
        name=L_("command-name", "leave"),
        description=L_("command-description",
                       "Leave this channel's lobby, or its game (a bot takes your seat)"),
    )
    async def leave(self, interaction: Interaction) -> None:
        try:
            session = channel_game(interaction)
            after = await interaction.client.manager.leave(session.id, player_id(interaction.user))
        except TableError as err:
            await refuse(interaction, err)
            return
        if after.status is Status.LOBBY or not after.is_live:
            words = await user_words(interaction)
            await interaction.response.send_message(words.gettext("You left the lobby."),
                                                    ephemeral=True)
            return
        words = await channel_words(interaction)
        await interaction.response.send_message(words.gettext(
            "{name} left the game; a bot plays their seat to the end.",
            name=interaction.user.display_name,
        ))

    @game.command(
        name=L_("command-name", "cancel"),
        description=L_("command-description",
                       "Close this channel's lobby or game without a result"),
    )
    async def cancel(self, interaction: Interaction) -> None:
        try:
            session = channel_game(interaction)
            await interaction.client.manager.cancel(
                session.id, player_id(interaction.user), moderator=is_moderator(interaction)
            )
        except TableError as err:
            await refuse(interaction, err)
            return
        words = await channel_words(interaction)
        await interaction.response.send_message(words.gettext("The table is closed."))

    @app_commands.command(
        name=L_("command-name", "rules"),
        description=L_("command-description", "Read a game's rules (only you see them)"),
    )
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(game=L_("parameter-description", "Which game"))
    @app_commands.rename(game=L_("parameter-name", "game"))
    async def rules(self, interaction: Interaction, game: GameOption) -> None:
        ui = self.services.uis.with_rules().get(game)
        if ui is None:
            await refuse(interaction, errors.unknown_game_refusal(game))
            return
        await send_private(interaction, rules_page(ui, 0, await user_words(interaction)))

    @rules.autocomplete("game")
    async def _rules_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        with_rules = self.services.uis.with_rules()
        return game_choices({key: ui.title for key, ui in with_rules.items()}, current)

    @game.command(
        name=L_("command-name", "export"),
        description=L_("command-description", "A finished game of this channel as a JSON file"),
    )
    @app_commands.describe(session=L_(
        "parameter-description", "The game's number (default: this channel's last finished)"
    ))
    @app_commands.rename(session=L_("parameter-name", "session"))
    async def export(
        self,
        interaction: Interaction,
        session: app_commands.Range[int, 1, MAX_SESSION_ID] | None = None,
    ) -> None:
        await export_command(interaction, session)
