"""The refusals ``bot`` raises (``bot.records.errors``), in the reader's language.

``bot`` stays catalog-free: its sentences are English constants (templates with ``{fields}``
where a refusal names something). This table marks the same English text for the catalogs,
so ``refusal_text(words, error)`` says a ``TableError`` in ``words``' language. A refusal
whose template is not here (an engine's own sentence about an illegal move) is shown as it
came; the test of this module checks that every constant of ``bot.records.errors`` is here.
"""

from __future__ import annotations

from bot.records import errors
from bot.records.errors import TableError
from bot.sessions import export
from cogs.i18n.button_names import button_names
from cogs.i18n.command_mentions import command_fields
from cogs.i18n.messages import N_, Message
from cogs.i18n.words import Words, message_fill
from cogs.kit import control_menus as controls

# Refusals the cogs raise as ``Refusal(TEXT)``.
WRONG_TABLE = "That control belongs to another table; use the buttons of this channel's table."
# cogs.rendering.replay_pages's (it imports cogs.client_services, which imports this module; a test
# keeps them equal).
REPLAY_REFUSALS: dict[str, Message] = {
    "OTHER_SERVER": N_("That game was played in another server."),
    "PLAYERS_ONLY": N_("On this server only the game's own players may replay or export it."),
    "NOT_REPLAYABLE": N_("That game's log does not replay with this version of the bot."),
    "OUT_OF_RANGE": N_("That step is not part of this game's replay."),
    "NO_FINISHED_GAME": N_("There is no finished game in this channel."),
    "EXPORT_PLAYERS_ONLY": N_("Only the game's players (or Manage Server) may export it."),
}

REFUSALS: dict[str, Message] = {
    errors.NO_GAME: N_("There is no game in this channel. Open one with {game_new_command}."),
    errors.GAME_RUNNING: N_("A game is already open in this channel. Finish or cancel it first."),
    errors.NOT_SEATED: N_("You are not seated at this table."),
    errors.ALREADY_SEATED: N_("You are already seated at this table."),
    errors.NOT_HOST: N_("Only the host can do that."),
    errors.NOT_HOST_OR_MOD: N_(
        "Only the host or someone with Manage Messages can cancel this game."
    ),
    errors.NOT_YOUR_TURN: N_("It is not your turn."),
    errors.STALE: N_("The table has moved on since you looked. Here is the current view."),
    errors.NOT_STARTED: N_("The game has not started yet."),
    errors.ALREADY_STARTED: N_("The game has already started; you cannot leave or join now."),
    errors.HINTS_AFTER_START: N_(
        "The game has already started; hints can be turned on or off only in the lobby."
    ),
    errors.SEATS_AFTER_START: N_(
        "The game has already started; seats can be changed only in the lobby."
    ),
    errors.HOST_AFTER_START: N_(
        "The game has already started; the host role can be passed only in the lobby."
    ),
    errors.START_AFTER_START: N_("The game has already started."),
    errors.SHUTTING_DOWN: N_("The bot is restarting. Please try again in a moment."),
    errors.SAVE_FAILED: N_(
        "Something went wrong while saving, so nothing changed. Please try again."
    ),
    errors.LEFT_GAME: N_("You left this game; a bot plays your seat."),
    errors.NOT_AWAY: N_("You are not away."),
    errors.ALREADY_AWAY: N_("You are already away."),
    errors.NO_BOT: N_("There is no bot seat to remove."),
    errors.NOT_TIMED_OUT: N_("That turn has not run out of time."),
    errors.NO_SCORE_SHEET: N_("This game has no score sheet; the table shows the scores."),
    errors.NOT_SEATED_NOW: N_("That player is no longer seated at this table."),
    errors.NOT_YOURSELF: N_(
        "You cannot do that to yourself; use {leave_button} to give up your own seat."
    ),
    errors.HOST_TO_BOT: N_("A bot cannot host the table; choose a seated person."),
    errors.LOBBY_FULL: N_("The lobby is full ({max_players} seats)."),
    errors.TOO_FEW_PLAYERS: N_("{title} needs at least {min_players} players; {seated} seated."),
    errors.UNKNOWN_GAME: N_("There is no game called {name}."),
    errors.BAD_TURN_MINUTES: N_("The turn limit must be 0 (off) to {most} minutes."),
    errors.BAD_BOT_LEVEL: N_("A bot plays one of these levels: {levels}."),
    errors.BAD_OPTIONS: N_("Those game options are not valid: {reason}."),
    WRONG_TABLE: N_(
        "That control belongs to another table; use the buttons of this channel's table."
    ),
    controls.UNKNOWN_CONTROL: N_("That button is not part of this game."),
    controls.NOT_AVAILABLE: N_("That choice is not available now."),
    controls.CHOOSE_ONE: N_("Choose one option from the list."),
    export.NO_SUCH_GAME: N_("There is no such game."),
    export.STILL_IN_LOBBY: N_("That game has not started yet, so there is nothing to replay."),
    export.NEVER_STARTED: N_(
        "That game was cancelled before it started, so there is nothing to replay."
    ),
    export.STILL_RUNNING: N_(
        "That game is still running; it can be replayed or exported once it is over "
        "(it would reveal hidden cards)."
    ),
    **{message.text: message for message in REPLAY_REFUSALS.values()},
}


def refusal_text(words: Words, error: TableError) -> str:
    """``error``'s sentence in ``words``' language (as it came when it has no translation).

    Besides :data:`REFUSALS`, a template marked with ``N_`` where it is defined (a game UI's
    or a cog's own refusal, raised as ``Refusal(MESSAGE.text)``) is found in the catalog."""
    message = REFUSALS.get(error.template)
    fields = {
        **button_names(words),
        **command_fields(words),
        **{name: words.number(value) if isinstance(value, int) else value
           for name, value in error.fields.items()},
    }
    if message is None:
        translated = words.lookup(error.template)
        return error.message if translated is None else message_fill(translated, fields)
    return words.text(message, **fields)
