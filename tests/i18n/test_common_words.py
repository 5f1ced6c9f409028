"""The shared vocabulary (cogs.i18n.common_words) in every language, with the glossary's words."""

from __future__ import annotations

import pytest

from cogs.i18n import common_words as cw
from cogs.i18n.catalog_check import keys
from cogs.i18n.catalogs import TEMPLATE_PATH, read_catalog, words_for
from cogs.i18n.language import Language
from cogs.i18n.messages import Message, PluralMessage

MESSAGES = [value for value in vars(cw).values() if isinstance(value, Message)]
PLURALS = [value for value in vars(cw).values() if isinstance(value, PluralMessage)]

# The interface words GLOSSARY.md lists, as the catalogs must give them.
GLOSSARY = {
    cw.JOIN: ("Unirse", "Bashkohu", "જોડાઓ"),
    cw.LEAVE: ("Salir", "Largohu", "લોબી છોડો"),
    cw.START: ("Empezar", "Fillo", "શરૂ કરો"),
    cw.CANCEL: ("Cancelar", "Anulo", "રદ કરો"),
    cw.RULES: ("Reglas", "Rregullat", "નિયમો"),
    cw.SCORES: ("Puntuaciones", "Rezultatet", "સ્કોર"),
    cw.MY_HAND: ("Mi mano", "Dora ime", "મારો હાથ"),
    cw.YOUR_TURN: ("Tu turno", "Radha juaj", "તમારો વારો"),
    cw.GAME_OVER: ("Fin de la partida", "Loja mbaroi", "રમત પૂરી"),
    cw.REMATCH: ("Revancha", "Revansh", "ફરી રમો"),
    cw.LOG: ("Registro", "Regjistri", "લોગ"),
    cw.DRAW_PILE: ("Pila de robo", "Grumbulli i tërheqjes", "ડ્રોનો ખૂંટો"),
    cw.DISCARD_ROW: ("Fila de descarte", "Rreshti i hedhjes", "કાઢી નાખવાની પંક્તિ"),
}


def test_the_vocabulary_is_in_the_template() -> None:
    template = keys(read_catalog(TEMPLATE_PATH))
    assert MESSAGES and PLURALS
    for message in MESSAGES:
        assert (message.context, message.text) in template
    for plural in PLURALS:
        assert (plural.context, plural.singular) in template


@pytest.mark.parametrize("message", list(GLOSSARY), ids=lambda m: m.text)
def test_interface_words_follow_the_glossary(message: Message) -> None:
    got = tuple(words_for(lang).text(message) for lang in (Language.ES, Language.SQ, Language.GU))
    assert got == GLOSSARY[message]


@pytest.mark.parametrize("language", [Language.ES, Language.SQ, Language.GU])
def test_counts_are_translated_for_one_and_many(language: Language) -> None:
    words = words_for(language)
    english = words_for(Language.EN)
    for plural in PLURALS:
        for count in (1, 2, 7):
            text = words.plural(plural, count)
            assert text.startswith(f"{count} ")
            assert text != english.plural(plural, count)


def test_button_labels_fit_discord() -> None:
    for language in Language:
        words = words_for(language)
        for message in MESSAGES:
            if message.context == "button":
                assert len(words.text(message)) <= 80
