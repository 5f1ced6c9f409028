"""The last line of defence: an exception nobody expected, in a command or a component.

Refusals (``bot.records.errors.TableError``) are answered by the handlers themselves; anything that
reaches this module is a bug or an outage, except an option value that does not convert
(``app_commands.TransformerError``: a forged command), which is refused as such. A bug is
logged with its traceback at ERROR level and the user gets one plain sentence, never the
exception text (it could name hidden cards), so Discord does not show "The application did
not respond".
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.ops import outcomes
from cogs.i18n.command_mentions import command_fields
from cogs.i18n.interaction import user_words
from cogs.i18n.messages import N_, Message

log = logging.getLogger(__name__)
refusals = logging.getLogger(f"{__name__}.refused")  # forged values: refused, not bugs

UNEXPECTED = "Something went wrong on our side; nothing was changed. Please try again."
# For an error after the manager stored the change (rendering or answering failed).
MOVE_MADE = (
    "Your move was made, but this message could not be updated; "
    "open your view again from the table."
)
DONE_NOT_SHOWN = "That was done, but this message could not be updated; /game status shows it."
# An option value discord.py could not turn into its type (a forged command: a choice that is
# not one, a channel it cannot resolve). ``cogs.commands.option_check`` refuses these before a
# command runs; this is the answer should one get past it. A refusal, not a bug.
BAD_VALUE = (
    "One of the options has a value it cannot take. Please use the command as Discord "
    "offers it."
)
TEXTS: dict[str, Message] = {
    UNEXPECTED: N_("Something went wrong on our side; nothing was changed. Please try again."),
    MOVE_MADE: N_(
        "Your move was made, but this message could not be updated; "
        "open your view again from the table."
    ),
    DONE_NOT_SHOWN: N_(
        "That was done, but this message could not be updated; {game_status_command} shows it."
    ),
    BAD_VALUE: N_(
        "One of the options has a value it cannot take. Please use the command as Discord "
        "offers it."
    ),
}


async def _in_their_words(interaction: discord.Interaction[Any], text: str) -> str:
    """``text`` in the user's language; English when even that cannot be read (the store
    may be what failed)."""
    message = TEXTS.get(text)
    if message is None:
        return text
    try:
        words = await user_words(interaction)
    except Exception:  # already answering an error: the apology must go out, in English
        log.warning("could not read the language of the user; answering in English")
        return text
    return words.text(message, **command_fields(words))


class ChangeNotShown(Exception):
    """``error`` happened after the manager stored a change; the user is told ``text``."""

    def __init__(self, error: Exception, text: str) -> None:
        super().__init__(text)
        self.error = error
        self.text = text


async def answer_unexpected(
    interaction: discord.Interaction[Any], error: BaseException, where: str
) -> None:
    """Log ``error`` (``where`` names the command or component) and tell the user, ephemeral:
    nothing was changed, unless the error is a :class:`ChangeNotShown`."""
    outcomes.mark(interaction.extras, outcomes.FAILED)  # counted when its handler ends
    text = UNEXPECTED
    if isinstance(error, ChangeNotShown):
        text = error.text
        error = error.error
    log.error("unexpected error in %s", where, exc_info=error)
    await _answer(interaction, await _in_their_words(interaction, text), where)


async def _answer(interaction: discord.Interaction[Any], text: str, where: str) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:  # the interaction expired or Discord is down: log only
        log.warning("could not tell the user about the error in %s", where)


async def on_command_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
) -> None:
    """The command tree's error hook (the table extension installs it with ``tree.error``):
    an exception in a slash command answers the user."""
    command = interaction.command
    where = f"/{command.qualified_name}" if command is not None else "the command tree"
    if isinstance(error, app_commands.TransformerError):
        refusals.info("refused %s: an option value of type %s that does not convert", where,
                      error.type.name)
        outcomes.mark(interaction.extras, outcomes.REFUSED)  # counted when its handler ends
        await _answer(interaction, await _in_their_words(interaction, BAD_VALUE), where)
        return
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    await answer_unexpected(interaction, cause, where)
