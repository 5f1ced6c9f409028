"""A slash command's options checked against its own declaration before it runs.

Discord checks what its client lets a member type: an option's type, its choices, its range,
that a user or channel option names one it resolved. A forged interaction (sent to the bot's
gateway or interactions endpoint without Discord's client) need not: ``turn_minutes:"5"`` (a
string for an integer), ``level:"godlike"`` (not one of the choices), ``turn_minutes:10**9``,
a ``user`` nobody resolved, a channel of another server. discord.py passes most of these to
the command as they came (only a ``Choice`` or a channel it cannot resolve fail, as an
``AppCommandError`` that ``cogs.kit.unexpected_errors`` would take for a bug).

:func:`check_options` is the command tree's ``interaction_check``: before any slash command
runs, each option is checked against the command's parameter (type, choices, range, length,
resolved user, a channel of this server); a bad one gets a clear ephemeral refusal in the
reader's language, naming the option as their Discord shows it, is logged at INFO (never as
an error: nothing broke), and the command does not run.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord import AppCommandOptionType as Kind
from discord import app_commands

from cogs.client_services import Interaction, refuse
from cogs.i18n.catalogs import words_for
from cogs.i18n.interaction import user_words
from cogs.i18n.language import DEFAULT_LANGUAGE, language_of_discord_locale
from cogs.i18n.messages import N_, Message

log = logging.getLogger(__name__)

NO_SUCH_OPTION = N_("This command has no such option. Please use it as Discord offers it.")
MISSING_OPTION = N_("The {option} option is required.")
NOT_A_CHOICE = N_("The value given for {option} is not one of its choices.")
WRONG_VALUE = N_("The value given for {option} is not valid. Please choose it again.")
OUT_OF_RANGE = N_("{option} must be from {low} to {high}.")
UNKNOWN_USER = N_("The member given for {option} could not be found. Please choose them again.")
OTHER_CHANNEL = N_("The channel given for {option} is not a channel of this server.")

SNOWFLAKE_MAX = 2**64 - 1
JSON_INTEGER_MAX = 2**53  # Discord's integer options: -2^53 .. 2^53


@dataclass(frozen=True)
class BadOption:
    """What is wrong with one option: the refusal, its fields (``option`` is filled in by
    :func:`check_options`) and a line for the log (no value: it could be anything)."""

    message: Message
    option: app_commands.Parameter | None
    why: str
    low: int | float | None = None
    high: int | float | None = None


def leaf_options(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The options of the subcommand that runs (below its groups)."""
    options: list[dict[str, Any]] = list(data.get("options") or [])
    while options and options[0].get("type") in (Kind.subcommand.value,
                                                  Kind.subcommand_group.value):
        options = list(options[0].get("options") or [])
    return options


def _snowflake(value: object) -> int | None:
    if isinstance(value, str) and value.isascii() and value.isdigit():
        number = int(value)
        return number if 0 < number <= SNOWFLAKE_MAX else None
    return None


def _is_number(value: object, kind: Kind) -> bool:
    if isinstance(value, bool):
        return False
    if kind is Kind.integer:
        return isinstance(value, int) and abs(value) <= JSON_INTEGER_MAX
    return isinstance(value, int | float) and math.isfinite(value)


