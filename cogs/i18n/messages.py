"""Extraction markers for texts defined before anyone's language is known.

``N_`` / ``NP_`` / ``NN_`` / ``NNP_`` return a :class:`Message` or :class:`PluralMessage`
(not a ``str``), so an untranslated text cannot be sent by mistake: a ``Words``
turns it into the reader's language (``words.text(msg, **fields)``, ``words.plural(msg, n)``).
``pybabel extract`` finds these calls through the keywords in :data:`EXTRACT_KEYWORDS`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Message:
    """One catalog message: ``text`` is the English source, ``context`` its msgctxt."""

    text: str
    context: str | None = None


@dataclass(frozen=True, slots=True)
class PluralMessage:
    """A message with plural forms; ``{count}`` is filled with the number."""

    singular: str
    plural: str
    context: str | None = None


def N_(text: str) -> Message:
    """Mark ``text`` for extraction; translate later with ``words.text``."""
    return Message(text)


def NP_(context: str, text: str) -> Message:
    """Mark ``text`` with a message context (msgctxt) for extraction."""
    return Message(text, context)


def NN_(singular: str, plural: str) -> PluralMessage:
    """Mark a plural pair for extraction; translate later with ``words.plural``."""
    return PluralMessage(singular, plural)


def NNP_(context: str, singular: str, plural: str) -> PluralMessage:
    """Mark a plural pair with a message context for extraction."""
    return PluralMessage(singular, plural, context)


# Keyword specs for Babel's Python extractor (``-k`` of ``pybabel extract``): the call-time
# names (``_``, ``gettext``, ``ngettext``, ``pgettext``, ``npgettext``, usually called as
# ``words.gettext(...)``) and the markers above. ``1c`` marks the context argument.
EXTRACT_KEYWORDS: dict[str, tuple[int | tuple[int, str], ...]] = {
    "_": (1,),
    "gettext": (1,),
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "N_": (1,),
    "NP_": ((1, "c"), 2),
    "NN_": (1, 2),
    "NNP_": ((1, "c"), 2, 3),
    "L_": ((1, "c"), 2),  # cogs.i18n.commands: slash-command names, descriptions, choices
}
