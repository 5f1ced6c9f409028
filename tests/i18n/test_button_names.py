"""Texts name buttons as they are labelled: every catalog is walked for texts that tell the
reader to press a button (or quote one) that is no button label in its language."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog

from cogs.i18n import Language, words_for
from cogs.i18n.button_check import button_problems, labels_of
from cogs.i18n.button_names import BUTTON_FIELDS, button_names
from cogs.i18n.catalog_check import forms, placeholders
from cogs.i18n.catalogs import TEMPLATE_PATH, TRANSLATED, po_path, read_catalog
from cogs.ten.colour_words import COLOUR_WORDS
from cogs.ten.table_text import colour_legend
from game.ten import COLOURS


def _every_label() -> set[str]:
    found = labels_of(read_catalog(TEMPLATE_PATH), english=True)
    for language in TRANSLATED:
        found |= labels_of(read_catalog(po_path(language), language))
    return found


def test_the_template_names_buttons_by_their_fields() -> None:
    assert button_problems(read_catalog(TEMPLATE_PATH), Language.EN, _every_label()) == []


@pytest.mark.parametrize("language", TRANSLATED, ids=lambda language: language.value)
def test_every_catalog_names_its_own_buttons(language: Language) -> None:
    catalog = read_catalog(po_path(language), language)
    assert button_problems(catalog, language, _every_label()) == []


def test_every_button_field_of_the_template_is_a_known_button() -> None:
    used = {
        field
        for message in read_catalog(TEMPLATE_PATH) if message.id
        for text in forms(message.id)
        for field in placeholders(text) if field.endswith("_button")
    }
    assert used and used <= BUTTON_FIELDS.keys()


@pytest.mark.parametrize("language", list(Language), ids=lambda language: language.value)
def test_button_fields_are_the_labels_in_the_readers_language(language: Language) -> None:
    words = words_for(language)
    names = button_names(words)
    assert names["done_button"] == words.pgettext("button", "Done laying down")
    assert names["flip_button"] == words.pgettext("button TEN", "Flip")
    assert all(names.values())


def _catalog(language: Language, *entries: tuple[str | None, str, str]) -> Catalog:
    catalog = Catalog(locale=language.value, domain="tablebot", fuzzy=False)
    catalog.add("Done laying down", "Terminé de bajar", context="button")
    catalog.add("I'm back", "Ya estoy aquí", context="button")
    for context, english, translated in entries:
        catalog.add(english, translated, context=context)
    return catalog


def test_a_text_pressing_a_button_that_is_not_there_is_reported() -> None:
    catalog = _catalog(
        Language.ES,
        (None, "Lay down, then press {done_button}.", "Baja y luego pulsa Hecho."),
        (None, "Click {im_back_button}.", "Pulsa **{im_back_button}**."),
    )
    problems = button_problems(catalog, Language.ES, labels_of(catalog) | {"Done"})
    assert problems == [
        "(None, 'Lay down, then press {done_button}.'): form 0: presses 'Hecho.', which is no"
        " button label here"
    ]


def test_a_quoted_label_of_another_language_is_reported() -> None:
    catalog = _catalog(Language.ES, (None, "Scores: {cards}", "**Puntuaciones** y **Mesa**"))
    problems = button_problems(catalog, Language.ES, labels_of(catalog) | {"Mesa"})
    assert problems == [
        "(None, 'Scores: {cards}'): form 0: quotes 'Mesa', a button label elsewhere but not here"
    ]


def test_an_english_text_must_name_a_button_by_its_field() -> None:
    template = Catalog(domain="tablebot")
    template.add("Done laying down", context="button")
    template.add("Lay down, then press Done laying down.")
    template.add("Lay down, then press **{done_button}**.")
    assert button_problems(template, Language.EN, labels_of(template, english=True)) == [
        "(None, 'Lay down, then press Done laying down.'): names a button without a button"
        " field"
    ]


def test_a_gujarati_text_names_the_button_before_the_verb() -> None:
    catalog = Catalog(locale="gu", domain="tablebot", fuzzy=False)
    catalog.add("Done laying down", "મેચ રમવાનું પૂરું", context="button")
    catalog.add("Then press {done_button}.", "પછી {done_button} દબાવો.")
    catalog.add("Then press Done.", "પછી Done દબાવો.")
    problems = button_problems(catalog, Language.GU, labels_of(catalog))
    assert problems == [
        "(None, 'Then press Done.'): form 0: presses 'પછી Done', which is no button label here"
    ]


@pytest.mark.parametrize("language", list(Language))
def test_button_names_made_once_per_words_and_handed_out_as_copies(language: Language) -> None:
    """Issue 42: the labels are made once per Words; each caller gets its own dict, so one
    that adds to it changes no other caller's."""
    words = words_for(language)
    first = button_names(words)
    assert first == {field: words.text(label) for field, label in BUTTON_FIELDS.items()}
    first["join_button"] = "changed"
    first["extra"] = "added"
    again = button_names(words)
    assert again is not first
    assert again == {field: words.text(label) for field, label in BUTTON_FIELDS.items()}


@pytest.mark.parametrize("language", list(Language))
def test_ten_colour_legend_made_once_per_words(language: Language) -> None:
    words = words_for(language)
    expected = " ".join(f"{colour} {words.text(COLOUR_WORDS[colour])}" for colour in COLOURS)
    assert colour_legend(words) == expected
    assert colour_legend(words) == expected