def _value_problem(param: app_commands.Parameter, value: object,
                   resolved: Mapping[str, Any], guild: discord.Guild | None) -> BadOption | None:
    kind = param.type
    if kind is Kind.string:
        if not isinstance(value, str):
            return BadOption(WRONG_VALUE, param, "not a string")
        low, high = param.min_value, param.max_value
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            return BadOption(WRONG_VALUE, param, "string length out of range")
    elif kind in (Kind.integer, Kind.number):
        if not _is_number(value, kind):
            return BadOption(WRONG_VALUE, param, f"not a {kind.name}")
        assert isinstance(value, int | float)
        low, high = param.min_value, param.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            if low is not None and high is not None:
                return BadOption(OUT_OF_RANGE, param, "out of range", low, high)
            return BadOption(WRONG_VALUE, param, "out of range")
    elif kind is Kind.boolean:
        if not isinstance(value, bool):
            return BadOption(WRONG_VALUE, param, "not a boolean")
    elif kind is Kind.user:
        snowflake = _snowflake(value)
        if snowflake is None or str(snowflake) not in (resolved.get("users") or {}):
            return BadOption(UNKNOWN_USER, param, "user not resolved")
    elif kind is Kind.channel:
        snowflake = _snowflake(value)
        if snowflake is None or str(snowflake) not in (resolved.get("channels") or {}):
            return BadOption(WRONG_VALUE, param, "channel not resolved")
        channel = guild.get_channel_or_thread(snowflake) if guild is not None else None
        if channel is None:
            return BadOption(OTHER_CHANNEL, param, "channel not in this server")
        if param.channel_types and channel.type not in param.channel_types:
            return BadOption(WRONG_VALUE, param, "channel of another type")
    elif kind is Kind.role:
        snowflake = _snowflake(value)
        if snowflake is None or str(snowflake) not in (resolved.get("roles") or {}):
            return BadOption(WRONG_VALUE, param, "role not resolved")
    elif kind in (Kind.mentionable, Kind.attachment) and _snowflake(value) is None:
        return BadOption(WRONG_VALUE, param, "not an id")
    choices = [choice.value for choice in param.choices]
    if choices and value not in choices:
        return BadOption(NOT_A_CHOICE, param, "not one of the choices")
    return None


def option_problem(command: app_commands.Command[Any, ..., Any], data: Mapping[str, Any],
                   guild: discord.Guild | None) -> BadOption | None:
    """The first thing wrong with the options of ``data`` (a slash command's interaction
    data) for ``command``, or None when Discord's client could have sent them."""
    params = {param.display_name: param for param in command.parameters}
    resolved: Mapping[str, Any] = data.get("resolved") or {}
    given: set[str] = set()
    for option in leaf_options(data):
        param = params.get(str(option.get("name")))
        if param is None or param.display_name in given:
            return BadOption(NO_SUCH_OPTION, None, "no such option (or given twice)")
        given.add(param.display_name)
        if option.get("type") != param.type.value:
            return BadOption(WRONG_VALUE, param, "option of another type")
        problem = _value_problem(param, option.get("value"), resolved, guild)
        if problem is not None:
            return problem
    for param in command.parameters:
        if param.required and param.display_name not in given:
            return BadOption(MISSING_OPTION, param, "required option missing")
    return None


def shown_name(param: app_commands.Parameter, locale: discord.Locale | None) -> str:
    """The option's name as the member's Discord shows it (translated for the locales that
    have a catalog, as ``cogs.i18n.commands.CatalogTranslator`` syncs it)."""
    name = param.locale_name
    language = language_of_discord_locale(locale.value if locale is not None else None)
    if name is None or language is None or language is DEFAULT_LANGUAGE:
        return param.display_name
    translated = words_for(language).lookup(name.message, name.extras.get("msgctxt"))
    return translated or param.display_name


async def check_options(interaction: Interaction) -> bool:
    """The command tree's ``interaction_check``: False (after a refusal) when a slash
    command's options are not what its declaration allows."""
    if interaction.type is not discord.InteractionType.application_command:
        return True  # autocomplete sends what is typed so far; components are not commands
    try:
        command = interaction.command
    except app_commands.AppCommandError:
        return True  # an unknown command: the tree answers it as before
    if not isinstance(command, app_commands.Command):
        return True  # context menus have no options
    data: Mapping[str, Any] = interaction.data or {}
    problem = option_problem(command, data, interaction.guild)
    if problem is None:
        return True
    name = problem.option.display_name if problem.option is not None else "?"
    log.info("refused /%s from user %s: option %s: %s", command.qualified_name,
             interaction.user.id, name, problem.why)
    words = await user_words(interaction)
    fields: dict[str, object] = {}
    if problem.option is not None:
        fields["option"] = shown_name(problem.option, interaction.locale)
    if problem.low is not None and problem.high is not None:
        fields["low"], fields["high"] = words.number(problem.low), words.number(problem.high)
    await refuse(interaction, words.text(problem.message, **fields))
    return False
