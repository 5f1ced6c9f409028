"""The glossary check: each checked term of ``GLOSSARY.md`` is said one way per language."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog

from cogs.i18n import Language
from cogs.i18n.__main__ import check
from cogs.i18n.catalogs import TRANSLATED, po_path, read_catalog
from cogs.i18n.glossary_check import Term, glossary_problems, read_terms


def test_the_glossary_table_has_every_language_on_every_row() -> None:
    terms = read_terms()
    assert len(terms) >= 40
    for term in terms:
        assert term.english and all(term.stems[language] for language in TRANSLATED), term


@pytest.mark.parametrize("language", TRANSLATED, ids=lambda language: language.value)
def test_every_catalog_says_each_term_as_the_glossary_does(language: Language) -> None:
    catalog = read_catalog(po_path(language), language)
    assert glossary_problems(catalog, language) == []


def test_the_check_command_runs_the_glossary_check() -> None:
    assert check() == []


SEAT = Term(english=("seat", "seats"), stems={Language.GU: ("બેઠક",)})
TABLE = Term(english=("table",), stems={Language.SQ: ("tavolin",)},
             other_senses=("table of contents",))


def test_an_entry_with_another_word_for_a_term_is_reported() -> None:
    catalog = Catalog(locale="gu", domain="tablebot", fuzzy=False)
    catalog.add("Seats ({seated}/{most})", "જગ્યાઓ ({seated}/{most})")
    catalog.add("Welcome back: your seat is yours again.", "ફરી સ્વાગત છે: તમારી બેઠક ફરી તમારી છે.")
    catalog.add("The lobby is full.", "લોબી ભરેલી છે.")
    assert glossary_problems(catalog, Language.GU, [SEAT]) == [
        "(None, 'Seats ({seated}/{most})'): form 0 says 'seat' without બેઠક (GLOSSARY.md)"
    ]


def test_whole_words_placeholders_and_other_senses_are_not_the_term() -> None:
    catalog = Catalog(locale="sq", domain="tablebot", fuzzy=False)
    catalog.add("Tableau: {table}", "Tabela: {table}")  # "Tableau" is another word
    catalog.add("The table of contents", "Përmbajtja")  # another sense
    catalog.add("Reading the table", "Si lexohet tabela")
    assert glossary_problems(catalog, Language.SQ, [TABLE]) == [
        "(None, 'Reading the table'): form 0 says 'table' without tavolin (GLOSSARY.md)"
    ]
