"""The builder of controls before issue 42's fifth pass, kept as the oracle of
``cogs.kit.control_payloads``: each kind's ``payload`` factory building the kind's
``DynamicItem`` itself (a select's options ``discord.SelectOption``s, as
``cogs.kit.control_menus`` made them before its ``OptionPayload``s), and a
``discord.ui.View`` placing the items."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import discord

from cogs.kit import custom_ids
from cogs.kit.control_payloads import OptionPayload, Rows
from cogs.kit.view_memo import VersionMemo


@contextmanager
def discord_objects() -> Iterator[None]:
    """Within it, every kind's ``payload`` builds the kind's ``DynamicItem`` and nothing is
    kept per version (``cogs.kit.view_memo.VersionMemo``): the builder before the fifth
    pass."""
    button = custom_ids.ButtonControl.__dict__["payload"]
    select = custom_ids.SelectControl.__dict__["payload"]
    memo = VersionMemo.__dict__["of"]
    VersionMemo.of = lambda self, session, key, build: build()  # type: ignore[method-assign]

    def real(cls: Any, *parts: Any, **looks: Any) -> Any:
        if "options" in looks:  # the options as discord.py's, built from the same fields
            looks["options"] = [
                discord.SelectOption(label=option.label, value=option.value,
                                     description=option.description, emoji=option.emoji,
                                     default=option.default)
                if isinstance(option, OptionPayload) else option
                for option in looks["options"]]
        return cls(*parts, **looks)

    custom_ids.ButtonControl.payload = classmethod(real)  # type: ignore[assignment,method-assign]
    custom_ids.SelectControl.payload = classmethod(real)  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        custom_ids.ButtonControl.payload = button  # type: ignore[method-assign]
        custom_ids.SelectControl.payload = select  # type: ignore[method-assign]
        VersionMemo.of = memo  # type: ignore[method-assign]
    assert custom_ids.ButtonControl.__dict__["payload"] is button


def as_view(rows: Rows | discord.ui.View | None) -> discord.ui.View | None:
    """The controls placed by discord.py's own ``View``, in the order they were added."""
    if rows is None or isinstance(rows, discord.ui.View):
        return rows
    view = discord.ui.View(timeout=None)
    for item in rows.children:
        assert isinstance(item, discord.ui.Item), f"{item!r} was not built by discord.py"
        view.add_item(item)
    return view
