"""The table's **Log** button: the session's last public events in words, answered privately.

The table itself no longer carries the event log (it must fit a phone screen); anyone in the
channel may open it. The events are the manager's ``Session.log`` (public events only), worded
by the game's UI in the reader's language (``cogs.game_ui.event_lines``, for no viewer).
"""

from __future__ import annotations

import discord

from bot.records.session import Session
from cogs.game_ui import GameUI, Render, event_lines
from cogs.i18n.words import Words

DESCRIPTION_LIMIT = 4096


def log_render(ui: GameUI, session: Session, words: Words) -> Render:
    """The last lines of the session's log, as many as fit one embed description."""
    lines = [f"• {line}" for line in event_lines(ui, session.log, None, session.names, words)]
    while lines and len("\n".join(lines)) > DESCRIPTION_LIMIT:
        lines.pop(0)
    title = (
        words.ngettext("The last {count} event", "The last {count} events", len(lines))
        if lines else words.gettext("Nothing has happened yet.")
    )
    embed = discord.Embed(title=title, description="\n".join(lines) or None)
    return Render(embeds=[embed])
