"""The catalogs: ``cogs/locales/<lang>/LC_MESSAGES/tablebot.po``, compiled in memory.

No ``.mo`` file exists on disk: each ``.po`` is read with Babel and written as a ``.mo`` into
memory once per process, so the repository's text is what the bot speaks. English is the
source language (the msgids); it has no catalog.
"""

from __future__ import annotations

import gettext
from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from cogs.i18n.language import DEFAULT_LANGUAGE, Language
from cogs.i18n.words import Words

DOMAIN = "tablebot"
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
TEMPLATE_PATH = LOCALES_DIR / f"{DOMAIN}.pot"
TRANSLATED: tuple[Language, ...] = tuple(
    language for language in Language if language is not DEFAULT_LANGUAGE
)


def po_path(language: Language) -> Path:
    return LOCALES_DIR / language.value / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, language: Language | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=language.value if language else None, domain=DOMAIN)


def compile_catalog(catalog: Catalog) -> gettext.GNUTranslations:
    """``catalog`` as a gettext translation, via an in-memory ``.mo`` (fuzzy entries left out)."""
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@cache
def words_for(language: Language) -> Words:
    """The :class:`Words` of ``language``, compiled on first use and kept for the process."""
    if language is DEFAULT_LANGUAGE:
        return Words(language, gettext.NullTranslations())
    return Words(language, compile_catalog(read_catalog(po_path(language), language)))


def warm() -> None:
    """Make every language's Words and read its number formats now, at startup: babel reads
    a locale's data on its first number (~22,000 Python calls, a one-time cost that the first
    click writing a number in that language paid; issue 42, sixth pass)."""
    for language in Language:
        words_for(language).number(0)
