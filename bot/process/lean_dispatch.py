"""A click on one of the bot's controls reaches its callback without discord.py rebuilding the
clicked message's whole view (issue 42).

discord.py dispatches a click on a ``DynamicItem`` (``ViewStore.schedule_dynamic_item_call``)
by turning every component of the clicked message into a ``discord.ui`` item
(``View.from_message``: a TEN table is about 15 items, its containers and text displays
included) only to find the clicked one in it and give the new item a parent view. The
bot's controls (``cogs.kit.custom_ids.Control``) read nothing of that view: the click is the
interaction, the id's parts and, for a select, the chosen values. A ``DynamicItem`` class
that says so (``LEAN`` set on it) is given the clicked component alone, as an item (made as
``from_component`` makes it, written out: :func:`lean_button`, :func:`lean_select`); every
other step of discord.py's is kept, in its order: a click on a message that does not carry
that component is ignored (as discord.py does), the item is made by the class's
``from_custom_id``, its state refreshed from the interaction, its ``interaction_check``
asked, its callback awaited, and an exception in any of them logged. Other classes go
through discord.py's own dispatch. On a ``ClickedMessage`` (``bot.process.lean_interactions``)
the clicked component is found among the payload's component dicts, and only it is made.

discord.py also matches a clicked id against every registered ``DynamicItem`` pattern (one
``fullmatch`` per control kind, 16 today, at every click); here only against the patterns
whose leading literal text (:func:`literal_prefix`, read with Python's own regular
expression parser, ``re._parser``) the id starts with, in their registration order
(:class:`DynamicIndex`, made again whenever the registrations change): the same matches, the
same calls in the same order. ``tests/bot/test_lean_dispatch.py`` compares the two over
every control class of the cogs.

Installed once, by ``bot.process.client`` (the process's one client).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable
from typing import Any

import discord
from discord.ui.view import ViewStore

from bot.process.lean_interactions import ClickedMessage

log = logging.getLogger(__name__)

LEAN = "__tablebot_lean_dispatch__"  # a DynamicItem class attribute: True = lean dispatch
_INSTALLED = "__tablebot_lean_installed__"
_INDEX = "_tablebot_dynamic_index"  # a ViewStore's DynamicIndex


def clicked(components: Iterable[Any], component_type: int, custom_id: str) -> Any | None:
    """The component of type ``component_type`` with ``custom_id`` among ``components`` and
    theirs (rows, containers, sections and their accessories); None when there is none."""
    for component in components:
        if getattr(component, "custom_id", None) == custom_id and \
                component.type.value == component_type:
            return component
        inner = list(getattr(component, "children", ()) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            inner.append(accessory)
        if inner:
            found = clicked(inner, component_type, custom_id)
            if found is not None:
                return found
    return None


# The clicked component as the item discord.py's ``Button.from_component`` and
# ``Select.from_component`` (a string select) make of it, written out (issue 42, sixth pass:
# their keyword arguments, ``__init__`` chains and ``Component._raw_construct``'s loop over
# the slots were ~30 Python calls a click): the item's base state as ``Item.__init__`` sets it,
# ``_provided_custom_id`` True (a clicked component has an id), and a new underlying
# component holding what ``from_component`` passes on (a select's ``required`` as
# ``Select.__init__``'s default, its channel types and default values empty, its values not
# chosen yet). ``tests/bot/test_lean_dispatch.py`` compares both with discord.py's over every
# attribute and slot, and fails when discord.py's slots change.
_BUTTON_FIELDS = ("style", "custom_id", "url", "disabled", "label", "emoji", "sku_id", "id")
_SELECT_FIELDS = ("custom_id", "placeholder", "min_values", "max_values", "options",
                  "disabled", "id")


def _item_base(item: Any) -> None:
    item._view = None
    item._row = None
    item._rendered_row = None
    item._provided_custom_id = True
    item._id = None
    item._parent = None


def lean_button(component: discord.components.Button) -> discord.ui.Button[Any]:
    """``discord.ui.Button.from_component(component)``, without its calls."""
    underlying = _NEW(discord.components.Button)
    underlying.style = component.style
    underlying.custom_id = component.custom_id
    underlying.url = component.url
    underlying.disabled = component.disabled
    underlying.label = component.label
    underlying.emoji = component.emoji
    underlying.sku_id = component.sku_id
    underlying.id = component.id
    item = _NEW(discord.ui.Button)
    _item_base(item)
    item._underlying = underlying
    return item


def lean_select(component: discord.components.SelectMenu) -> discord.ui.Select[Any]:
    """``discord.ui.Select.from_component(component)`` of a string select, without its calls."""
    underlying = _NEW(discord.components.SelectMenu)
    underlying.type = discord.ComponentType.string_select
    underlying.custom_id = component.custom_id
    underlying.placeholder = component.placeholder
    underlying.min_values = component.min_values
    underlying.max_values = component.max_values
    underlying.disabled = component.disabled
    underlying.required = True
    underlying.channel_types = []
    underlying.options = component.options
    underlying.default_values = []
    underlying.id = component.id
    item = _NEW(discord.ui.Select)
    _item_base(item)
    item._underlying = underlying
    item.row = None  # a slot of BaseSelect's (Item's property for a button)
    item._values = []
    return item


_NEW = object.__new__


def as_item(component: Any) -> discord.ui.Item[Any] | None:
    if isinstance(component, discord.components.Button):
        if component.custom_id is None:  # a link or premium button: discord.py's own way
            return discord.ui.Button.from_component(component)
        return lean_button(component)
    if isinstance(component, discord.components.SelectMenu):
        if component.type is not discord.ComponentType.string_select:
            return discord.ui.Select.from_component(component)
        return lean_select(component)
    return None


async def lean_call(factory: type[discord.ui.DynamicItem[Any]], interaction: discord.Interaction,
                    component_type: int, custom_id: str, match: re.Match[str]) -> None:
    message = interaction.message
    if message is None:
        return
    if isinstance(message, ClickedMessage):  # the clicked component alone is made
        component = message.component(component_type, custom_id)
    else:
        component = clicked(message.components, component_type, custom_id)
    base_item = as_item(component) if component is not None else None
    if base_item is None:
        return
    try:
        item = await factory.from_custom_id(interaction, base_item, match)
    except Exception:
        log.exception("Ignoring exception in dynamic item creation for %r", factory)
        return
    item._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]
    try:
        allow = await item.interaction_check(interaction)
    except Exception:
        allow = False
    if not allow:
        return
    try:
        await item.callback(interaction)
    except Exception:
        log.exception("Ignoring exception in dynamic item callback for %r", item)


def literal_prefix(pattern: re.Pattern[str]) -> str:
    """The text every string that ``pattern`` fullmatches starts with: its leading literal
    characters ('' when it has none, or ignores case)."""
    if pattern.flags & re.IGNORECASE:
        return ""
    try:
        parsed = re._parser.parse(pattern.pattern, pattern.flags)  # type: ignore[attr-defined]
    except Exception:  # a pattern the parser of this Python reads otherwise: no prefix
        return ""
    if parsed.state.flags & re.IGNORECASE:  # an inline (?i)
        return ""
    chars: list[str] = []
    for op, value in parsed:
        if op is not re._constants.LITERAL:  # type: ignore[attr-defined]
            break
        chars.append(chr(value))
    return "".join(chars)


Registered = tuple[tuple[re.Pattern[str], type[discord.ui.DynamicItem[Any]]], ...]


class DynamicIndex:
    """A view store's DynamicItem classes (``registered``: its ``_dynamic_items`` in their
    order) by their patterns' literal prefixes: the classes whose pattern may match an id."""

    def __init__(self, registered: Registered) -> None:
        self.registered = registered
        self.by_prefix: dict[str, list[tuple[int, re.Pattern[str], Any]]] = {}
        for order, (pattern, factory) in enumerate(registered):
            self.by_prefix.setdefault(literal_prefix(pattern), []).append(
                (order, pattern, factory))
        self.lengths = sorted({len(prefix) for prefix in self.by_prefix})

    def candidates(self, custom_id: str) -> list[tuple[int, re.Pattern[str], Any]]:
        """The registrations whose prefix ``custom_id`` starts with, in their order."""
        found: list[tuple[int, re.Pattern[str], Any]] = []
        groups = 0
        size = len(custom_id)
        by_prefix = self.by_prefix
        for length in self.lengths:
            if length > size:
                break
            key = custom_id[:length]
            if key in by_prefix:
                found += by_prefix[key]
                groups += 1
        if groups > 1:
            found.sort(key=_order)
        return found


