"""What is wrong with a catalog, as readable lines (empty when all is well).

Used by ``python -m cogs.i18n check`` and by ``tests/i18n``.
"""

from __future__ import annotations

import re
from string import Formatter

from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural

from cogs.i18n.command_texts import command_text_problem
from cogs.i18n.language import Language

FIELD_NAME = re.compile(r"[a-z_][a-z0-9_]*")
MessageKey = tuple[str | None, str]


def forms(value: object) -> tuple[str, ...]:
    """A msgid or msgstr as a tuple of texts (one for a plain message, one per plural form)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, tuple | list):
        return tuple(str(text) for text in value)
    return ()


def key(message: Message) -> MessageKey:
    return (message.context, forms(message.id)[0])


def keys(catalog: Catalog) -> set[MessageKey]:
    return {key(message) for message in catalog if message.id}


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a ``str.format`` template; ValueError for bad syntax."""
    return {field for _, field, _, _ in Formatter().parse(text) if field is not None}


def template_problems(template: Catalog, extracted: Catalog) -> list[str]:
    """``template`` (the committed ``.pot``) against a fresh extraction from the code."""
    missing = sorted(keys(extracted) - keys(template), key=str)
    stale = sorted(keys(template) - keys(extracted), key=str)
    return [f"not in the template (run update): {k}" for k in missing] + [
        f"in the template but no longer in the code (run update): {k}" for k in stale
    ]


def source_problems(template: Catalog) -> list[str]:
    """English msgids whose fields are not plain names, or whose braces do not parse."""
    problems = []
    for message in template:
        if not message.id:
            continue
        for text in forms(message.id):
            try:
                fields = placeholders(text)
            except ValueError as error:
                problems.append(f"{key(message)}: bad braces ({error})")
                continue
            problems += [
                f"{key(message)}: field {{{field}}} is not a plain name"
                for field in sorted(fields)
                if not FIELD_NAME.fullmatch(field)
            ]
            refused = command_text_problem(message.context, text)
            if refused is not None:
                problems.append(f"{key(message)}: {refused}")
    return problems


def catalog_problems(catalog: Catalog, template: Catalog, language: Language) -> list[str]:
    """A language's ``.po`` against the template: complete, not fuzzy, same fields."""
    problems = []
    expected_plural = get_plural(language.value)
    if catalog.num_plurals != expected_plural.num_plurals or (
        catalog.plural_expr != expected_plural.plural_expr
    ):
        problems.append(
            f"Plural-Forms is {catalog.plural_forms!r}, Babel's is {expected_plural.plural_forms!r}"
        )
    if catalog.fuzzy:
        problems.append("the header is fuzzy")
    ours = {key(message): message for message in catalog if message.id}
    problems += [f"missing: {k}" for k in sorted(keys(template) - ours.keys(), key=str)]
    problems += [f"not in the template: {k}" for k in sorted(ours.keys() - keys(template), key=str)]
    for k, message in ours.items():
        problems += [f"{k}: {problem}" for problem in _message_problems(message, catalog)]
    return problems


def _message_problems(message: Message, catalog: Catalog) -> list[str]:
    problems = []
    if message.fuzzy:
        problems.append("fuzzy")
    english = set().union(*(placeholders(text) for text in forms(message.id)))
    translated = forms(message.string)
    if message.pluralizable:
        if len(translated) != catalog.num_plurals:
            problems.append(
                f"{len(translated)} plural forms, the language has {catalog.num_plurals}"
            )
    elif len(translated) != 1:
        return [*problems, "plural forms for a message without plural"]
    for index, form in enumerate(translated):
        if not form:
            problems.append(f"form {index} is empty")
            continue
        try:
            fields = placeholders(form)
        except ValueError as error:
            problems.append(f"form {index}: bad braces ({error})")
            continue
        if fields != english:
            problems.append(f"form {index} has fields {sorted(fields)}, English {sorted(english)}")
        refused = command_text_problem(message.context, form)
        if refused is not None:
            problems.append(f"form {index}: {refused}")
    return problems
