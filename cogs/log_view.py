"""The table's **Log** button: the session's last public event lines, answered privately.

The table itself no longer carries the event log (it must fit a phone screen); anyone in the
channel may open it. The lines are the manager's ``Session.log`` (public words only).
"""

from __future__ import annotations

import discord

from bot.models import Session
from cogs.game_ui import Render
from cogs.i18n.words import Words

DESCRIPTION_LIMIT = 4096


def log_render(session: Session, words: Words) -> Render:
    """The last lines of the session's log, as many as fit one embed description."""
    lines = [f"• {line}" for line in session.log]
    while lines and len("\n".join(lines)) > DESCRIPTION_LIMIT:
        lines.pop(0)
    title = (
        words.ngettext("The last {count} event", "The last {count} events", len(lines))
        if lines else words.gettext("Nothing has happened yet.")
    )
    embed = discord.Embed(title=title, description="\n".join(lines) or None)
    return Render(embeds=[embed])
