"""Every message body the cogs send is cut to Discord's limits, whatever the renderers made."""

from __future__ import annotations

import discord

from cogs.game_ui import Render
from cogs.kit.discord_limits import CONTENT, EMBED_DESCRIPTION, EMBED_TOTAL, EMBEDS, FIELD_VALUE


def test_overlong_texts_are_cut_and_embeds_fit_the_totals() -> None:
    embeds = [discord.Embed(title="t" * 300, description="d" * 5000) for _ in range(12)]
    embeds[0].add_field(name="n" * 300, value="v" * 2000)
    render = Render(content="c" * 2500, embeds=embeds)
    for kwargs in (render.send_kwargs(), render.edit_kwargs()):
        assert len(kwargs["content"]) == CONTENT and kwargs["content"].endswith("…")
        sent = kwargs["embeds"]
        assert 1 <= len(sent) <= EMBEDS
        assert sum(len(embed) for embed in sent) <= EMBED_TOTAL
        assert all(len(embed.description or "") <= EMBED_DESCRIPTION for embed in sent)
        assert len(str(sent[0].fields[0].value)) == FIELD_VALUE


def test_texts_within_the_limits_are_untouched() -> None:
    embed = discord.Embed(title="Table", description="row")
    render = Render(content="Your turn", embeds=[embed])
    assert render.send_kwargs() == {"content": "Your turn", "embeds": [embed]}
