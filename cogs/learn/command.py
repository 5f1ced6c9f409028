"""/learn game:<split|ten>: a guided first game against bot seats, on a private table
(``cogs.rendering.private_table``: the player's ephemeral message is its only surface).

The deal is fixed (``game.tutor.LEARN_DEALS``: chosen so that every rule comes up early) and
the bot seats play the normal level, as the deal's search assumed. Before each of the
player's decisions the tutor's comment stands above the table (``cogs.learn.tutor_render``,
the private table's add-on for the ``learn`` kind); running the command again resumes the
game, drawn from the stored state.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.records import errors
from bot.records.errors import TableError
from bot.records.session import Seat, Session, SessionKind
from bot.sessions.manager import SessionManager
from bot.sessions.transitions import bot_seat
from cogs.click_context import enter
from cogs.client_services import Interaction, player_id, refuse, seat_for
from cogs.commands.game_option import GameOption, game_choices
from cogs.features import Feature, PrivateExtras
from cogs.game_ui import TEACHES, GameUI, able
from cogs.i18n.commands import L_
from cogs.i18n.words import Words
from cogs.learn.tutor_progress import TutorCache
from cogs.learn.tutor_render import tutor_embeds
from cogs.rendering.private_table import send_private_table
from cogs.table_services import TableServices
from game.base import PlayerId
from game.tutor import LEARN_DEALS

BOT_LEVEL = "normal"  # the level game.registry.learn_deals searched the deals with


def learn_seats(game: str) -> tuple[Seat, ...]:
    """The bot seats of a /learn game (the learner takes the first seat)."""
    seats: tuple[Seat, ...] = ()
    for _ in range(LEARN_DEALS[game].seats - 1):
        seats = (*seats, bot_seat(seats, BOT_LEVEL))
    return seats


class LearnCog(commands.Cog):
    """``/learn``; its tutor is the ``learn`` kind's add-on to the private table's message."""

    def __init__(self, services: TableServices, manager: SessionManager) -> None:
        self.services = services
        self.manager = manager
        self.tutors = TutorCache()

    async def cog_load(self) -> None:
        self.services.features.register(
            Feature("learn", private={SessionKind.LEARN: self.addon}))

    def teaching(self) -> dict[str, GameUI]:
        """The games /learn teaches: a fixed deal, and a UI with the tutor's words."""
        return {ui.key: ui for ui in self.services.uis
                if ui.key in LEARN_DEALS and able(ui, TEACHES) is not None}

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Every command of the cog starts with its context (``cogs.click_context``)."""
        enter(interaction, self.services)
        return True

    async def addon(self, session: Session, viewer: PlayerId, words: Words) -> PrivateExtras:
        ui = self.services.uis.ui(session.game)
        teacher = able(ui, TEACHES)
        if teacher is None or viewer != session.host_id:
            return PrivateExtras()
        engine = self.manager.engine(session.game)
        tutor = await self.tutors.tutor(self.manager.store, engine, session, viewer)
        pages = getattr(ui, "rules_pages", ())
        return PrivateExtras(above=tutor_embeds(teacher, session, viewer, tutor, pages, words))

    @app_commands.command(
        name=L_("command-name", "learn"),
        description=L_("command-description",
                       "Learn a game by playing it, with a tutor (only you see it)"),
    )
    @app_commands.describe(game=L_("parameter-description", "Which game"))
    @app_commands.rename(game=L_("parameter-name", "game"))
    @app_commands.guild_only()
    async def learn(self, interaction: Interaction, game: GameOption) -> None:
        manager = self.manager
        if game not in self.teaching():
            await refuse(interaction, errors.unknown_game_refusal(game))
            return
        me = player_id(interaction.user)
        running = manager.private_of(me, SessionKind.LEARN, game)
        if running:
            await send_private_table(interaction, running[-1])
            return
        try:
            session = await manager.open_private(
                interaction.guild_id or 0, interaction.channel_id or 0, game,
                seat_for(interaction.user), learn_seats(game), kind=SessionKind.LEARN,
                seed=LEARN_DEALS[game].seed)
        except TableError as err:
            await refuse(interaction, err)
            return
        await send_private_table(interaction, session)

    @learn.autocomplete("game")
    async def _learn_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices({key: ui.title for key, ui in self.teaching().items()}, current)

