"""A render as one Components V2 card (issue 41): its text, picture and controls in one
Container, within Discord's limits (40 components, 4,000 characters of text)."""

from __future__ import annotations

from typing import Any

import discord

from cogs.game_ui import Attachment, Render
from cogs.kit.card_layout import CONTENT_ID, MAX_COMPONENTS, MAX_TEXT


def _count(components: list[dict[str, Any]]) -> int:
    total = 0
    for component in components:
        total += 1 + _count(component.get("components") or [])
    return total


def _texts(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for component in components:
        if component["type"] == 10:
            found.append(component)
        found += _texts(component.get("components") or [])
    return found


def _view(buttons: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for index in range(buttons):
        view.add_item(discord.ui.Button(label=f"b{index}", custom_id=f"b{index}"))
    return view


async def test_a_render_becomes_one_container_with_its_picture_and_alt_text() -> None:
    embed = discord.Embed(title="SPLIT · round 1", description="Ana to play")
    embed.add_field(name="Pile", value="85")
    embed.set_footer(text="P perfect")
    render = Render(content="⏳ soon", embeds=[embed], view=_view(3), card=True,
                    files=[Attachment("table.png", b"png", "Picture of the table")])
    kwargs = render.send_kwargs()
    assert set(kwargs) == {"view", "files"}  # no content, no embeds beside the flag
    layout = kwargs["view"]
    assert layout.has_components_v2() and layout.is_finished()  # kept in no view store
    [container] = layout.to_components()
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 10, 12, 10, 14, 1]  # content, heading, picture, details, rule, row
    assert container["components"][0] == {"type": 10, "content": "⏳ soon", "id": CONTENT_ID}
    assert container["components"][1]["content"] == "### SPLIT · round 1\nAna to play"
    [item] = container["components"][2]["items"]
    assert item["media"]["url"] == "attachment://table.png"
    assert item["description"] == "Picture of the table"
    assert container["components"][3]["content"] == "**Pile**\n85\n-# P perfect"
    edit = render.edit_kwargs()
    assert edit["content"] is None and edit["embeds"] == []  # turns an old message into a card


async def test_a_card_keeps_within_40_components_and_4000_characters() -> None:
    embeds = [discord.Embed(title=f"Hand {i}", description="x" * 900) for i in range(8)]
    for embed in embeds:
        embed.add_field(name="Cards", value="y" * 200)
    render = Render(content="note", embeds=embeds, view=_view(25), card=True,
                    files=[Attachment("hand.png", b"png", "a" * 2000)])
    [container] = render.send_kwargs()["view"].to_components()
    assert _count([container]) <= MAX_COMPONENTS
    assert sum(len(c["content"]) for c in _texts([container])) <= MAX_TEXT
    gallery = next(c for c in container["components"] if c["type"] == 12)
    assert len(gallery["items"][0]["description"]) <= 1024
    assert sum(len(row["components"]) for row in container["components"]
               if row["type"] == 1) == 25  # every control kept


async def test_a_render_not_marked_as_a_card_is_sent_as_before() -> None:
    render = Render(content="hi", embeds=[discord.Embed(title="t")], view=_view(1))
    kwargs = render.send_kwargs()
    assert kwargs["content"] == "hi" and kwargs["view"] is render.view
