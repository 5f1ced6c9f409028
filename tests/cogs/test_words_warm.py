"""``cogs.i18n.catalogs.warm`` (the table extension's setup) reads every language's number
formats at startup: a number written afterwards in any language is a few Python calls, not
babel's first read of a locale's data (issue 42's sixth pass)."""

from __future__ import annotations

import cProfile
import pstats

from cogs.i18n.catalogs import warm, words_for
from cogs.i18n.language import Language


def test_after_warm_a_number_reads_no_locale_data() -> None:
    warm()
    for language in Language:
        words = words_for(language)
        profile = cProfile.Profile()
        profile.enable()
        written = words.number(1234)
        profile.disable()
        assert written.replace("\u00a0", " ") in ("1,234", "1.234", "1 234")
        assert pstats.Stats(profile).total_calls < 500  # the first read is ~22,000
