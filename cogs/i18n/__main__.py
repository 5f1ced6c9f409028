"""``python -m cogs.i18n update`` (extract the template, merge it into every ``.po``) and
``python -m cogs.i18n check`` (report what is missing, stale, fuzzy or wrong, says a glossary
term otherwise than ``cogs/locales/GLOSSARY.md``, or names a button that is not there; exit 1
if any).
"""

from __future__ import annotations

import argparse
import sys

from cogs.i18n.button_check import button_problems, labels_of
from cogs.i18n.catalog_check import catalog_problems, source_problems, template_problems
from cogs.i18n.catalogs import TEMPLATE_PATH, TRANSLATED, po_path, read_catalog
from cogs.i18n.extraction import extract_template, update_catalogs
from cogs.i18n.glossary_check import glossary_problems, idiom_problems, read_idioms, read_terms
from cogs.i18n.language import Language


def check() -> list[str]:
    extracted = extract_template()
    template = read_catalog(TEMPLATE_PATH)
    problems = [f"template: {p}" for p in template_problems(template, extracted)]
    problems += [f"source: {p}" for p in source_problems(extracted)]
    terms = read_terms()
    idioms = read_idioms()
    problems += [f"glossary: {p}" for p in idiom_problems(terms, idioms)]
    catalogs = {language: read_catalog(po_path(language), language) for language in TRANSLATED}
    every_label = labels_of(template, english=True).union(
        *(labels_of(catalog) for catalog in catalogs.values()))
    problems += [f"template: {p}" for p in button_problems(template, Language.EN, every_label)]
    for language, catalog in catalogs.items():
        found = catalog_problems(catalog, template, language)
        found += glossary_problems(catalog, language, terms, idioms=idioms)
        found += button_problems(catalog, language, every_label)
        problems += [f"{language.value}: {p}" for p in found]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cogs.i18n", description=__doc__)
    parser.add_argument("command", choices=["update", "check"])
    command = parser.parse_args(argv).command
    if command == "update":
        update_catalogs()
        print(f"wrote {TEMPLATE_PATH} and {', '.join(str(po_path(lang)) for lang in TRANSLATED)}")
        return 0
    problems = check()
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
