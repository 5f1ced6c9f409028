"""The limits Discord enforces that its OpenAPI spec does not state (listed in the README beside
the spec), as field errors with Discord's paths."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

Path = tuple[str | int, ...]

BOT_CONTENT_MAX = 2000  # the spec allows 4,000 on channel routes; a bot's messages get 2,000
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
EMBEDS_TOTAL_MAX = 6000
INT53_MAX = 2**53 - 1
NAME_MAX = 32
COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON = 1, 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
CHAT_INPUT = 1
NUMERIC_OPTIONS = frozenset({4, 10})  # INTEGER, NUMBER
# The locales Discord takes as localisation keys, as discord.py's ``discord.Locale`` lists them
# (the stand-in imports no discord.py; tests/playground/test_standin_package.py keeps them equal).
LOCALES = frozenset({
    "bg", "cs", "da", "de", "el", "en-GB", "en-US", "es-419", "es-ES", "fi", "fr", "hi", "hr",
    "hu", "id", "it", "ja", "ko", "lt", "nl", "no", "pl", "pt-BR", "ro", "ru", "sv-SE", "th",
    "tr", "uk", "vi", "zh-CN", "zh-TW",
})
MESSAGE_OPERATIONS = frozenset({
    "create_message", "update_message", "execute_webhook", "update_webhook_message",
    "update_original_webhook_message",
})
COMMAND_OPERATIONS = frozenset({
    "bulk_set_application_commands", "bulk_set_guild_application_commands",
})
SINGLE_COMMAND_OPERATIONS = frozenset({
    "create_application_command", "create_guild_application_command",
    "update_application_command", "update_guild_application_command",
})
CALLBACK_MESSAGE_TYPES = frozenset({4, 7})  # CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE
CALLBACK_MODAL = 9


@dataclass(frozen=True)
class FieldError:
    """One refused field: its path in the request body (or the query parameter's name), and
    Discord's code and message for it."""

    path: Path
    code: str
    message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "(the request)"
        return f"{where}: {self.code} {self.message}"


def limit_errors(operation_id: str, body: Any) -> list[FieldError]:
    """What of ``body`` Discord refuses beyond its spec, for the operation ``operation_id``."""
    if operation_id in MESSAGE_OPERATIONS and isinstance(body, dict):
        return list(message_errors(body, ()))
    if operation_id == "create_interaction_response" and isinstance(body, dict):
        data = body.get("data")
        if isinstance(data, dict) and body.get("type") in CALLBACK_MESSAGE_TYPES:
            return list(message_errors(data, ("data",)))
        if isinstance(data, dict) and body.get("type") == CALLBACK_MODAL:
            return list(_duplicate_custom_ids(data.get("components"), ("data", "components")))
        return []
    if operation_id in COMMAND_OPERATIONS and isinstance(body, list):
        return [e for i, command in enumerate(body) for e in command_errors(command, (i,))]
    if operation_id in SINGLE_COMMAND_OPERATIONS and isinstance(body, dict):
        return list(command_errors(body, ()))
    return []


# -- messages ----


def message_errors(message: dict[str, Any], at: Path) -> Iterator[FieldError]:
    content = message.get("content")
    if isinstance(content, str) and len(content) > BOT_CONTENT_MAX:
        yield FieldError((*at, "content"), "BASE_TYPE_MAX_LENGTH",
                         f"Must be {BOT_CONTENT_MAX} or fewer in length.")
    embeds = message.get("embeds")
    if isinstance(embeds, list):
        total = sum(_embed_size(e) for e in embeds if isinstance(e, dict))
        if total > EMBEDS_TOTAL_MAX:
            yield FieldError((*at, "embeds"), "MAX_EMBED_SIZE_EXCEEDED",
                             f"Embed size exceeds maximum size of {EMBEDS_TOTAL_MAX}")
    components = message.get("components")
    if not isinstance(components, list):
        return
    v2 = bool(int(message.get("flags") or 0) & COMPONENTS_V2) or any(
        isinstance(c, dict) and c.get("type") != ACTION_ROW for c in components
    )
    if not v2:
        yield from _row_errors(components, (*at, "components"))
    yield from _duplicate_custom_ids(components, (*at, "components"))


def _row_errors(rows: list[Any], at: Path) -> Iterator[FieldError]:
    if len(rows) > ACTION_ROWS_MAX:
        yield FieldError(at, "BASE_TYPE_MAX_LENGTH",
                         f"Must be {ACTION_ROWS_MAX} or fewer in length.")
    for index, row in enumerate(rows):
        children = row.get("components") if isinstance(row, dict) else None
        if not isinstance(children, list):
            continue
        kinds = [c.get("type") for c in children if isinstance(c, dict)]
        selects = sum(1 for k in kinds if k in SELECT_TYPES)
        if selects and len(children) > 1:
            yield FieldError((*at, index, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                             "A select menu fills its action row alone.")
        elif len(children) > BUTTONS_PER_ROW_MAX:
            yield FieldError((*at, index, "components"), "BASE_TYPE_MAX_LENGTH",
                             f"Must be {BUTTONS_PER_ROW_MAX} or fewer in length.")


def _walk(components: Any, at: Path) -> Iterator[tuple[dict[str, Any], Path]]:
    if not isinstance(components, list):
        return
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        here = (*at, index)
        yield component, here
        yield from _walk(component.get("components"), (*here, "components"))
        for key in ("component", "accessory"):
            child = component.get(key)
            if isinstance(child, dict):
                yield child, (*here, key)
                yield from _walk(child.get("components"), (*here, key, "components"))


def _duplicate_custom_ids(components: Any, at: Path) -> Iterator[FieldError]:
    seen: set[str] = set()
    for component, path in _walk(components, at):
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                yield FieldError((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                                 "Component custom id cannot be duplicated")
            seen.add(custom_id)


def _embed_size(embed: dict[str, Any]) -> int:
    def text(value: Any) -> int:
        return len(value) if isinstance(value, str) else 0

    size = text(embed.get("title")) + text(embed.get("description"))
    for key, field in (("footer", "text"), ("author", "name")):
        part = embed.get(key)
        if isinstance(part, dict):
            size += text(part.get(field))
    for field in embed.get("fields") or []:
        if isinstance(field, dict):
            size += text(field.get("name")) + text(field.get("value"))
    return size


# -- application commands ----


def command_errors(command: Any, at: Path) -> Iterator[FieldError]:
    if not isinstance(command, dict):
        return
    chat_input = command.get("type", CHAT_INPUT) == CHAT_INPUT
    yield from _named_errors(command, at, check_name=chat_input)
    yield from _option_errors(command.get("options"), (*at, "options"), chat_input)


def _option_errors(options: Any, at: Path, chat_input: bool) -> Iterator[FieldError]:
    if not isinstance(options, list):
        return
    for index, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        here = (*at, index)
        yield from _named_errors(option, here, check_name=chat_input)
        if option.get("type") in NUMERIC_OPTIONS:
            for key in ("min_value", "max_value"):
                value = option.get(key)
                if isinstance(value, int | float) and not -INT53_MAX <= value <= INT53_MAX:
                    code = "NUMBER_TYPE_MAX" if value > 0 else "NUMBER_TYPE_MIN"
                    yield FieldError((*here, key), code,
                                     f"int53 out of range: {value} (Discord's integers lie "
                                     f"within ±{INT53_MAX})")
        for choice_index, choice in enumerate(option.get("choices") or []):
            if isinstance(choice, dict):
                yield from _locale_errors(choice, (*here, "choices", choice_index),
                                          ("name_localizations",))
        yield from _option_errors(option.get("options"), (*here, "options"), chat_input)


def _named_errors(item: dict[str, Any], at: Path, *, check_name: bool) -> Iterator[FieldError]:
    name = item.get("name")
    if check_name and isinstance(name, str) and not valid_name(name):
        yield FieldError((*at, "name"), "APPLICATION_COMMAND_INVALID_NAME",
                         f"Command name is invalid: {name!r} (1-32 lowercase letters, digits, "
                         "'-', '_' or \"'\")")
    yield from _locale_errors(item, at, ("name_localizations", "description_localizations"))
    localised = item.get("name_localizations")
    if check_name and isinstance(localised, dict):
        for locale, value in localised.items():
            if isinstance(value, str) and not valid_name(value):
                yield FieldError((*at, "name_localizations", locale),
                                 "APPLICATION_COMMAND_INVALID_NAME",
                                 f"Command name is invalid: {value!r}")


def _locale_errors(item: dict[str, Any], at: Path, keys: tuple[str, ...]
                   ) -> Iterator[FieldError]:
    for key in keys:
        localised = item.get(key)
        if isinstance(localised, dict):
            for locale in localised:
                if locale not in LOCALES:
                    yield FieldError((*at, key, locale), "LOCALE_INVALID",
                                     f"Invalid locale {locale!r}: not one of Discord's locales")


def valid_name(name: str) -> bool:
    """``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where a letter has
    a lowercase form."""
    return 1 <= len(name) <= NAME_MAX and all(_name_char(ch) for ch in name)


def _name_char(ch: str) -> bool:
    if ch in "-_'":
        return True
    if ch.lower() != ch:
        return False
    if unicodedata.category(ch)[0] in "LN":
        return True
    code = ord(ch)
    # Devanagari and Thai marks (vowel signs, viramas) are allowed besides their letters.
    return 0x0900 <= code <= 0x097F or 0xA8E0 <= code <= 0xA8FF or 0x0E00 <= code <= 0x0E7F
