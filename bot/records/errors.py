"""Errors a player or an operator reads: plain words that reveal no hidden cards."""

from __future__ import annotations


class TableError(Exception):
    """Something the bot answers with an ephemeral message; nothing changed.

    ``message`` is the sentence in English; ``template`` the sentence before its ``{fields}``
    were filled in (one of this module's constants when the bot says it), so the cogs can
    say it in the reader's language (``cogs.kit.refusal_texts``).
    """

    def __init__(self, message: str, **fields: object) -> None:
        text = message.format(**fields) if fields else message
        super().__init__(text)
        self.message = text
        self.template = message
        self.fields = fields


class Refusal(TableError):
    """The table refuses a request (not seated, not your turn, illegal move, ...)."""


class StaleVersion(Refusal):
    """The request was made against an older state of the table."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message or STALE)


class StaleWrite(StaleVersion):
    """The store refused a session write: the stored version is no longer the one the write
    was made against (another process, or an older copy, wrote first). Nothing was written;
    the caller reloads the session and answers as to a stale click."""

    def __init__(self, session_id: int, expected: int | tuple[int, ...]) -> None:
        super().__init__()
        self.session_id = session_id
        self.expected = expected


class NotYourTurn(Refusal):
    """The game does not wait for this player now (a game UI may say it in its own words)."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message or NOT_YOUR_TURN)


class SaveFailed(TableError):
    """The change could not be stored; the table keeps its previous state."""


class ConfigError(Exception):
    """A setting or the environment makes it impossible to start (exit code 2)."""


# The refusal sentences, in one place so cogs and tests agree on them.
NO_GAME = "There is no game in this channel. Open one with /game new."
GAME_RUNNING = "A game is already open in this channel. Finish or cancel it first."
NOT_SEATED = "You are not seated at this table."
ALREADY_SEATED = "You are already seated at this table."
NOT_HOST = "Only the host can do that."
NOT_HOST_OR_MOD = "Only the host or someone with Manage Messages can cancel this game."
NOT_YOUR_TURN = "It is not your turn."
STALE = "The table has moved on since you looked. Here is the current view."
NOT_STARTED = "The game has not started yet."
ALREADY_STARTED = "The game has already started; you cannot leave or join now."
# What the host can only do in the lobby: each refusal names what was refused.
HINTS_AFTER_START = "The game has already started; hints can be turned on or off only in the lobby."
SEATS_AFTER_START = "The game has already started; seats can be changed only in the lobby."
HOST_AFTER_START = "The game has already started; the host role can be passed only in the lobby."
START_AFTER_START = "The game has already started."
SHUTTING_DOWN = "The bot is restarting. Please try again in a moment."
SAVE_FAILED = "Something went wrong while saving, so nothing changed. Please try again."
LEFT_GAME = "You left this game; a bot plays your seat."
NOT_AWAY = "You are not away."
ALREADY_AWAY = "You are already away."
NO_BOT = "There is no bot seat to remove."
NOT_TIMED_OUT = "That turn has not run out of time."
NO_SCORE_SHEET = "This game has no score sheet; the table shows the scores."


NOT_SEATED_NOW = "That player is no longer seated at this table."
NOT_YOURSELF = "You cannot do that to yourself; use Leave to give up your own seat."
HOST_TO_BOT = "A bot cannot host the table; choose a seated person."

# Templates with fields: raise ``Refusal(LOBBY_FULL, max_players=n)``; the functions below
# give the English sentence.
LOBBY_FULL = "The lobby is full ({max_players} seats)."
TOO_FEW_PLAYERS = "{title} needs at least {min_players} players; {seated} seated."
UNKNOWN_GAME = "There is no game called {name}."
BAD_TURN_MINUTES = "The turn limit must be 0 (off) to {most} minutes."
BAD_BOT_LEVEL = "A bot plays one of these levels: {levels}."
BAD_OPTIONS = "Those game options are not valid: {reason}."  # reason: the validator's words


def lobby_full(max_players: int) -> str:
    return LOBBY_FULL.format(max_players=max_players)


def too_few_players(title: str, min_players: int, seated: int) -> str:
    return TOO_FEW_PLAYERS.format(title=title, min_players=min_players, seated=seated)


def echo(key: str) -> str:
    """A user's input as a refusal quotes it: clipped, in quotes."""
    return repr(clip(key, ECHO_MAX))


def unknown_game(key: str) -> str:
    return UNKNOWN_GAME.format(name=echo(key))


def unknown_game_refusal(key: str) -> Refusal:
    return Refusal(UNKNOWN_GAME, name=echo(key))


ECHO_MAX = 40  # characters of a user's input echoed in a refusal


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bad_turn_minutes(most: int) -> str:
    return BAD_TURN_MINUTES.format(most=most)


def bad_bot_level(levels: tuple[str, ...]) -> Refusal:
    return Refusal(BAD_BOT_LEVEL, levels=", ".join(levels))
