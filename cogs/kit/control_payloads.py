"""Controls written as payloads: a render's buttons and selects as the dicts Discord reads,
without building ``discord.ui`` items, ``DynamicItem`` wrappers and a ``discord.ui.View`` only
to serialise them (issue 42, fifth pass).

A :class:`ButtonPayload` or :class:`SelectPayload` holds what the component says (its
custom_id, label, style, emoji, options...) and writes it as discord.py's ``Button`` and
``Select`` write theirs (``to_component_dict``). A :class:`Rows` is the message's controls:
items placed in rows exactly as ``discord.ui.View`` places the kinds' ``DynamicItem``s (a
button with a ``row`` goes there, one without and every select into the first row with
room; at most 25 items, a row at most 5 wide: ``ValueError`` past either, the item not
added) and written as its action rows.

The clicks are unchanged: a control's custom_id is its kind's (``cogs.kit.custom_ids``), and
the kinds' ``DynamicItem`` classes, registered when the extensions load, parse and serve each
click (``bot.process.lean_dispatch``). So a sent :class:`Rows` is never kept in discord.py's
view store: it says it is finished (as ``cogs.kit.card_layout.Card`` does), and discord.py's
writes (``handle_message_parameters``, ``Messageable.send``, ``Message.edit``, the token
writes of ``bot.process.token_writes``) read only ``to_components``, ``has_components_v2``,
``is_finished``, ``is_dispatchable`` and ``timeout`` of it (and its ``__discord_ui_view__``
marker). ``tests/cogs/test_control_payloads.py`` fails when discord.py writes these
components or reads a view otherwise, and compares every table and private view of seeded
games with the ``discord.ui`` objects they were built with before.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

import discord

BUTTON = discord.ComponentType.button.value
STRING_SELECT = discord.ComponentType.string_select.value
ACTION_ROW = discord.ComponentType.action_row.value
MAX_CHILDREN = 25  # discord.ui.View's limits
MAX_ROWS = 5
ROW_WIDTH = 5


@lru_cache(maxsize=256)
def emoji_of(text: str) -> discord.PartialEmoji:
    """A control's emoji as discord.py reads a ``str`` one (``PartialEmoji.from_str``); the
    same few (🃏, 💡) every time, and never changed in place (the card emojis replace it)."""
    return discord.PartialEmoji.from_str(text)


class ButtonPayload:
    """A button as sent. ``kind``: the ``DynamicItem`` class whose template its custom_id
    matches, and ``parts`` the id's parts (tests rebuild the ``discord.ui`` item from them)."""

    __slots__ = ("custom_id", "disabled", "emoji", "kind", "label", "parts", "row", "style")
    width: ClassVar[int] = 1

    def __init__(self, kind: type, parts: tuple[Any, ...], custom_id: str, label: str | None,
                 style: discord.ButtonStyle, emoji: str | discord.PartialEmoji | None,
                 disabled: bool, row: int | None) -> None:
        self.kind = kind
        self.parts = parts
        self.custom_id = custom_id
        self.label = label
        self.style = style
        self.emoji: discord.PartialEmoji | None = (
            emoji_of(emoji) if isinstance(emoji, str) else emoji)
        self.disabled = disabled
        self.row = row

    def copy(self) -> ButtonPayload:
        """Another button saying the same, to place and decorate apart."""
        return ButtonPayload(self.kind, self.parts, self.custom_id, self.label, self.style,
                             self.emoji, self.disabled, self.row)

    def to_component_dict(self) -> dict[str, Any]:
        """As ``discord.ui.Button.to_component_dict`` (``ButtonComponent.to_dict``) writes it."""
        payload: dict[str, Any] = {"type": BUTTON, "style": self.style.value,
                                   "disabled": self.disabled}
        if self.label:
            payload["label"] = self.label
        payload["custom_id"] = self.custom_id
        if self.emoji:
            payload["emoji"] = self.emoji.to_dict()
        return payload

    def __repr__(self) -> str:
        return f"<ButtonPayload {self.custom_id!r} label={self.label!r}>"


class OptionPayload:
    """A select's option as sent: what a ``discord.SelectOption`` holds and writes
    (``SelectOption.to_dict``), without its property and its base class's calls (issue 42).
    ``emoji`` is a ``PartialEmoji`` or None (the card emojis set it)."""

    __slots__ = ("default", "description", "emoji", "label", "value")

    def __init__(self, label: str, value: str, description: str | None = None,
                 emoji: discord.PartialEmoji | None = None, default: bool = False) -> None:
        self.label = label
        self.value = value
        self.description = description
        self.emoji = emoji
        self.default = default

    def copy(self) -> OptionPayload:
        return OptionPayload(self.label, self.value, self.description, self.emoji, self.default)

    def to_dict(self) -> dict[str, Any]:
        """As ``discord.SelectOption.to_dict`` writes it."""
        payload: dict[str, Any] = {"label": self.label, "value": self.value,
                                   "default": self.default}
        if self.description:
            payload["description"] = self.description
        if self.emoji:
            payload["emoji"] = self.emoji.to_dict()
        return payload

    def __repr__(self) -> str:
        return f"<OptionPayload label={self.label!r} value={self.value!r}>"


