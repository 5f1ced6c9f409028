"""The lobby message and the dispatch between lobby, closed and in-game table renders."""

from __future__ import annotations

import contextlib

import discord

from bot.models import Session, Status
from bot.notify import relative_time
from cogs.components import back_button, lobby_view
from cogs.game_ui import Render
from cogs.services import Services


def lobby_render(session: Session, title: str, min_players: int, max_players: int) -> Render:
    seats = "\n".join(
        f"{index}. {seat.display_name}{f' (bot, {seat.bot_level})' if seat.is_bot else ''}"
        f"{' — host' if seat.player_id == session.host_id else ''}"
        for index, seat in enumerate(session.seats, start=1)
    )
    embed = discord.Embed(title=f"{title} — lobby", colour=discord.Colour.blurple())
    embed.add_field(name=f"Seats ({len(session.seats)}/{max_players})", value=seats or "—",
                    inline=False)
    embed.add_field(name="Players", value=f"{min_players}–{max_players}")
    host = session.seat_of(session.host_id)
    embed.add_field(name="Host", value=host.display_name if host else session.host_id)
    embed.add_field(name="Turn limit", value=turn_limit(session.turn_minutes))
    footer = "Join, then the host starts the game. The host may add bot seats."
    if min_players == 1:
        footer += " Alone, you play solo against a bot."
    embed.set_footer(text=footer)
    return Render(embeds=[embed], view=lobby_view(session))


def turn_limit(minutes: int) -> str:
    return f"{minutes} min per move" if minutes else "off"


def clock_lines(session: Session) -> list[str]:
    """Deadlines as Discord timestamps, and who a bot plays for (a running game only)."""
    if session.status is not Status.ACTIVE:
        return []
    names = session.names
    lines = [
        f"⏳ {names.get(d.player_id, d.player_id)}: time runs out {relative_time(d.due_at)}"
        for d in session.deadlines
    ]
    for seat in session.seats:
        if seat.left:
            lines.append(f"🚪 {seat.display_name} left the game — a bot plays their seat.")
        elif seat.away:
            lines.append(f"💤 {seat.display_name} is away — a bot plays for them until they "
                         "click I'm back.")
    return lines


def with_clock(session: Session, render: Render) -> Render:
    """The game's table plus the turn clock, away notes and the I'm back button."""
    lines = clock_lines(session)
    if not lines:
        return render
    content = "\n".join([render.content, *lines] if render.content else lines)
    view = render.view
    if any(seat.away and not seat.left for seat in session.seats):
        view = view if view is not None else discord.ui.View(timeout=None)
        with contextlib.suppress(ValueError):  # a full view keeps the game's own components
            view.add_item(back_button(session))
    return Render(content=content, embeds=render.embeds, view=view)


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
    return with_clock(session, services.ui(session.game).table(session))
