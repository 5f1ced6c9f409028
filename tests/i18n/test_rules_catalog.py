"""The /rules pages as catalog messages: same English, translated, within Discord's limits."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.rules_catalog import (
    MAX_DESCRIPTION,
    MAX_TITLE,
    RulesPage,
    rules_page_footer,
    rules_page_title,
    rules_texts,
)
from cogs.i18n.words import Words
from cogs.split import SplitUI
from cogs.split import rules_text as split_rules
from cogs.ten import TenUI
from cogs.ten import rules_text as ten_rules

MAX_FOOTER = 2048
# Each game UI package's catalog pages, by game key: (the game's name, pages).
RULES_PAGES: dict[str, tuple[str, tuple[RulesPage, ...]]] = {
    "split": ("SPLIT", split_rules.PAGES),
    "ten": ("TEN", ten_rules.PAGES),
}
SHOWN = {"split": SplitUI.rules, "ten": TenUI.rules}  # what /rules shows in English
GAMES = sorted(RULES_PAGES)


def texts(game: str, words: Words) -> list[tuple[str, str]]:
    return rules_texts(RULES_PAGES[game][1], words)


def title(game: str, heading: str, words: Words) -> str:
    return rules_page_title(RULES_PAGES[game][0], heading, words)
TRANSLATED = [language for language in Language if language is not Language.EN]
# Marks that must survive translation unchanged, each as many times as in English.
MARKS = ("**", "•", "→", "♠", "♣", "♥", "♦", "#", "×", "−", "⌈", "⌉", "\n")

# Glossary terms (cogs/locales/GLOSSARY.md) every translation of a game's rules uses.
TERMS = {
    ("split", Language.ES): ["pila de robo", "fila de descarte", "emparejamiento", "casilla"],
    ("split", Language.SQ): ["grumbulli i tërheqjes", "hedhjes", "ndeshje", "kuti negative"],
    ("split", Language.GU): ["ડ્રોનો ખૂંટો", "કાઢી નાખવાની પંક્તિ", "મેચ", "નકારાત્મક બોક્સ"],
    ("ten", Language.ES): ["comodín", "ficha de exceso", "fichas de moneda", "mercado", "subasta"],
    ("ten", Language.SQ): ["e egër", "shenjë busti", "shenja monedhe", "treg", "ankand"],
    ("ten", Language.GU): ["વાઇલ્ડ", "બસ્ટ ટોકન", "ચલણ ટોકન", "બજાર", "હરાજી"],
}


@pytest.mark.parametrize("game", GAMES)
def test_english_pages_are_the_rules_text_pages(game: str) -> None:
    assert texts(game, words_for(Language.EN)) == list(SHOWN[game])


@pytest.mark.parametrize("language", list(Language))
@pytest.mark.parametrize("game", GAMES)
def test_pages_fit_discord_embeds(game: str, language: Language) -> None:
    words = words_for(language)
    pages = texts(game, words)
    for number, (heading, text) in enumerate(pages, 1):
        assert 0 < len(text) <= MAX_DESCRIPTION
        assert len(title(game, heading, words)) <= MAX_TITLE
        assert len(rules_page_footer(number, len(pages), words)) <= MAX_FOOTER


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game", GAMES)
def test_every_page_is_translated_with_its_marks_and_numbers(
    game: str, language: Language
) -> None:
    english = texts(game, words_for(Language.EN))
    translated = texts(game, words_for(language))
    assert len(translated) == len(english)
    for (en_title, en_text), (title, text) in zip(english, translated, strict=True):
        assert title != en_title
        assert text != en_text
        for mark in MARKS:
            assert text.count(mark) == en_text.count(mark), (title, mark)
        assert Counter(re.findall(r"\d+", text)) == Counter(re.findall(r"\d+", en_text)), title


@pytest.mark.parametrize(("game", "language"), sorted(TERMS))
def test_pages_use_the_glossary_terms(game: str, language: Language) -> None:
    text = "\n".join(text for _, text in texts(game, words_for(language)))
    missing = [term for term in TERMS[game, language] if term not in text]
    assert missing == []


def test_page_title_and_footer_in_every_language() -> None:
    assert title("split", "Scoring", words_for(Language.EN)) == "SPLIT rules — Scoring"
    assert rules_page_footer(2, 6, words_for(Language.EN)) == "Page 2 of 6"
    es = words_for(Language.ES)
    assert title("ten", "Subastas", es) == "Reglas de TEN — Subastas"
    assert rules_page_footer(2, 6, es) == "Página 2 de 6"
    assert rules_page_footer(2, 6, words_for(Language.SQ)) == "Faqja 2 nga 6"
    sq_title = title("split", "Pikët", words_for(Language.SQ))
    assert sq_title == "Rregullat e lojës SPLIT — Pikët"
    gu_title = title("split", "સ્કોરિંગ", words_for(Language.GU))
    assert gu_title == "SPLITના નિયમો — સ્કોરિંગ"
    assert rules_page_footer(2, 6, words_for(Language.GU)) == "6માંથી પાનું 2"