# An option a select holds: ours, or discord.py's (a feature's own selects).
Option = OptionPayload | discord.SelectOption


class SelectPayload:
    """A string select as sent (``kind`` and ``parts`` as :class:`ButtonPayload`'s)."""

    __slots__ = ("custom_id", "disabled", "kind", "max_values", "min_values", "options",
                 "parts", "placeholder", "row")
    width: ClassVar[int] = 5

    def __init__(self, kind: type, parts: tuple[Any, ...], custom_id: str,
                 options: Sequence[Option], placeholder: str | None,
                 min_values: int, max_values: int, row: int | None) -> None:
        self.kind = kind
        self.parts = parts
        self.custom_id = custom_id
        self.options = list(options)
        self.placeholder = placeholder
        self.min_values = min_values
        self.max_values = max_values
        self.disabled = False
        self.row = row

    def copy(self) -> SelectPayload:
        """Another select saying the same, its options copied (the card emojis set theirs)."""
        return SelectPayload(self.kind, self.parts, self.custom_id,
                             [option.copy() if isinstance(option, OptionPayload)
                              else copy.copy(option) for option in self.options],
                             self.placeholder,
                             self.min_values, self.max_values, self.row)

    def to_component_dict(self) -> dict[str, Any]:
        """As ``discord.ui.Select.to_component_dict`` (``SelectMenu.to_dict``) writes it."""
        payload: dict[str, Any] = {
            "type": STRING_SELECT, "custom_id": self.custom_id, "min_values": self.min_values,
            "max_values": self.max_values, "disabled": self.disabled, "required": True,
        }
        if self.placeholder:
            payload["placeholder"] = self.placeholder
        if self.options:
            payload["options"] = [option.to_dict() for option in self.options]
        return payload

    def __repr__(self) -> str:
        return f"<SelectPayload {self.custom_id!r} options={len(self.options)}>"


Payload = ButtonPayload | SelectPayload


def fresh(item: Shown) -> Shown:
    """A copy of a payload (to place and decorate apart from the one kept); another item as
    it is."""
    return item.copy() if isinstance(item, ButtonPayload | SelectPayload) else item
# A control a render holds: a payload, or a discord.py item (a feature's own, a page's).
Shown = ButtonPayload | SelectPayload | discord.ui.Item[Any]


class Rows:
    """A message's controls in their rows, as a ``discord.ui.View`` of them would send them,
    handed to discord.py's writes as the view (see the module's docstring)."""

    __discord_ui_view__: ClassVar[bool] = True
    __slots__ = ("_children", "_placed", "_weights", "timeout")

    def __init__(self, items: Sequence[Shown] = ()) -> None:
        self._children: list[Shown] = []
        self._placed: list[int] = []  # each child's row, as discord.py renders it
        self._weights = [0] * MAX_ROWS
        self.timeout: float | None = None
        for item in items:
            self.add_item(item)

    @property
    def children(self) -> list[Shown]:
        return list(self._children)

    def add_item(self, item: Shown) -> Rows:
        """Place ``item`` as ``discord.ui.View.add_item`` does; ValueError (nothing added)
        when it does not fit."""
        if len(self._children) >= MAX_CHILDREN:
            raise ValueError("maximum number of children exceeded")
        weights, width = self._weights, item.width
        # A select's row is not where discord.py places it: a DynamicItem reads its row from
        # the wrapped component's ``_row``, which ``discord.ui.Select`` never sets (its
        # ``row`` is a slot of its own), so the View puts it in the first row with room.
        row = None if isinstance(item, SelectPayload) else item.row
        if row is not None:
            if weights[row] + width > ROW_WIDTH:
                raise ValueError(f"item would not fit at row {row} "
                                 f"({weights[row] + width} > 5 width)")
        else:
            for index, weight in enumerate(weights):  # a loop: no generator (issue 42)
                if weight + width <= ROW_WIDTH:
                    row = index
                    break
            else:
                raise ValueError("could not find open space for item")
        weights[row] += width
        self._children.append(item)
        self._placed.append(row)
        return self

    def rows(self) -> list[list[Shown]]:
        """The controls row by row, in the order they are shown (empty rows left out)."""
        found: list[list[Shown]] = [[] for _ in range(MAX_ROWS)]
        for item, row in zip(self._children, self._placed, strict=True):
            found[row].append(item)
        return [row for row in found if row]

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": ACTION_ROW, "components": [item.to_component_dict() for item in row]}
                for row in self.rows()]

    # --- what discord.py's writes ask of a view ---------------------------------------------

    def is_finished(self) -> bool:
        return True  # never kept in the view store: the registered DynamicItems serve clicks

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False

    def stop(self) -> None:
        """Nothing to stop (``cogs.client_services.release_view``)."""

    def __repr__(self) -> str:
        return f"<Rows children={len(self._children)}>"


def as_rows(view: Rows | discord.ui.View | None) -> Rows:
    """``view``'s controls as :class:`Rows` to add to (a new one for None; a ``discord.ui``
    view's items are placed again in their order, so where they show is unchanged)."""
    if isinstance(view, Rows):
        return view
    return Rows(view.children if view is not None else ())
