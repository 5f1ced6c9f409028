"""The glossary check: each checked term of ``GLOSSARY.md`` is said one way per language."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog

from cogs.i18n import Language
from cogs.i18n.__main__ import check
from cogs.i18n.catalogs import TRANSLATED, po_path, read_catalog
from cogs.i18n.glossary_check import (
    Idiom,
    Term,
    glossary_problems,
    idiom_problems,
    read_idioms,
    read_terms,
)


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


MOVE = Term(english=("move", "moves"), stems={Language.ES: ("jugada",)})


def test_an_idiom_listed_for_a_term_says_it_in_that_language_only() -> None:
    catalog = Catalog(locale="es", domain="tablebot", fuzzy=False)
    catalog.add("{player}, your move in {game}.", "{player}, te toca en {game}.")
    catalog.add("That move is not legal.", "Eso no se puede hacer ahora.")
    idioms = [Idiom(Language.ES, "move", "te toca", "said to a player"),
              Idiom(Language.SQ, "move", "eso no", "another language's idiom")]
    assert glossary_problems(catalog, Language.ES, [MOVE], unchecked=set(), idioms=idioms) == [
        "(None, 'That move is not legal.'): form 0 says 'move' without jugada (GLOSSARY.md)"
    ]


def test_an_idiom_without_a_reason_or_for_an_unchecked_term_is_reported() -> None:
    idioms = [Idiom(Language.ES, "move", "te toca", ""), Idiom(Language.GU, "moov", "x", "why")]
    assert idiom_problems([MOVE], idioms) == [
        "idiom 'te toca' (es) gives no reason (GLOSSARY.md)",
        "idiom 'x' (gu) is for 'moov', which is no checked term (GLOSSARY.md)",
    ]


def test_every_idiom_of_the_glossary_gives_its_reason() -> None:
    idioms = read_idioms()
    assert idioms and idiom_problems(read_terms(), idioms) == []
