"""``cogs.i18n.catalogs.warm`` (the table extension's setup) reads every language's number
formats at startup: a number written afterwards in any language is a few Python calls, not
babel's first read of a locale's data (issue 42's sixth pass)."""

from __future__ import annotations

import cProfile
import pstats
from collections.abc import Iterator

import pytest
from babel import localedata

from cogs.i18n import words as words_module
from cogs.i18n.catalogs import warm, words_for
from cogs.i18n.language import Language


def _forget_locale_data() -> None:
    """As in a new process: no Words made, no locale data read, no number kept (another test
    in this process may have read them all already)."""
    words_for.cache_clear()
    words_module._number.cache_clear()
    localedata.clear_caches()


def _calls_for_a_number(language: Language) -> int:
    words = words_for(language)
    profile = cProfile.Profile()
    profile.enable()
    written = words.number(1234)
    profile.disable()
    assert written.replace("\u00a0", " ") in ("1,234", "1.234", "1 234")
    return pstats.Stats(profile).total_calls


@pytest.fixture
def fresh_locales() -> Iterator[None]:
    _forget_locale_data()
    yield
    _forget_locale_data()


@pytest.mark.usefixtures("fresh_locales")
def test_without_warm_the_first_number_reads_the_locale_data() -> None:
    # What warm saves, so that the test below measures something.
    assert _calls_for_a_number(Language.ES) > 5_000


@pytest.mark.usefixtures("fresh_locales")
def test_after_warm_a_number_reads_no_locale_data() -> None:
    warm()
    for language in Language:
        assert _calls_for_a_number(language) < 500  # the first read is ~22,000
