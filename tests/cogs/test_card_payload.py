"""A card's payload is written once, as dicts, and is byte for byte what discord.py's
``Container``, ``TextDisplay``, ``Separator``, ``MediaGallery`` and ``ActionRow`` objects
wrote (``cogs.kit.card_layout.card_view``, issue 42): :func:`reference_card` below is the
builder the cards were made with before, kept here as the oracle."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any

import discord
import pytest

from bench.table_size import sessions
from cogs.game_ui import Render, as_card
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.card_emojis import CARD_EMOJIS
from cogs.kit.card_layout import (
    CONTENT_ID,
    MAX_COMPONENTS,
    MAX_TEXT,
    Card,
    Picture,
    _accent,
    _gallery,
    _rows,
    _texts_within,
    card_view,
    embed_details,
    embed_heading,
)
from cogs.kit.control_payloads import Rows
from cogs.kit.discord_limits import fit_content, fit_embeds
from cogs.split import SplitUI
from cogs.ten import TenUI
from game.registry import engines
from tests.cogs.payload_oracle import as_view, discord_objects


def reference_card(content: str | None, embeds: Sequence[discord.Embed],
                   pictures: Sequence[Picture], view: discord.ui.View | None,
                   decorate: Callable[[str], str] | None = None) -> discord.ui.LayoutView:
    """The card as discord.py's objects build it (``card_view`` before issue 42's fourth
    pass, unchanged)."""
    rows = _rows(view)
    controls = sum(len(row) + 1 for row in rows)
    budget = MAX_COMPONENTS - 1 - (1 if pictures else 0) - (1 if rows else 0) - controls
    blocks: list[str | None] = []
    if content:
        blocks.append(content)
    first_is_content = bool(content)
    for index, embed in enumerate(embeds):
        blocks.append(embed_heading(embed))
        if index == 0 and pictures:
            blocks.append(None)
        blocks.append(embed_details(embed))
    if pictures and None not in blocks:
        blocks.append(None)
    if decorate is not None:
        decorated = [decorate(block) if block else block for block in blocks]
        if sum(len(block) for block in decorated if block) <= MAX_TEXT - len(blocks):
            blocks = decorated
    texts = iter(_texts_within([block for block in blocks if block], MAX_TEXT - len(blocks)))
    parts: list[list[str] | None] = []
    for block in blocks:
        if block is None:
            parts.append(None)
        elif block and (text := next(texts, None)) is not None:
            parts.append([text])
    while sum(part is not None for part in parts) > max(budget, 1):
        pairs = [i for i in range(len(parts) - 1)
                 if parts[i] is not None and parts[i + 1] is not None]
        if not pairs:
            break
        last = pairs[-1]
        parts[last] = [*(parts[last] or []), *(parts.pop(last + 1) or [])]
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=_accent(embeds))
    for index, part in enumerate(parts):
        if part is None:
            container.add_item(_gallery(pictures))
        elif index == 0 and first_is_content:
            container.add_item(discord.ui.TextDisplay("\n".join(part), id=CONTENT_ID))
        else:
            container.add_item(discord.ui.TextDisplay("\n".join(part)))
    if rows:
        container.add_item(discord.ui.Separator())
        for row in rows:
            action_row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
            for item in row:
                action_row.add_item(item)
            container.add_item(action_row)
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(container)
    layout.stop()
    return layout


def assert_same_card(render: Render, pictures: Sequence[Picture] = (),
                     decorate: Callable[[str], str] | None = None,
                     old: Render | None = None) -> None:
    """``render``'s card is the one ``reference_card`` builds of ``old`` (the same render
    drawn with discord.py's objects, ``tests.cogs.payload_oracle``; by default ``render``)."""
    content, embeds = fit_content(render.content), fit_embeds(render.embeds)
    card = card_view(content, embeds, pictures, render.view, decorate)
    made = json.dumps(card.to_components(), ensure_ascii=False)
    view = as_view((old or render).view)
    reference = json.dumps(reference_card(content, embeds, pictures, view, decorate)
                           .to_components(), ensure_ascii=False)
    assert made == reference


def game_renders(key: str, language: Language, steps: int) -> Iterator[tuple[Render, Render]]:
    """The table and every seat's private view after each of ``steps`` actions of a seeded
    bot game, each drawn with payloads and with discord.py's objects."""
    ui: Any = TenUI(engines()["ten"]) if key == "ten" else SplitUI(engines()["split"])
    words = words_for(language)
    for session in islice(sessions(key, 3, 7), steps):
        draws: list[Callable[[], Render]] = [
            lambda shown=session: ui.table_in(shown, words)]
        draws += [lambda seat=seat, shown=session: ui.private_in(shown, seat.player_id, words)
                  for seat in session.seats]
        for draw in draws:
            made = draw()
            with discord_objects():
                yield made, draw()


@pytest.mark.parametrize("key", ["ten", "split"])
@pytest.mark.parametrize("language", list(Language))
def test_a_game_card_is_the_payload_discord_py_wrote(key: str, language: Language) -> None:
    for render, old in game_renders(key, language, 60):
        assert_same_card(render, old=old)


def test_pictures_notes_decorations_and_every_limit_are_written_alike() -> None:
    long = [discord.Embed(title=f"Hand {i}", description="x" * 900,
                          colour=discord.Colour(i)) for i in range(8)]
    for embed in long:
        embed.add_field(name="Cards", value="7♥ " * 60)
        embed.set_footer(text="line one\n\nline two")
    many = discord.ui.View(timeout=None)
    for index in range(25):
        many.add_item(discord.ui.Button(label=f"7♥ {index}", custom_id=f"b{index}"))
    shot = [Picture("table.png", "The table"), Picture("hand.png", None)]
    for render, old in game_renders("ten", Language.EN, 5):
        assert_same_card(render, shot[:1], old=old)
        assert_same_card(Render(content="⏳ soon", embeds=render.embeds, view=render.view),
                         shot, CARD_EMOJIS.text, old=old)
    assert_same_card(Render(content="note", embeds=long, view=many), [Picture("a", "a" * 2000)])
    assert_same_card(Render(embeds=long), (), lambda text: text + "🃏" * 300)
    assert_same_card(Render(content="only words"))
    assert_same_card(Render(), shot)


async def test_a_card_is_written_once_and_reused_by_every_send() -> None:
    render = as_card(next(game_renders("ten", Language.EN, 1))[0])
    card = render.send_kwargs()["view"]
    assert isinstance(card, Card) and card.is_finished() and card.has_components_v2()
    assert card.to_components() is card.to_components()  # a retry sends the same payload
    assert isinstance(render.view, Rows)
    assert card.controls == [item for row in render.view.rows() for item in row]
