"""``as_card`` and ``text_only`` copy a Render field by field (issue 42's sixth pass): each is
what ``dataclasses.replace`` made, and a field added to Render fails here until they copy it."""

from __future__ import annotations

from dataclasses import fields, replace

import discord

from cogs.game_ui import Attachment, Render, as_card
from cogs.kit.control_payloads import Rows
from cogs.pictures import text_only


def test_render_has_the_fields_the_copies_write() -> None:
    assert [f.name for f in fields(Render)] == [
        "content", "embeds", "view", "files", "card", "emojis"]


def test_the_copies_are_what_replace_made() -> None:
    for card in (False, True):
        for emojis in (False, True):
            render = Render("text", [discord.Embed(title="t")], Rows(),
                            [Attachment("a.png", b"x", "alt")], card, emojis)
            carded = as_card(render)
            assert carded == replace(render, card=True) and carded is not render
            assert carded.embeds is render.embeds and carded.view is render.view
            plain = text_only(render)
            assert plain == replace(render, files=[], emojis=False) and plain is not render
    assert as_card(Render()) == replace(Render(), card=True)
    assert text_only(Render(files=None)) == replace(Render(), files=[], emojis=False)
