"""``Words``: one language's texts, numbers and durations.

Every text is a ``str.format`` template with named fields only: ``words.gettext("{name}
joined", name=...)``. Plural texts get the number as ``{count}`` (locale-formatted); the
catalog's Plural-Forms choose the form.
"""

from __future__ import annotations

import datetime as dt
import gettext
from decimal import Decimal
from functools import lru_cache

from babel import Locale
from babel.dates import format_date, format_timedelta
from babel.numbers import format_decimal

from cogs.i18n.language import Language
from cogs.i18n.messages import Message, PluralMessage

# Templates kept per language: more than the catalogs hold (~1,500 messages), so a text asked
# for at run time with words of its own (never marked) cannot grow the cache past it.
TEMPLATES_KEPT = 4096

# A template and whether it has fields to fill (``{`` or ``}``: else ``format_map`` returns it
# unchanged, whatever the fields).
_Template = tuple[str, bool]
_CountKey = tuple[str | None, str, str, int]


class Words:
    """The translations of one language; build with :func:`cogs.i18n.catalogs.words_for`.

    A text's template is looked up once (a message, or ``(context, message)``): a render asks
    for the same few hundred texts again and again (issue 42).
    """

    def __init__(self, language: Language, translations: gettext.NullTranslations) -> None:
        self.language = language
        self.locale = Locale.parse(language.value)
        self._translations = translations
        self._templates: dict[str | tuple[str, str], _Template] = {}
        # A plural text's template and its count as this language writes it, per (context,
        # singular, plural, count): the plural form and the number looked up once (issue 42).
        self._counts: dict[_CountKey, tuple[str, str]] = {}
        # What a module derives from this language's texts alone, made once per Words (the
        # button names, TEN's colour legend: issue 42). Keyed by the deriving function.
        self.derived: dict[object, object] = {}

    def _learn(self, key: str | tuple[str, str], translated: str) -> _Template:
        found = (translated, "{" in translated or "}" in translated)
        if len(self._templates) < TEMPLATES_KEPT:
            self._templates[key] = found
        return found

    def __repr__(self) -> str:
        return f"Words({self.language.value!r})"

    def gettext(self, message: str, /, **fields: object) -> str:
        found = self._templates.get(message)
        if found is None:
            found = self._learn(message, self._translations.gettext(message))
        return found[0].format_map(fields) if found[1] else found[0]

    _ = gettext

    def pgettext(self, context: str, message: str, /, **fields: object) -> str:
        key = (context, message)
        found = self._templates.get(key)
        if found is None:
            found = self._learn(key, self._translations.pgettext(context, message))
        return found[0].format_map(fields) if found[1] else found[0]

    def ngettext(self, singular: str, plural: str, count: int, /, **fields: object) -> str:
        if type(count) is int and "count" not in fields:  # an int (no bool, float): a key
            key = (None, singular, plural, count)
            found = self._counts.get(key)
            if found is None:
                found = self._learn_count(
                    key, self._translations.ngettext(singular, plural, count), count)
            fields["count"] = found[1]
            return found[0].format_map(fields)
        return message_fill(
            self._translations.ngettext(singular, plural, count), self._counted(count, fields)
        )

    def npgettext(
        self, context: str, singular: str, plural: str, count: int, /, **fields: object
    ) -> str:
        if type(count) is int and "count" not in fields:  # as ngettext
            key = (context, singular, plural, count)
            found = self._counts.get(key)
            if found is None:
                found = self._learn_count(
                    key, self._translations.npgettext(context, singular, plural, count), count)
            fields["count"] = found[1]
            return found[0].format_map(fields)
        return message_fill(
            self._translations.npgettext(context, singular, plural, count),
            self._counted(count, fields),
        )

    def _learn_count(self, key: _CountKey, translated: str, count: int) -> tuple[str, str]:
        found = (translated, self.number(count))
        if len(self._counts) < TEMPLATES_KEPT:
            self._counts[key] = found
        return found

    def lookup(self, message: str, context: str | None = None) -> str | None:
        """The raw translation of ``message`` (fields not filled), or None when there is none."""
        if context is None:
            translated = self._translations.gettext(message)
        else:
            translated = self._translations.pgettext(context, message)
        return None if translated == message else translated

    def text(self, message: Message, /, **fields: object) -> str:
        """A marked :class:`Message` in this language."""
        context = message.context
        if context is None:
            key: str | tuple[str, str] = message.text
            found = self._templates.get(key)
            if found is None:
                found = self._learn(key, self._translations.gettext(message.text))
        else:
            key = (context, message.text)
            found = self._templates.get(key)
            if found is None:
                found = self._learn(key, self._translations.pgettext(context, message.text))
        return found[0].format_map(fields) if found[1] else found[0]

    def plural(self, message: PluralMessage, count: int, /, **fields: object) -> str:
        """A marked :class:`PluralMessage` for ``count`` in this language."""
        if message.context is None:
            return self.ngettext(message.singular, message.plural, count, **fields)
        return self.npgettext(message.context, message.singular, message.plural, count, **fields)

    def number(self, value: int | float | Decimal) -> str:
        """``value`` with this language's separators (``1,234.5`` / ``1234,5``)."""
        return _number(value, self.locale)

    def decimal(self, value: float, digits: int = 1) -> str:
        """``value`` with exactly ``digits`` decimals (``12.0`` / ``12,0``)."""
        pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
        return format_decimal(value, format=pattern, locale=self.locale)

    def duration(self, span: dt.timedelta, *, direction: bool = False) -> str:
        """``span`` in words (``"5 minutes"``; ``"in 5 minutes"`` with ``direction``)."""
        return format_timedelta(
            span, locale=self.locale, threshold=1.5, add_direction=direction
        )

    def date(self, day: dt.date) -> str:
        """``day`` in this language's medium date format (``Dec 1, 2026`` / ``1 dic 2026``)."""
        return format_date(day, format="medium", locale=self.locale)

    def _counted(self, count: int, fields: dict[str, object]) -> dict[str, object]:
        if "count" in fields:
            raise TypeError("plural texts get {count} from the count argument")
        return {**fields, "count": self.number(count)}


def message_fill(template: str, fields: dict[str, object]) -> str:
    """``template`` with its ``{name}`` fields; a missing field raises KeyError."""
    return template.format_map(fields)


# Scores, counts and prices repeat on every table a click redraws, and Babel formats each
# anew (tens of microseconds): the same few hundred numbers per language are kept, no more
# than a picture worker's cache budget (cogs.render_workers.CACHE_ENTRIES), which
# would otherwise empty it after every job.
@lru_cache(maxsize=512, typed=True)
def _number(value: int | float | Decimal, locale: Locale) -> str:
    return format_decimal(value, locale=locale)
