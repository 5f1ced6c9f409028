"""The messages as they are shown: a table or private render with its picture when the
server (public) or the person (private) has pictures on (``cogs.pictures``).

Every send and edit of a game's table or of a private view goes through these coroutines, so
the picture and the switch that turns it off are decided in one place. The picture's words
follow the language rules of ``cogs.i18n`` (public: the server's; private: the person's).
"""

from __future__ import annotations

import discord

from bot.client import TableBot
from bot.models import Session
from cogs.context import Interaction, game_uis
from cogs.game_ui import Attachment, Render
from cogs.i18n.interaction import private_words, public_words
from cogs.i18n.words import Words
from cogs.ids import TABLE_COG
from cogs.pictures import (
    Pictures,
    final_attachment,
    with_hand_picture,
    with_table_picture,
)
from cogs.rendering import table_render
from game.base import PlayerId

LANGUAGE_KEY = "language"  # the server and user setting of cogs.i18n


def pictures_of(client: TableBot) -> Pictures:
    """The table extension's pictures (``GameCog.pictures``)."""
    pictures = getattr(client.get_cog(TABLE_COG), "pictures", None)
    if not isinstance(pictures, Pictures):
        raise RuntimeError("the table extension (cogs.table) is not loaded")
    return pictures


async def public_picture_words(client: TableBot, session: Session) -> Words | None:
    """The words of the pictures on public messages about ``session`` (the server's
    language); None when the server has pictures off."""
    pictures = pictures_of(client)
    store = client.manager.store
    if not await pictures.public_on(store, session.guild_id):
        return None
    settings = await pictures.server_settings(store, session.guild_id)
    guild = client.get_guild(session.guild_id)
    return public_words(guild if isinstance(guild, discord.Guild) else None,
                        settings.get(LANGUAGE_KEY))


async def private_picture_words(interaction: Interaction, session: Session) -> Words | None:
    """The words of the pictures only the clicker sees; None when they have pictures off."""
    pictures = pictures_of(interaction.client)
    store = interaction.client.manager.store
    user_id = interaction.user.id
    if not await pictures.private_on(store, session.guild_id, user_id):
        return None
    settings = await pictures.user_settings(store, user_id)
    return private_words(interaction, settings.get(LANGUAGE_KEY))


async def public_table(client: TableBot, session: Session) -> Render:
    """The public table message of ``session``: its text render, with the table picture (the
    final picture once finished) when the server shows pictures."""
    render = table_render(client, session)
    words = await public_picture_words(client, session)
    ui = game_uis(client).ui(session.game)
    return await with_table_picture(pictures_of(client), ui, session, render, words)


async def table_copy(interaction: Interaction, session: Session) -> Render:
    """The table as only the clicker sees it (the Table button), by their picture choice."""
    client = interaction.client
    table = table_render(client, session)
    words = await private_picture_words(interaction, session)
    ui = game_uis(client).ui(session.game)
    return await with_table_picture(pictures_of(client), ui, session,
                                    Render(content=table.content, embeds=table.embeds), words)


async def private_view(
    interaction: Interaction, session: Session, viewer: PlayerId, render: Render
) -> Render:
    """``viewer``'s private ``render`` (their view or a next step of it) with their hand
    picture when they see pictures."""
    words = await private_picture_words(interaction, session)
    ui = game_uis(interaction.client).ui(session.game)
    return await with_hand_picture(pictures_of(interaction.client), ui, session, viewer,
                                   render, words)


async def final_picture(client: TableBot, session: Session) -> Attachment | None:
    """The final picture of finished ``session`` for a public final post (``final.png``; put
    it on the post with ``embed.set_image(url=attachment.url)`` and ``files=[attachment]``);
    None when the server has pictures off or the game's UI draws none. Rendered in the pool,
    cached like the table."""
    words = await public_picture_words(client, session)
    if words is None:
        return None
    ui = game_uis(client).ui(session.game)
    return await final_attachment(pictures_of(client), ui, session, words)