def _order(entry: tuple[int, re.Pattern[str], Any]) -> int:
    return entry[0]


def index_of(store: ViewStore) -> DynamicIndex:
    """``store``'s :class:`DynamicIndex`, made again whenever its registrations changed."""
    registered: Registered = tuple(store._dynamic_items.items())
    index: DynamicIndex | None = getattr(store, _INDEX, None)
    if index is None or index.registered != registered:
        index = DynamicIndex(registered)
        setattr(store, _INDEX, index)
    return index


def install() -> None:
    """Route the clicks of ``LEAN`` classes through :func:`lean_call`, and match a clicked id
    against the patterns it may match only (idempotent)."""
    if getattr(ViewStore, _INSTALLED, False):
        return
    original = ViewStore.schedule_dynamic_item_call

    def dispatch_dynamic_items(self: ViewStore, component_type: int, custom_id: str,
                               interaction: discord.Interaction) -> None:
        # discord.py's loop over every registered pattern, over those that may match.
        for _, pattern, factory in index_of(self).candidates(custom_id):
            match = pattern.fullmatch(custom_id)
            if match is not None:
                self.add_task(asyncio.create_task(
                    self.schedule_dynamic_item_call(component_type, factory, interaction,
                                                    custom_id, match),
                    name=f"discord-ui-dynamic-item-{factory.__name__}-{custom_id}",
                ))

    async def schedule_dynamic_item_call(
        self: ViewStore, component_type: int, factory: type[discord.ui.DynamicItem[Any]],
        interaction: discord.Interaction, custom_id: str, match: re.Match[str],
    ) -> None:
        if getattr(factory, LEAN, False):
            await lean_call(factory, interaction, component_type, custom_id, match)
            return
        await original(self, component_type, factory, interaction, custom_id, match)

    ViewStore.schedule_dynamic_item_call = schedule_dynamic_item_call  # type: ignore[method-assign]
    ViewStore.dispatch_dynamic_items = dispatch_dynamic_items  # type: ignore[method-assign]
    setattr(ViewStore, _INSTALLED, True)
