"""The lobby message and the dispatch between lobby, closed and in-game table renders."""

from __future__ import annotations

import discord

from bot.models import Session, Status
from cogs.components import lobby_view
from cogs.game_ui import Render
from cogs.services import Services


def lobby_render(session: Session, title: str, min_players: int, max_players: int) -> Render:
    seats = "\n".join(
        f"{index}. {seat.display_name}{' (bot)' if seat.is_bot else ''}"
        f"{' — host' if seat.player_id == session.host_id else ''}"
        for index, seat in enumerate(session.seats, start=1)
    )
    embed = discord.Embed(title=f"{title} — lobby", colour=discord.Colour.blurple())
    embed.add_field(name=f"Seats ({len(session.seats)}/{max_players})", value=seats or "—",
                    inline=False)
    embed.add_field(name="Players", value=f"{min_players}–{max_players}")
    host = session.seat_of(session.host_id)
    embed.add_field(name="Host", value=host.display_name if host else session.host_id)
    embed.set_footer(text="Join, then the host starts the game.")
    return Render(embeds=[embed], view=lobby_view(session))


def closed_render(session: Session, title: str) -> Render:
    embed = discord.Embed(
        title=f"{title} — closed", description="This table was closed without a result."
    )
    return Render(embeds=[embed], view=None)


def table_render(services: Services, session: Session) -> Render:
    """The public message for ``session`` in whatever status it is."""
    engine = services.manager.engine(session.game)
    if session.status is Status.LOBBY:
        return lobby_render(session, engine.title, engine.min_players, engine.max_players)
    if session.status is Status.ABANDONED:
        return closed_render(session, engine.title)
    return services.ui(session.game).table(session)
