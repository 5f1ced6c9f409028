"""The lobby message and the dispatch between lobby, closed and in-game table renders."""

from __future__ import annotations

import contextlib

import discord

from bot.client import TableBot
from bot.manager import BOT_LEVELS
from bot.models import Session, Status
from cogs.context import game_uis, offered_bot_levels
from cogs.game_ui import Render
from cogs.ids import BackButton, LobbyAction, LobbyButton
from cogs.notices import away_line
from cogs.replay import replay_button

# Every lobby button: (label, style, row); the host's bot seat buttons on the second row.
LOBBY_BUTTONS: dict[LobbyAction, tuple[str, discord.ButtonStyle, int]] = {
    LobbyAction.JOIN: ("Join", discord.ButtonStyle.primary, 0),
    LobbyAction.LEAVE: ("Leave", discord.ButtonStyle.secondary, 0),
    LobbyAction.START: ("Start", discord.ButtonStyle.success, 0),
    LobbyAction.CANCEL: ("Cancel", discord.ButtonStyle.danger, 0),
    LobbyAction.BOT_EASY: ("Add bot (easy)", discord.ButtonStyle.secondary, 1),
    LobbyAction.BOT_NORMAL: ("Add bot (normal)", discord.ButtonStyle.secondary, 1),
    LobbyAction.BOT_EXPERT: ("Add bot (expert)", discord.ButtonStyle.secondary, 1),
    LobbyAction.UNBOT: ("Remove bot", discord.ButtonStyle.secondary, 1),
}


# The bot level each "Add bot" button seats; a level the server does not offer (BOT_LEVELS)
# has no button.
BOT_BUTTON_LEVELS: dict[LobbyAction, str] = {
    LobbyAction.BOT_EASY: "easy",
    LobbyAction.BOT_NORMAL: "normal",
    LobbyAction.BOT_EXPERT: "expert",
}


def lobby_view(session: Session, bot_levels: tuple[str, ...] = BOT_LEVELS) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    has_bots = session.has_bots
    for action, (label, style, row) in LOBBY_BUTTONS.items():
        if BOT_BUTTON_LEVELS.get(action, bot_levels[0]) not in bot_levels:
            continue
        view.add_item(LobbyButton(
            action, session.id, label=label, style=style, row=row if row else None,
            disabled=action is LobbyAction.UNBOT and not has_bots,
        ))
    return view


def lobby_render(
    session: Session, title: str, min_players: int, max_players: int,
    bot_levels: tuple[str, ...] = BOT_LEVELS,
) -> Render:
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
    return Render(embeds=[embed], view=lobby_view(session, bot_levels))


def turn_limit(minutes: int) -> str:
    return f"{minutes} min per move" if minutes else "off"


def clock_lines(session: Session) -> list[str]:
    """Deadlines as Discord timestamps, and who a bot plays for (a running game only)."""
    if session.status is not Status.ACTIVE:
        return []
    names = session.names
    lines = [
        f"⏳ {names.get(d.player_id, d.player_id)}: time runs out "
        f"{discord.utils.format_dt(d.due_at, 'R')}"
        for d in session.deadlines
    ]
    for seat in session.seats:
        if seat.left:
            lines.append(f"🚪 {seat.display_name} left the game — a bot plays their seat.")
        elif seat.away:
            lines.append(away_line(seat.display_name))
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
            view.add_item(BackButton(session.id))
    return Render(content=content, embeds=render.embeds, view=view)


def closed_render(session: Session, title: str) -> Render:
    embed = discord.Embed(
        title=f"{title} — closed", description="This table was closed without a result."
    )
    return Render(embeds=[embed], view=None)


def table_render(client: TableBot, session: Session) -> Render:
    """The public message for ``session`` in whatever status it is (``client``: the bot)."""
    engine = client.manager.engine(session.game)
    if session.status is Status.LOBBY:
        return lobby_render(session, engine.title, engine.min_players, engine.max_players,
                            offered_bot_levels(client))
    if session.status is Status.ABANDONED:
        return with_replay(session, closed_render(session, engine.title))
    render = with_clock(session, game_uis(client).ui(session.game).table(session))
    return with_replay(session, render) if session.status is Status.FINISHED else render


def with_replay(session: Session, render: Render) -> Render:
    """A finished (or stopped mid-game) table with its Replay button (``cogs.replay``)."""
    button = replay_button(session)
    if button is None:
        return render
    view = render.view if render.view is not None else discord.ui.View(timeout=None)
    with contextlib.suppress(ValueError):  # a full view keeps the game's own components
        view.add_item(button)
    return Render(content=render.content, embeds=render.embeds, view=view)
