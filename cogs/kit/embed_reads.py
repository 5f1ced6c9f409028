"""A ``discord.Embed``'s footer, author, fields and pictures read without its proxies
(issue 42, fifth pass, round 2).

discord.py's ``Embed.footer``, ``author``, ``image``, ``thumbnail`` and each of ``fields``
build a new ``EmbedProxy`` (an object copying the part's dict) at every read, and a read of
a key the part lacks goes through its ``__getattr__``: the last guard on a message's limits
(``cogs.kit.discord_limits``) and the card's text (``cogs.kit.card_layout``) made about 50
such calls per stored TEN action. These functions read the dicts the proxies are made from
(the ``_footer``, ``_author``, ``_fields``, ``_image`` and ``_thumbnail`` slots, which
``set_footer``, ``set_author``, ``add_field``, ``set_image`` and ``set_thumbnail`` write, and
``to_dict`` sends) and must never change them: a change goes through the embed's setters.

This relies on discord.py's private layout of ``Embed``:
``tests/cogs/test_embed_reads.py`` fails when a read here and the public proxy disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import discord

_NOTHING: Mapping[str, Any] = MappingProxyType({})


def footer_of(embed: discord.Embed) -> Mapping[str, Any]:
    """The footer's parts (``text``, ``icon_url``...), as ``embed.footer`` holds them."""
    return getattr(embed, "_footer", None) or _NOTHING


def author_of(embed: discord.Embed) -> Mapping[str, Any]:
    """The author's parts (``name``, ``url``, ``icon_url``...), as ``embed.author``."""
    return getattr(embed, "_author", None) or _NOTHING


def fields_of(embed: discord.Embed) -> Sequence[Mapping[str, Any]]:
    """Each field's parts (``name``, ``value``, ``inline``), as ``embed.fields``."""
    return getattr(embed, "_fields", None) or ()


def picture_urls(embed: discord.Embed) -> tuple[str | None, str | None]:
    """The image's and the thumbnail's URLs (``embed.image.url``, ``embed.thumbnail.url``)."""
    image = getattr(embed, "_image", None) or _NOTHING
    thumbnail = getattr(embed, "_thumbnail", None) or _NOTHING
    return image.get("url"), thumbnail.get("url")
