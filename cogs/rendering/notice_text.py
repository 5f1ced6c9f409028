"""Words and markup for the process's structured notices (``bot.automation.notices``).

The turn clock says *what* happened (a reminder is due, a player timed out and is now away);
this module says it in Discord: mentions, and timestamps through ``discord.utils.format_dt``
that every reader sees in their own time ("in 3 minutes").
"""

from __future__ import annotations

import discord

from bot.automation.notices import Reminder, TimedOut
from bot.records.errors import clip
from cogs.game_ui import GameUI, event_lines
from cogs.i18n.button_names import button_names
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import DEFAULT_LANGUAGE
from cogs.i18n.words import Words
from game.base import PlayerId

MAX_ANNOUNCEMENT = 1800  # characters (a Discord message holds 2000)
ENGLISH = words_for(DEFAULT_LANGUAGE)


def mention(player_id: PlayerId) -> str:
    return f"<@{player_id}>"


def reminder_text(notice: Reminder, words: Words = ENGLISH) -> str:
    return words.gettext(
        "⏳ {player}, your move in {game}: time runs out {when}.",
        player=mention(notice.player_id), game=notice.title,
        when=discord.utils.format_dt(notice.due_at, "R"),
    )


def away_line(name: str, words: Words = ENGLISH) -> str:
    return words.gettext("💤 {name} is away — a bot plays for them until they click"
                         " {im_back_button}.", name=name, **button_names(words))


def timed_out_text(notice: TimedOut, ui: GameUI, words: Words = ENGLISH) -> str:
    """``notice.moves`` are the public events of the default moves played, worded by the
    game's ``ui`` for no viewer (the notice is public)."""
    names = notice.session.names
    name = names.get(notice.player_id, notice.player_id)
    moves = event_lines(ui, notice.moves, None, names, words)
    if moves:
        text = words.gettext("⏰ {name} ran out of time: {moves}", name=name,
                             moves=" ".join(moves))
    else:
        text = words.gettext("⏰ {name} ran out of time.", name=name)
    if notice.away:
        text += "\n" + away_line(name, words)
    return clip(text, MAX_ANNOUNCEMENT)
