"""A message as one card: Discord's Components V2 layout of a render's content, embeds,
pictures and controls (issue 41).

A card is one Container: the text (each embed's title and description, its fields, its
footer), the picture inline as a MediaGallery item whose ``description`` is its alt text
(an embed's image carries none), then the controls in their rows. A phone shows it as one
block, the picture between the heading and the details, the buttons under it.

What Discord allows, and this module keeps to
(https://discord.com/developers/docs/components/reference, "Components V2" and the limits
of Text Display; https://discord.com/developers/docs/components/using-message-components):

* the flag ``IS_COMPONENTS_V2`` (``1 << 15``) turns ``content`` and ``embeds`` off: every
  word is in a Text Display; discord.py sets the flag when the view says so
  (``has_components_v2``, as a :class:`Card` does);
* at most 40 components in a message, nested ones counted, and 4,000 characters of text in
  all its Text Displays (:data:`MAX_COMPONENTS`, :data:`MAX_TEXT`); longer text is cut;
* the flag cannot be removed from a message once set (discord/discord-api-docs#7560), so a
  message that became a card is only ever edited as a card; an older message without it is
  turned into one by an edit that sets the flag and clears ``content`` and ``embeds``
  (discordjs/guide#1620, "Limitations": upgrading a message by an edit);
* an attachment shows only where a media component names it (``attachment://name``);
* a deferred "thinking" answer cannot carry the flag: it is set on the edit that replaces it
  (discord/discord-api-docs#7515, #7560);
* a mention inside a card gives an empty push notification (discord/discord-api-docs#7854),
  so the turn ping, whose point is its notification, stays an ordinary message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.records.errors import clip
from cogs.kit.control_payloads import Rows, Shown
from cogs.kit.embed_reads import author_of, fields_of, footer_of

MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_ROWS = 5
MEDIA_DESCRIPTION = 1024  # a media gallery item's alt text
ATTACHMENT_SCHEME = "attachment://"
FOOTER_PREFIX = "-# "  # Discord's small grey line, where an embed had its footer
# The Text Display holding the render's ``content`` (a note, the clock lines) carries this
# component id (Discord numbers the others), so a reader of the message can tell it apart.
CONTENT_ID = 1
# Component types (https://discord.com/developers/docs/components/reference)
ACTION_ROW = discord.ComponentType.action_row.value
TEXT_DISPLAY = discord.ComponentType.text_display.value
CONTAINER = discord.ComponentType.container.value
MEDIA_GALLERY = discord.ComponentType.media_gallery.value


@dataclass(frozen=True)
class Picture:
    """A picture shown in a card: its attachment's file name and its alt text."""

    filename: str
    alt: str | None


def embed_heading(embed: discord.Embed) -> str:
    """An embed's author, title and description as one block of Markdown."""
    parts: list[str] = []
    author = author_of(embed).get("name")  # the dict, not a proxy (issue 42)
    if author:
        parts.append(f"-# {author}")
    if embed.title:
        parts.append(f"### {embed.title}")
    if embed.description:
        parts.append(str(embed.description))
    return "\n".join(parts)


def embed_details(embed: discord.Embed) -> str:
    """An embed's fields (name in bold, then its value) and its footer, as Markdown."""
    # the parts' dicts, not discord.py's proxies of them (cogs.kit.embed_reads, issue 42)
    parts = [f"**{name}**\n{item.get('value')}" if (name := item.get("name"))
             else str(item.get("value")) for item in fields_of(embed)]
    footer = footer_of(embed).get("text")
    if footer:
        parts.append("\n".join([FOOTER_PREFIX + line for line in footer.splitlines()
                                if line.strip()]))
    return "\n".join([part for part in parts if part])


def text_length(content: str | None, embeds: Sequence[discord.Embed]) -> int:
    """How many characters of text the card of ``content`` and ``embeds`` holds before any
    cut (at most :data:`MAX_TEXT` fit)."""
    blocks = [content or ""]
    for embed in embeds:
        blocks += [embed_heading(embed), embed_details(embed)]
    return sum([len(block) for block in blocks])


def _texts_within(texts: list[str], budget: int) -> list[str]:
    """``texts`` cut (the later ones first) so that they add up to at most ``budget``."""
    kept: list[str] = []
    left = budget
    for text in texts:
        if left <= 1:
            break
        piece = clip(text, left) if len(text) > left else text
        kept.append(piece)
        left -= len(piece)
    return kept


def _rows(view: Rows | discord.ui.View | None) -> list[list[Shown]]:
    """The controls of a legacy ``view`` in the rows it would show them in."""
    if view is None:
        return []
    if isinstance(view, Rows):
        return view.rows()[:MAX_ROWS]
    rows: dict[int, list[Shown]] = {}
    # discord.py gives each item of a View its row when it is added (``_rendered_row``)
    for item in sorted(view.children, key=lambda i: i._rendered_row or 0):
        rows.setdefault(item._rendered_row or 0, []).append(item)
    return [rows[key] for key in sorted(rows)][:MAX_ROWS]


