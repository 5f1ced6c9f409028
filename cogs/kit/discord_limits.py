"""Discord's message limits, enforced on every message body the cogs send or edit.

The renderers keep well inside these limits on their own; this is the last guard, so that a
long name or an unforeseen table can never make Discord refuse a message (400 50035): a text
past its limit is cut with "…" and embeds past the 10-embed or 6,000-character totals are
dropped from the end. Attached files follow Discord's file limits: at most 10 per message,
none of 8 MiB or more (the smallest per-file limit, a server without boosts), and 25 MiB in all
(a request's limit); files past them are dropped from the end, with any embed image that
named them.
"""

from __future__ import annotations

import discord

from bot.records.errors import clip
from cogs.kit.embed_reads import author_of, fields_of, footer_of, picture_urls

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
FILES = 10
FILE_BYTES = 8 * 1024 * 1024  # a file must be smaller than this
FILES_TOTAL_BYTES = 25 * 1024 * 1024
FILE_DESCRIPTION = 1024  # an attachment's alt text
ATTACHMENT_SCHEME = "attachment://"

__all__ = ["clip", "fit_content", "fit_embed", "fit_embeds", "fit_files", "unlink_images"]


def fit_content(content: str | None) -> str | None:
    return None if content is None else clip(content, CONTENT)


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """``embed`` with every text inside its limit (changed in place and returned)."""
    if embed.title is not None and len(embed.title) > EMBED_TITLE:
        embed.title = clip(embed.title, EMBED_TITLE)
    if embed.description is not None and len(embed.description) > EMBED_DESCRIPTION:
        embed.description = clip(embed.description, EMBED_DESCRIPTION)
    # The parts' dicts, not discord.py's proxies of them (cogs.kit.embed_reads, issue 42).
    for index, item in enumerate(fields_of(embed)):
        name, value = str(item.get("name")), str(item.get("value"))
        if len(name) > FIELD_NAME or len(value) > FIELD_VALUE:
            embed.set_field_at(index, name=clip(name, FIELD_NAME), value=clip(value, FIELD_VALUE),
                               inline=bool(item.get("inline")))
    footer = footer_of(embed)
    text = footer.get("text")
    if text is not None and len(text) > FOOTER:
        embed.set_footer(text=clip(text, FOOTER), icon_url=footer.get("icon_url"))
    author = author_of(embed)
    author_name = author.get("name")
    if author_name is not None and len(author_name) > AUTHOR:
        embed.set_author(name=clip(author_name, AUTHOR), url=author.get("url"),
                         icon_url=author.get("icon_url"))
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


def fit_files(sizes: list[int]) -> list[int]:
    """The indexes of the files (given by their sizes in bytes, in order) that may go with one
    message: each under 8 MiB, at most 10, 25 MiB in all; the others are dropped."""
    kept: list[int] = []
    total = 0
    for index, size in enumerate(sizes):
        if len(kept) == FILES:
            break
        if size >= FILE_BYTES or total + size > FILES_TOTAL_BYTES:
            continue
        kept.append(index)
        total += size
    return kept


def unlink_images(embeds: list[discord.Embed], filenames: set[str]) -> None:
    """Remove from ``embeds`` (in place) every image or thumbnail that names an attachment not
    in ``filenames``: Discord refuses an ``attachment://`` URL without its file."""
    for embed in embeds:
        image, thumbnail = picture_urls(embed)
        for url, clear in ((image, embed.set_image), (thumbnail, embed.set_thumbnail)):
            if url and url.startswith(ATTACHMENT_SCHEME) and \
                    url.removeprefix(ATTACHMENT_SCHEME) not in filenames:
                clear(url=None)
