"""The committed catalogs: complete, not fuzzy, same fields as English, template up to date."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural

from cogs.i18n.catalog_check import (
    catalog_problems,
    forms,
    keys,
    placeholders,
    source_problems,
    template_problems,
)
from cogs.i18n.catalogs import (
    LOCALES_DIR,
    TEMPLATE_PATH,
    TRANSLATED,
    compile_catalog,
    po_path,
    read_catalog,
)
from cogs.i18n.extraction import ROOT, extract_template, write_catalog
from cogs.i18n.language import Language


@pytest.fixture(scope="module")
def template() -> Catalog:
    return read_catalog(TEMPLATE_PATH)


def test_the_template_is_up_to_date_with_the_code(tmp_path: Path, template: Catalog) -> None:
    fresh = tmp_path / "tablebot.pot"
    write_catalog(extract_template(), fresh)
    extracted = read_catalog(fresh)
    assert template_problems(template, extracted) == []
    assert keys(extracted) == keys(template)
    # The rules pages and the vocabulary are in it (the extractor saw the markers).
    contexts = {context for context, _ in keys(extracted)}
    assert {"rules-split-6-text", "rules-ten-6-title", "rules-page-footer"} <= contexts
    assert ("count", "{count} player") in keys(extracted)


def test_english_fields_are_named(template: Catalog) -> None:
    assert source_problems(template) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalog_is_complete_and_consistent(language: Language, template: Catalog) -> None:
    catalog = read_catalog(po_path(language), language)
    assert catalog_problems(catalog, template, language) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_forms_are_babels(language: Language) -> None:
    catalog = read_catalog(po_path(language), language)
    expected = get_plural(language.value)
    assert catalog.num_plurals == expected.num_plurals
    assert catalog.plural_expr == expected.plural_expr
    plurals = [message for message in catalog if message.id and message.pluralizable]
    assert plurals
    assert all(len(forms(message.string)) == expected.num_plurals for message in plurals)


def test_expected_numbers_of_plural_forms() -> None:
    assert {lang: get_plural(lang.value).num_plurals for lang in TRANSLATED} == {
        Language.ES: 3, Language.SQ: 2, Language.GU: 2
    }


def test_no_compiled_catalog_is_in_the_repository() -> None:
    assert list(LOCALES_DIR.rglob("*.mo")) == []
    assert sorted(p.relative_to(LOCALES_DIR).as_posix() for p in LOCALES_DIR.rglob("*.po")) == [
        f"{lang.value}/LC_MESSAGES/tablebot.po" for lang in sorted(TRANSLATED)
    ]


def test_babel_cfg_is_the_extraction_map() -> None:
    assert (ROOT / "babel.cfg").read_text(encoding="utf-8").count("[python: cogs/**.py]") == 1


# The checker itself finds each kind of fault.

def _template() -> Catalog:
    template = Catalog(domain="tablebot")
    template.add("Join", context="button")
    template.add("{name} wins", context="status")
    template.add(("{count} card", "{count} cards"), context="count")
    return template


def _albanian(**strings: object) -> Catalog:
    catalog = Catalog(locale="sq", domain="tablebot", fuzzy=False)
    values: dict[str, object] = {
        "join": "Bashkohu", "wins": "Fiton {name}", "cards": ("{count} letër", "{count} letra")
    }
    values.update(strings)
    catalog.add("Join", values["join"], context="button")  # type: ignore[arg-type]
    catalog.add("{name} wins", values["wins"], context="status")  # type: ignore[arg-type]
    catalog.add(
        ("{count} card", "{count} cards"), values["cards"], context="count"  # type: ignore[arg-type]
    )
    return catalog


def test_checker_accepts_a_good_catalog() -> None:
    assert catalog_problems(_albanian(), _template(), Language.SQ) == []


def test_checker_reports_an_empty_entry() -> None:
    problems = catalog_problems(_albanian(join=""), _template(), Language.SQ)
    assert problems == ["('button', 'Join'): form 0 is empty"]


def test_checker_reports_changed_fields() -> None:
    problems = catalog_problems(_albanian(wins="Fiton {emri}"), _template(), Language.SQ)
    assert problems == ["('status', '{name} wins'): form 0 has fields ['emri'], English ['name']"]
    problems = catalog_problems(
        _albanian(cards=("{count} letër", "shumë letra")), _template(), Language.SQ
    )
    assert problems == ["('count', '{count} card'): form 1 has fields [], English ['count']"]


def test_checker_reports_wrong_number_of_plural_forms() -> None:
    problems = catalog_problems(
        _albanian(cards=("{count} letër", "{count} letra", "{count} letra")),
        _template(),
        Language.SQ,
    )
    assert problems == ["('count', '{count} card'): 3 plural forms, the language has 2"]


def test_checker_reports_fuzzy_missing_and_extra_entries() -> None:
    catalog = _albanian()
    catalog.get("Join", context="button").flags.add("fuzzy")  # type: ignore[union-attr]
    catalog.add("Leave", "Largohu", context="button")
    catalog.delete("{name} wins", context="status")
    problems = catalog_problems(catalog, _template(), Language.SQ)
    assert problems == [
        "missing: ('status', '{name} wins')",
        "not in the template: ('button', 'Leave')",
        "('button', 'Join'): fuzzy",
    ]


def test_checker_reports_wrong_plural_forms_header() -> None:
    catalog = _albanian()
    catalog.mime_headers = [("Plural-Forms", "nplurals=1; plural=0;")]  # a hand-edited header
    problems = catalog_problems(catalog, _template(), Language.SQ)
    assert len(problems) == 2
    assert problems[0].startswith("Plural-Forms is 'nplurals=1; plural=0;'")


def test_checker_reports_a_stale_template() -> None:
    extracted = _template()
    extracted.add("Start", context="button")
    assert template_problems(_template(), extracted) == [
        "not in the template (run update): ('button', 'Start')"
    ]
    assert template_problems(extracted, _template()) == [
        "in the template but no longer in the code (run update): ('button', 'Start')"
    ]


def test_checker_reports_positional_fields_and_bad_braces() -> None:
    template = Catalog(domain="tablebot")
    template.add("{} joined")
    template.add("{0} left")
    template.add("{name.upper} won")
    template.add("{oops")
    assert source_problems(template) == [
        "(None, '{} joined'): field {} is not a plain name",
        "(None, '{0} left'): field {0} is not a plain name",
        "(None, '{name.upper} won'): field {name.upper} is not a plain name",
        "(None, '{oops'): bad braces (expected '}' before end of string)",
    ]


def test_placeholders_ignore_escaped_braces() -> None:
    assert placeholders("{{literal}} {name}") == {"name"}


def test_compiled_catalog_drops_fuzzy_entries() -> None:
    catalog = _albanian()
    catalog.get("Join", context="button").flags.add("fuzzy")  # type: ignore[union-attr]
    translations = compile_catalog(catalog)
    assert translations.pgettext("button", "Join") == "Join"
    assert translations.pgettext("status", "{name} wins") == "Fiton {name}"
    assert translations.npgettext("count", "{count} card", "{count} cards", 5) == "{count} letra"
