"""The glossary check: one English term, one translation per language.

``cogs/locales/GLOSSARY.md`` has a table "Checked terms": per row the English forms of a term
(whole words, any case) and, per language, the stems its translation may take (a stem is a
piece every inflected form keeps: ``tavolin`` for *tavolina*, *tavolinë*, *tavolinës*). Every
catalog entry whose English holds one of the forms must hold one of the stems in every form of
its translation, unless the glossary lists it under "Unchecked entries" with its reason.
An idiom listed under "Idioms" (language, term, the idiom, why) also says its term in that
language: *te toca* says "your move" in Spanish, where *tu jugada* would be a calque.
``python -m cogs.i18n check`` reports each entry that does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog

from cogs.i18n.catalog_check import forms, key
from cogs.i18n.catalogs import LOCALES_DIR
from cogs.i18n.command_texts import NAME_CONTEXTS
from cogs.i18n.language import Language

GLOSSARY_PATH = LOCALES_DIR / "GLOSSARY.md"
SECTION = "## Checked terms"
UNCHECKED = "## Unchecked entries"
IDIOMS = "## Idioms"
# Placeholders and button names are filled at run time, and a slash command is a name, not a
# word: neither is the translator's text.
_FIELD = re.compile(r"\{[a-z_]+\}")
_COMMAND = re.compile(r"/[a-z_]+")


@dataclass(frozen=True, slots=True)
class Term:
    english: tuple[str, ...]
    stems: dict[Language, tuple[str, ...]]
    # English phrases where a word of the term has another sense ("right away", "View Channel")
    other_senses: tuple[str, ...] = ()

    def pattern(self) -> re.Pattern[str]:
        words = "|".join(re.escape(word) for word in self.english)
        return re.compile(rf"(?<![\w'-])(?:{words})(?![\w-])", re.IGNORECASE)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _choices(cell: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("`").lower() for part in cell.split(",") if part.strip())


def read_terms(path: Path = GLOSSARY_PATH) -> list[Term]:
    """The rows of the "Checked terms" table (its header names the languages)."""
    table = [line for line in _section(path, SECTION) if line.startswith("|")]
    header = _cells(table[0])
    languages = [Language(code) for code in header[1:]]
    terms = []
    for line in table[2:]:
        cells = _cells(line)
        words, *others = cells[0].split(";")
        terms.append(Term(
            english=_choices(words),
            stems={language: _choices(cell) for language, cell in zip(languages, cells[1:],
                                                                       strict=True)},
            other_senses=tuple(other.strip().removeprefix("not ").strip().lower()
                               for other in others),
        ))
    return terms


@dataclass(frozen=True, slots=True)
class Idiom:
    """In ``language``, ``words`` say the term whose first English word is ``term``."""

    language: Language
    term: str
    words: str
    why: str


def read_idioms(path: Path = GLOSSARY_PATH) -> list[Idiom]:
    """The rows of the "Idioms" table: language, term, idiom, why."""
    table = [line for line in _section(path, IDIOMS) if line.startswith("|")]
    idioms = []
    for line in table[2:]:
        language, term, words, why = _cells(line)
        idioms.append(Idiom(Language(language), term.lower(), words.strip("*").lower(), why))
    return idioms


def idiom_problems(terms: list[Term], idioms: list[Idiom]) -> list[str]:
    """Idioms without a reason, or for a term the table of checked terms does not have."""
    known = {term.english[0] for term in terms}
    problems = []
    for idiom in idioms:
        if not idiom.why:
            problems.append(f"idiom {idiom.words!r} ({idiom.language.value}) gives no reason"
                            " (GLOSSARY.md)")
        if idiom.term not in known:
            problems.append(f"idiom {idiom.words!r} ({idiom.language.value}) is for"
                            f" {idiom.term!r}, which is no checked term (GLOSSARY.md)")
    return problems


def read_unchecked(path: Path = GLOSSARY_PATH) -> set[str]:
    """The English of the entries listed under "Unchecked entries" (``- `text` — why``)."""
    return {line[3:line.index("`", 3)] for line in _section(path, UNCHECKED)
            if line.startswith("- `")}


def _section(path: Path, heading: str) -> list[str]:
    """The lines under ``heading`` up to the next ``## `` heading (none without it)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if heading not in lines:
        return []
    body = lines[lines.index(heading) + 1:]
    end = next((i for i, line in enumerate(body) if line.startswith("## ")), len(body))
    return body[:end]


def glossary_problems(catalog: Catalog, language: Language, terms: list[Term] | None = None,
                      unchecked: set[str] | None = None,
                      idioms: list[Idiom] | None = None) -> list[str]:
    """Entries of ``catalog`` whose English holds a checked term and whose translation holds
    none of its stems nor one of its idioms (the entries listed as unchecked left out)."""
    problems = []
    skipped = read_unchecked() if unchecked is None else unchecked
    said_so = read_idioms() if idioms is None else idioms
    for term in read_terms() if terms is None else terms:
        stems = term.stems.get(language, ())
        if not stems:
            continue
        pattern = term.pattern()
        stems += tuple(idiom.words for idiom in said_so
                       if idiom.language is language and idiom.term == term.english[0])
        for message in catalog:
            if not message.id or message.context in NAME_CONTEXTS:
                continue
            if forms(message.id)[0] in skipped:
                continue
            english = " ".join(_COMMAND.sub(" ", _FIELD.sub(" ", text))
                               for text in forms(message.id)).lower()
            for other in term.other_senses:
                english = english.replace(other, " ")
            if not pattern.search(english):
                continue
            for index, form in enumerate(forms(message.string)):
                text = _FIELD.sub(" ", form).lower()
                if form and not any(stem in text for stem in stems):
                    problems.append(
                        f"{key(message)}: form {index} says {term.english[0]!r} without"
                        f" {' / '.join(term.stems[language])} (GLOSSARY.md)"
                    )
    return problems
