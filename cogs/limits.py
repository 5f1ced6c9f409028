"""Discord's message limits, enforced on every message body the cogs send or edit.

The renderers keep well inside these limits on their own; this is the last guard, so that a
long name or an unforeseen table can never make Discord refuse a message (400 50035): a text
past its limit is cut with "…" and embeds past the 10-embed or 6,000-character totals are
dropped from the end.
"""

from __future__ import annotations

import discord

from bot.errors import clip

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000

__all__ = ["clip", "fit_content", "fit_embed", "fit_embeds"]


def fit_content(content: str | None) -> str | None:
    return None if content is None else clip(content, CONTENT)


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """``embed`` with every text inside its limit (changed in place and returned)."""
    if embed.title is not None and len(embed.title) > EMBED_TITLE:
        embed.title = clip(embed.title, EMBED_TITLE)
    if embed.description is not None and len(embed.description) > EMBED_DESCRIPTION:
        embed.description = clip(embed.description, EMBED_DESCRIPTION)
    for index, item in enumerate(embed.fields):
        name, value = str(item.name), str(item.value)
        if len(name) > FIELD_NAME or len(value) > FIELD_VALUE:
            embed.set_field_at(index, name=clip(name, FIELD_NAME), value=clip(value, FIELD_VALUE),
                               inline=bool(item.inline))
    if embed.footer.text is not None and len(embed.footer.text) > FOOTER:
        embed.set_footer(text=clip(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name is not None and len(embed.author.name) > AUTHOR:
        embed.set_author(name=clip(embed.author.name, AUTHOR), url=embed.author.url,
                         icon_url=embed.author.icon_url)
    return embed


def fit_embeds(embeds: list[discord.Embed]) -> list[discord.Embed]:
    """At most 10 embeds whose texts add up to at most 6,000 characters (later ones dropped)."""
    kept: list[discord.Embed] = []
    total = 0
    for embed in embeds[:EMBEDS]:
        size = len(fit_embed(embed))
        if total + size > EMBED_TOTAL:
            break
        kept.append(embed)
        total += size
    return kept