class Card:
    """A render's card as sent: its Components V2 payload (:attr:`components`), built once
    from the render's texts, pictures and controls, and handed to every request that sends
    it (a retry, a write that falls back to the channel) as it is: read only (a reader that
    needs another payload, such as the card emojis' plain retry, builds a copy).
    ``controls``: the items in its action rows, in order (readers, tests).

    Not a ``discord.ui.LayoutView`` (issue 42, fifth pass): discord.py's writes read of a
    view only what this answers (``cogs.kit.control_payloads``: ``to_components``,
    ``has_components_v2``, ``is_finished``, ``is_dispatchable``, ``timeout``). Finished:
    discord.py keeps it in no view store (nor a 15-minute timer for an ephemeral one); the
    controls' DynamicItem classes serve the clicks without it
    (``cogs.client_services.release_view``)."""

    __discord_ui_view__: ClassVar[bool] = True
    __slots__ = ("components", "controls", "timeout")

    def __init__(self, components: list[dict[str, Any]], controls: Sequence[Shown]) -> None:
        self.controls = list(controls)
        self.components = components
        self.timeout: float | None = None

    def to_components(self) -> list[dict[str, Any]]:
        return self.components

    def has_components_v2(self) -> bool:
        return True  # discord.py sets the IS_COMPONENTS_V2 flag by it

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def stop(self) -> None:
        """Nothing to stop (``cogs.client_services.release_view``)."""

    def walk_children(self) -> Iterator[Shown]:
        """The controls, as discord.py's checks would see them."""
        yield from self.controls


# Separator() as discord.py writes it (divider, small spacing): the same every time.
SEPARATOR: dict[str, Any] = discord.ui.Separator().to_component_dict()


def card_view(content: str | None, embeds: Sequence[discord.Embed],
              pictures: Sequence[Picture], view: Rows | discord.ui.View | None,
              decorate: Callable[[str], str] | None = None) -> Card:
    """The card of a render: one Container with its text, its pictures and its controls,
    within Discord's limits for Components V2 (see the module's docstring). ``decorate``
    (the card emojis of ``cogs.kit.card_emojis``) rewrites each text when all of them still
    fit in :data:`MAX_TEXT` after it; else they stay plain.

    The payload is written as discord.py's ``Container``, ``TextDisplay``, ``Separator`` and
    ``ActionRow`` write theirs (``tests/cogs/test_card_payload.py`` compares the two), without
    building those objects and walking them again at each send (issue 42)."""
    rows = _rows(view)
    controls = len(rows) + sum([len(row) for row in rows])  # lists: no generator resumed
    # the container, one gallery, the separator before the controls, and the controls
    budget = MAX_COMPONENTS - 1 - (1 if pictures else 0) - (1 if rows else 0) - controls
    blocks: list[str | None] = []  # None: the pictures' place
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
        if sum([len(block) for block in decorated if block]) <= MAX_TEXT - len(blocks):
            blocks = decorated
    # (room kept for the line breaks that join texts sharing a Text Display)
    texts = iter(_texts_within([block for block in blocks if block], MAX_TEXT - len(blocks)))
    parts: list[list[str] | None] = []  # a Text Display's texts, or None for the gallery
    for block in blocks:
        if block is None:
            parts.append(None)
        elif block and (text := next(texts, None)) is not None:
            parts.append([text])
    # Past the component budget, neighbouring texts share one Text Display (the last first).
    while len(parts) - parts.count(None) > max(budget, 1):
        pairs = [i for i in range(len(parts) - 1)
                 if parts[i] is not None and parts[i + 1] is not None]
        if not pairs:
            break
        last = pairs[-1]
        parts[last] = [*(parts[last] or []), *(parts.pop(last + 1) or [])]
    inside: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        if part is None:
            inside.append(_gallery(pictures).to_component_dict())
        elif index == 0 and first_is_content:
            inside.append({"type": TEXT_DISPLAY, "content": "\n".join(part), "id": CONTENT_ID})
        else:
            inside.append({"type": TEXT_DISPLAY, "content": "\n".join(part)})
    placed: list[Shown] = []
    if rows:
        inside.append(dict(SEPARATOR))
        for row in rows:
            inside.append({"type": ACTION_ROW,
                           "components": [item.to_component_dict() for item in row]})
            placed.extend(row)
    accent = _accent(embeds)
    container = {"type": CONTAINER, "accent_color": accent.value if accent else None,
                 "spoiler": False, "components": inside}
    return Card([container], placed)


def _gallery(pictures: Sequence[Picture]) -> discord.ui.MediaGallery[Any]:
    gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery()
    for picture in pictures[:10]:
        alt = clip(picture.alt, MEDIA_DESCRIPTION) if picture.alt else None
        gallery.add_item(media=f"{ATTACHMENT_SCHEME}{picture.filename}", description=alt)
    return gallery


def _accent(embeds: Sequence[discord.Embed]) -> discord.Colour | None:
    """The first embed's colour, as the card's accent (a decoration only: nothing is said by
    colour alone)."""
    for embed in embeds:
        if embed.colour is not None:
            return embed.colour
    return None
