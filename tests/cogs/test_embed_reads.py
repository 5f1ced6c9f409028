"""``cogs.kit.embed_reads`` reads discord.py's private layout of ``Embed``: these fail
when its reads and the public proxies (``footer``, ``author``, ``fields``, ``image``,
``thumbnail``) disagree, for embeds with and without each part."""

from __future__ import annotations

import discord
import pytest

from cogs.kit.embed_reads import author_of, fields_of, footer_of, picture_urls


def _embeds() -> list[discord.Embed]:
    full = discord.Embed(title="T", description="D", colour=discord.Colour.blue())
    full.set_footer(text="foot\nline", icon_url="https://example.com/i.png")
    full.set_author(name="Ana", url="https://example.com", icon_url="https://example.com/a.png")
    full.add_field(name="one", value="1", inline=False)
    full.add_field(name="", value="2")
    full.add_field(name=3, value=4.5)
    full.set_image(url="attachment://table.png")
    full.set_thumbnail(url="https://example.com/t.png")
    cleared = full.copy()
    cleared.set_footer(text=None)
    cleared.remove_author()
    cleared.clear_fields()
    cleared.set_image(url=None)
    cleared.set_thumbnail(url=None)
    received = discord.Embed.from_dict(full.to_dict())
    only_text = discord.Embed(title="only")
    only_text.set_footer(text="f")
    return [full, discord.Embed(), cleared, received, only_text]


@pytest.mark.parametrize("embed", _embeds())
def test_reads_agree_with_discord_py_proxies(embed: discord.Embed) -> None:
    for key in ("text", "icon_url", "proxy_icon_url"):
        assert footer_of(embed).get(key) == getattr(embed.footer, key)
    for key in ("name", "url", "icon_url", "proxy_icon_url"):
        assert author_of(embed).get(key) == getattr(embed.author, key)
    assert len(fields_of(embed)) == len(embed.fields)
    for read, proxy in zip(fields_of(embed), embed.fields, strict=True):
        for key in ("name", "value", "inline"):
            assert read.get(key) == getattr(proxy, key)
    assert picture_urls(embed) == (embed.image.url, embed.thumbnail.url)
    # what is read is what is sent
    sent = embed.to_dict()
    assert dict(footer_of(embed)) == sent.get("footer", {})
    assert dict(author_of(embed)) == sent.get("author", {})
    assert [dict(field) for field in fields_of(embed)] == sent.get("fields", [])


def test_reads_follow_the_setters() -> None:
    embed = discord.Embed()
    embed.set_footer(text="x" * 3000)
    embed.add_field(name="n", value="v")
    embed.set_field_at(0, name="m", value="w", inline=False)
    assert footer_of(embed).get("text") == "x" * 3000
    assert [dict(field) for field in fields_of(embed)] == [
        {"name": "m", "value": "w", "inline": False}]
