"""Message contexts of slash-command texts and Discord's limits on them (no discord import).

A command text is marked with ``L_(context, text)`` (``cogs.i18n.commands``); its context says
where it goes, and so which limit applies: names are 1–32 lowercase letters, digits, ``-`` or
``_``; descriptions and choice names 1–100 characters.
"""

from __future__ import annotations

import re

COMMAND_NAME = "command-name"
COMMAND_DESCRIPTION = "command-description"
PARAMETER_NAME = "parameter-name"
PARAMETER_DESCRIPTION = "parameter-description"
CHOICE_NAME = "choice-name"

NAME_CONTEXTS = frozenset({COMMAND_NAME, PARAMETER_NAME})
TEXT_CONTEXTS = frozenset({COMMAND_DESCRIPTION, PARAMETER_DESCRIPTION, CHOICE_NAME})
MAX_NAME = 32
MAX_TEXT = 100
_NAME = re.compile(r"[-_\w]{1,32}")


def command_text_problem(context: str | None, text: str) -> str | None:
    """Why Discord would refuse ``text`` in the place ``context`` names (None: it would not)."""
    if context in NAME_CONTEXTS:
        if not _NAME.fullmatch(text) or text != text.lower():
            return f"{text!r} is not a command name (1–{MAX_NAME} lowercase letters, digits, - _)"
    elif context in TEXT_CONTEXTS and not 1 <= len(text) <= MAX_TEXT:
        return f"{len(text)} characters, Discord allows 1–{MAX_TEXT}"
    return None
