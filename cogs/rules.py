"""A game's rules pages as a message with Previous/Next buttons (each UI holds its pages)."""

from __future__ import annotations

import discord

from cogs.game_ui import GameUI, Render
from cogs.ids import RulesPageButton


def rules_view(game: str, page: int, pages: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RulesPageButton(game, max(page - 1, 0), "p", label="Previous",
                                  disabled=page <= 0))
    view.add_item(RulesPageButton(game, min(page + 1, pages - 1), "n", label="Next",
                                  disabled=page >= pages - 1))
    return view


def rules_page(ui: GameUI, page: int) -> Render:
    """Page ``page`` (clamped) of the game's rules, with Previous/Next buttons."""
    pages = ui.rules
    page = max(0, min(page, len(pages) - 1))
    heading, text = pages[page]
    embed = discord.Embed(title=f"{ui.title} rules — {heading}", description=text)
    embed.set_footer(text=f"Page {page + 1} of {len(pages)}")
    return Render(embeds=[embed], view=rules_view(ui.key, page, len(pages)))
