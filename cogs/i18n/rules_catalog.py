"""The /rules pages as catalog messages: the page type and the words around every page.

Each game's pages live in its UI package (``cogs/<game>/rules_text.py``: ``PAGES``), each
message with a context ``rules-<game>-<page>-title`` / ``-text`` so a page's translation stays
tied to its place. Every page stays under Discord's 4096-character embed description in every
language (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cogs.i18n.button_names import button_names
from cogs.i18n.messages import NP_, Message
from cogs.i18n.words import Words

MAX_DESCRIPTION = 4096
MAX_TITLE = 256


@dataclass(frozen=True, slots=True)
class RulesPage:
    title: Message
    text: Message


# The embed title and footer around a page: "SPLIT rules — Scoring", "Page 2 of 6".
PAGE_TITLE = NP_("rules-page-title", "{game} rules — {heading}")
PAGE_FOOTER = NP_("rules-page-footer", "Page {page} of {pages}")

def rules_texts(pages: Sequence[RulesPage], words: Words) -> list[tuple[str, str]]:
    """A game's pages as (title, text) in ``words``'s language."""
    names = button_names(words)
    return [(words.text(page.title), words.text(page.text, **names)) for page in pages]


def rules_page_title(name: str, heading: str, words: Words) -> str:
    """The embed title of one page: the game's name stays as it is (SPLIT, TEN)."""
    return words.text(PAGE_TITLE, game=name, heading=heading)


def rules_page_footer(page: int, pages: int, words: Words) -> str:
    """``page`` is 1-based."""
    return words.text(PAGE_FOOTER, page=words.number(page), pages=words.number(pages))
