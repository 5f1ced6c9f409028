"""/game new | status | hand | leave | cancel and /rules (loaded by ``cogs.table``).

:class:`GameCog` also holds the game UI registry (:class:`cogs.game_ui.GameUIs`) that the
click handlers reach through ``cogs.context.game_uis``.
"""

from __future__ import annotations

import contextlib
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.deadlines import MAX_TURN_MINUTES
from bot.errors import TableError
from bot.manager import BOT_LEVELS
from bot.models import Session, Status
from cogs import handlers
from cogs.choices import GameOption, game_choices
from cogs.context import Interaction, is_moderator, player_id, refuse, seat_for, send_private
from cogs.ids import TableClicks
from cogs.registry import GameUIs
from cogs.rendering import table_render
from cogs.replay import MAX_SESSION_ID, ReplayCache, export_command
from cogs.rules import rules_page


def channel_game(interaction: Interaction) -> Session:
    """The live session of the channel the command was used in; refused when there is none."""
    session = interaction.client.manager.in_channel(interaction.channel_id or 0)
    if session is None:
        raise errors.Refusal(errors.NO_GAME)
    return session


class GameCog(commands.Cog):
    """Lobby and table commands. Game choices come from the engines the manager was given;
    ``uis`` is the game UI registry (``cogs.context.game_uis``)."""

    game = app_commands.Group(
        name="game", description="Play a card game in this channel", guild_only=True
    )

    def __init__(self, uis: GameUIs, bot_levels: tuple[str, ...] = BOT_LEVELS) -> None:
        self.uis = uis
        self.bot_levels = bot_levels  # the levels the lobby offers (``BOT_LEVELS``)
        self.clicks: TableClicks = handlers  # what the table controls call (cogs.ids)
        self.replays = ReplayCache()  # built replays, so paging does not rebuild (cogs.replay)

    @game.command(name="new", description="Open a lobby for a game in this channel")
    @app_commands.describe(
        game="Which game to play",
        turn_minutes="Minutes per move before a default move is played (0 = no limit)",
        level="Seat a bot of this level at once (solo TEN: your opponent)",
    )
    async def new(
        self,
        interaction: Interaction,
        game: GameOption,
        turn_minutes: app_commands.Range[int, 0, MAX_TURN_MINUTES] | None = None,
        level: Literal["easy", "normal", "expert"] | None = None,
    ) -> None:
        manager = interaction.client.manager
        try:
            if level is not None and level not in self.bot_levels:
                raise errors.Refusal(errors.bad_bot_level(self.bot_levels))
            session = await manager.open_lobby(
                interaction.guild_id or 0,
                interaction.channel_id or 0,
                game,
                seat_for(interaction.user),
                turn_minutes=turn_minutes,
            )
            if level is not None:
                session = await manager.add_bot(session.id, session.host_id, level)
            render = table_render(interaction.client, session)
        except TableError as err:
            await refuse(interaction, err.message)
            return
        try:
            await interaction.response.send_message(**render.send_kwargs())
        except discord.HTTPException:
            # A lobby nobody can see would block the channel: close it, then let the error
            # hook answer.
            with contextlib.suppress(TableError):
                await manager.cancel(session.id, session.host_id)
            raise
        message = await interaction.original_response()
        with contextlib.suppress(TableError):  # the lobby was closed meanwhile
            await manager.set_table_message(session.id, message.id)

    @new.autocomplete("game")
    async def _game_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        titles = {key: engine.title for key, engine in interaction.client.manager.engines.items()}
        return game_choices(titles, current)

    @game.command(name="status", description="Show this channel's table")
    async def status(self, interaction: Interaction) -> None:
        try:
            session = channel_game(interaction)
        except TableError as err:
            await refuse(interaction, err.message)
            return
        await interaction.response.send_message(
            **table_render(interaction.client, session).send_kwargs())
        # The newest copy becomes the table message that later changes edit.
        message = await interaction.original_response()
        with contextlib.suppress(TableError):  # the game ended meanwhile; the copy is right
            await interaction.client.manager.set_table_message(session.id, message.id)

    @game.command(name="hand", description="Show your own view of this channel's game (only you)")
    async def hand(self, interaction: Interaction) -> None:
        session = interaction.client.manager.in_channel(interaction.channel_id or 0)
        await handlers.show_hand(interaction, session)

    @game.command(
        name="leave", description="Leave this channel's lobby, or its game (a bot takes your seat)"
    )
    async def leave(self, interaction: Interaction) -> None:
        try:
            session = channel_game(interaction)
            after = await interaction.client.manager.leave(session.id, player_id(interaction.user))
        except TableError as err:
            await refuse(interaction, err.message)
            return
        if after.status is Status.LOBBY or not after.is_live:
            await interaction.response.send_message("You left the lobby.", ephemeral=True)
            return
        name = interaction.user.display_name
        await interaction.response.send_message(
            f"{name} left the game; a bot plays their seat to the end."
        )

    @game.command(name="cancel", description="Close this channel's lobby or game without a result")
    async def cancel(self, interaction: Interaction) -> None:
        try:
            session = channel_game(interaction)
            await interaction.client.manager.cancel(
                session.id, player_id(interaction.user), moderator=is_moderator(interaction)
            )
        except TableError as err:
            await refuse(interaction, err.message)
            return
        await interaction.response.send_message("The table is closed.")

    @app_commands.command(name="rules", description="Read a game's rules (only you see them)")
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: Interaction, game: GameOption) -> None:
        ui = self.uis.with_rules().get(game)
        if ui is None:
            await refuse(interaction, errors.unknown_game(game))
            return
        await send_private(interaction, rules_page(ui, 0))

    @rules.autocomplete("game")
    async def _rules_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices({key: ui.title for key, ui in self.uis.with_rules().items()},
                            current)

    @game.command(name="export", description="A finished game of this channel as a JSON file")
    @app_commands.describe(session="The game's number (default: this channel's last finished)")
    async def export(
        self,
        interaction: Interaction,
        session: app_commands.Range[int, 1, MAX_SESSION_ID] | None = None,
    ) -> None:
        await export_command(interaction, session)
