"""Extracting the template from the code and merging it into the catalogs (Babel).

``python -m cogs.i18n update`` runs both steps; the equivalent ``pybabel`` commands are in
``cogs/i18n/README.md``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import write_po

from cogs.i18n.catalogs import DOMAIN, TEMPLATE_PATH, TRANSLATED, po_path, read_catalog
from cogs.i18n.language import Language
from cogs.i18n.messages import EXTRACT_KEYWORDS

ROOT = Path(__file__).resolve().parent.parent.parent
MAPPING_PATH = ROOT / "babel.cfg"
PROJECT = "tablebot"
LANGUAGE_NAMES = {Language.ES: "Spanish", Language.SQ: "Albanian", Language.GU: "Gujarati"}


def _version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


def _new_catalog(language: Language | None) -> Catalog:
    """An empty catalog whose header names the project, not Babel's fill-in-the-blanks."""
    name = "Template" if language is None else f"{LANGUAGE_NAMES[language]} catalog"
    catalog = Catalog(
        locale=None if language is None else language.value,
        domain=DOMAIN,
        project=PROJECT,
        version=_version(),
        msgid_bugs_address="the tablebot issue tracker",
        last_translator="tablebot developers",
        language_team="none (template)" if language is None else LANGUAGE_NAMES[language],
        header_comment=(
            f"# {name} of {PROJECT}. Terms: cogs/locales/GLOSSARY.md.\n"
            "# Update with: python -m cogs.i18n update (see cogs/i18n/README.md)."
        ),
        fuzzy=False,
    )
    catalog.revision_date = datetime.now(UTC)
    return catalog


def pybabel_keyword_args() -> list[str]:
    """``-k`` options for ``pybabel extract`` equal to :data:`EXTRACT_KEYWORDS`."""
    args: list[str] = []
    for name, spec in EXTRACT_KEYWORDS.items():
        parts = [f"{part[0]}{part[1]}" if isinstance(part, tuple) else str(part) for part in spec]
        args += ["-k", name if parts == ["1"] else f"{name}:{','.join(parts)}"]
    return args


def extract_template(root: Path = ROOT) -> Catalog:
    """A fresh template catalog of every marked message under ``root`` (per ``babel.cfg``)."""
    with MAPPING_PATH.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    template = _new_catalog(None)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root), method_map, options_map, keywords=EXTRACT_KEYWORDS, strip_comment_tags=True
    ):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


TEMPLATE_WIDTH = 100
# The translations' wrapping as the translators' tools (pybabel, Poedit) write them, so that an
# update changes only the entries that changed.
TRANSLATION_WIDTH = 76


def write_catalog(catalog: Catalog, path: Path, width: int = TEMPLATE_WIDTH) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=width, sort_output=False)


def update_catalogs(languages: Iterable[Language] = TRANSLATED) -> None:
    """Write the template, then merge it into each language's ``.po`` (new ids come empty)."""
    template = extract_template()
    write_catalog(template, TEMPLATE_PATH)
    for language in languages:
        path = po_path(language)
        catalog = read_catalog(path, language) if path.exists() else _new_catalog(language)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.revision_date = datetime.now(UTC)
        catalog.obsolete.clear()
        write_catalog(catalog, path, TRANSLATION_WIDTH)
