"""A game's rules pages as a message with Previous/Next buttons (each UI holds its pages).

A UI whose ``rules_pages`` are catalog pages (``cogs.i18n.rules_catalog.RulesPage``) is shown
in the reader's language; otherwise its ``rules`` as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs.game_ui import GameUI, Page, Render
from cogs.i18n.catalogs import words_for
from cogs.i18n.common_words import NEXT, PREVIOUS
from cogs.i18n.language import DEFAULT_LANGUAGE
from cogs.i18n.rules_catalog import RulesPage, rules_page_footer, rules_page_title, rules_texts
from cogs.i18n.words import Words
from cogs.kit.custom_ids import RulesPageButton

ENGLISH = words_for(DEFAULT_LANGUAGE)


def rules_view(game: str, page: int, pages: int, words: Words = ENGLISH) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RulesPageButton(game, max(page - 1, 0), "p", label=words.text(PREVIOUS),
                                  disabled=page <= 0))
    view.add_item(RulesPageButton(game, min(page + 1, pages - 1), "n", label=words.text(NEXT),
                                  disabled=page >= pages - 1))
    return view


def pages_in(ui: GameUI, words: Words) -> Sequence[Page]:
    catalog: object = getattr(ui, "rules_pages", None)
    if isinstance(catalog, Sequence) and catalog and all(
        isinstance(page, RulesPage) for page in catalog
    ):
        return rules_texts(catalog, words)
    return ui.rules


def rules_page(ui: GameUI, page: int, words: Words = ENGLISH) -> Render:
    """Page ``page`` (clamped) of the game's rules, with Previous/Next buttons."""
    pages = pages_in(ui, words)
    page = max(0, min(page, len(pages) - 1))
    heading, text = pages[page]
    embed = discord.Embed(title=rules_page_title(ui.title, heading, words), description=text)
    embed.set_footer(text=rules_page_footer(page + 1, len(pages), words))
    return Render(embeds=[embed], view=rules_view(ui.key, page, len(pages), words))
