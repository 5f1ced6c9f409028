"""A click on one of the bot's controls goes to its callback with the clicked component alone
(``bot.process.lean_dispatch``): found inside rows, containers and sections; a click whose
component is not on the message is ignored, as discord.py ignores it; other DynamicItem
classes keep discord.py's dispatch."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import Any, ClassVar

import discord
import pytest
from discord.components import _component_factory
from discord.ui.view import ViewStore

import bot.process.client  # noqa: F401  (installs the lean dispatch)
from bot.process import lean_dispatch
from bot.process.lean_dispatch import (
    LEAN,
    DynamicIndex,
    Registered,
    clicked,
    index_of,
    lean_call,
    literal_prefix,
)

BUTTON, SELECT = 2, 3
# A Components V2 card: a container with a section (a button accessory) and two rows.
CARD: list[Any] = [
    {"type": 17, "components": [
        {"type": 10, "content": "the table"},
        {"type": 9, "components": [{"type": 10, "content": "Scores"}],
         "accessory": {"type": 2, "style": 2, "label": "Scores", "custom_id": "tb:info:1:scores"}},
        {"type": 1, "components": [
            {"type": 2, "style": 1, "label": "Draw", "custom_id": "tb:act:1:2:d"},
            {"type": 2, "style": 5, "label": "Link", "url": "https://discord.com"},
        ]},
        {"type": 1, "components": [
            {"type": 3, "custom_id": "tb:sel:1:2:buy", "options": [{"label": "a", "value": "a"}]},
        ]},
    ]},
]


def components() -> list[Any]:
    return [_component_factory(data) for data in CARD]


def test_the_clicked_component_is_found_wherever_it_is() -> None:
    found = clicked(components(), BUTTON, "tb:info:1:scores")
    assert found is not None and found.label == "Scores"
    draw = clicked(components(), BUTTON, "tb:act:1:2:d")
    select = clicked(components(), SELECT, "tb:sel:1:2:buy")
    assert draw is not None and draw.label == "Draw"
    assert select is not None and select.custom_id == "tb:sel:1:2:buy"
    assert clicked(components(), SELECT, "tb:act:1:2:d") is None  # the wrong type
    assert clicked(components(), BUTTON, "tb:act:1:2:x") is None


class Probe(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tb:act:(?P<rest>.*)"):
    calls: ClassVar[list[tuple[str, str | None]]] = []

    @classmethod
    async def from_custom_id(cls, interaction: Any, item: Any, match: re.Match[str]) -> Probe:
        return cls(item)

    async def callback(self, interaction: Any) -> None:
        Probe.calls.append((self.custom_id, self.item.label))


async def test_a_lean_click_reaches_the_callback_only_when_the_message_carries_it() -> None:
    Probe.calls = []
    interaction = SimpleNamespace(message=SimpleNamespace(components=components()),
                                  data={"custom_id": "tb:act:1:2:d", "component_type": BUTTON})
    for custom_id in ("tb:act:1:2:d", "tb:act:9:9:z"):  # on the message, then not
        match = Probe.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None
        await lean_call(Probe, interaction, BUTTON, custom_id, match)  # type: ignore[arg-type]
    assert Probe.calls == [("tb:act:1:2:d", "Draw")]
    match = Probe.__discord_ui_compiled_template__.fullmatch("tb:act:1:2:d")
    assert match is not None
    no_message: Any = SimpleNamespace(message=None)
    await lean_call(Probe, no_message, BUTTON, "tb:act:1:2:d", match)
    assert len(Probe.calls) == 1


def test_installed_once_and_only_for_lean_classes() -> None:
    from cogs.kit.custom_ids import ActButton, ActSelect

    installed = ViewStore.schedule_dynamic_item_call
    lean_dispatch.install()
    assert ViewStore.schedule_dynamic_item_call is installed
    assert getattr(ActButton, LEAN) is True and getattr(ActSelect, LEAN) is True
    assert not getattr(Probe, LEAN, False)  # discord.py's own dispatch for it


@pytest.mark.parametrize(("pattern", "prefix"), [
    (r"tb:act:(?P<sid>[0-9]+):(?P<rest>.*)", "tb:act:"),
    (r"tb:a\:b(?P<x>.)", "tb:a:b"),  # an escaped literal is a literal
    (r"tb:act:x|tb:sel:y", "tb:"),  # only what both branches start with
    (r"tb:act|other", ""),
    (r"(?i)tb:act:.*", ""),  # ignoring case: no prefix
    (r"(?P<all>.*)", ""),
    (r"tb:x+", "tb:"),  # a repeated character is not a prefix
])
def test_a_patterns_literal_prefix(pattern: str, prefix: str) -> None:
    assert literal_prefix(re.compile(pattern)) == prefix
    assert literal_prefix(re.compile(pattern, re.IGNORECASE)) == ""


def registered_controls() -> Registered:
    """Every control class of the cogs, with discord.py's test probe among them."""
    import importlib

    from bot.process.client import EXTENSIONS
    from cogs.kit.custom_ids import Control

    for extension in EXTENSIONS:
        importlib.import_module(extension)

    def subclasses(cls: type) -> list[type]:
        return [sub for direct in cls.__subclasses__() for sub in (direct, *subclasses(direct))]

    kinds = sorted({sub for sub in subclasses(Control) if getattr(sub, "kind", None)},
                   key=lambda cls: cls.__qualname__)
    everything: list[Any] = [*kinds, Probe]
    return tuple((cls.__discord_ui_compiled_template__, cls) for cls in everything)


def test_the_index_gives_what_discord_pys_loop_matches() -> None:
    registered = registered_controls()
    index = DynamicIndex(registered)
    ids = ["tb:act:1:2:d", "tb:act:12:9:x:y", "tb:sel:1:2:buy", "tb:info:1:scores", "tb:lb:1",
           "tb:rules:ten:2", "tb:rp:1:2", "tb:rpj:1:2:n", "tb:", "tb:act:", "", "x:tb:act:1:2",
           "tb:lobby:5:join", "tb:rematch:7", "tb:hand:3", "tb:hint:3:4", "tb:ev:1:x"]
    ids += [f"{pattern.pattern.split('(')[0]}1:2:3" for pattern, _ in registered]
    for custom_id in ids:
        expected = [(pattern, cls) for pattern, cls in registered if pattern.fullmatch(custom_id)]
        found = [(pattern, cls) for _, pattern, cls in index.candidates(custom_id)
                 if pattern.fullmatch(custom_id)]
        assert found == expected, custom_id
    assert len(index.lengths) < len(registered)


async def test_the_store_dispatches_each_matching_class_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    Probe.calls = []
    monkeypatch.setattr(Probe, LEAN, True, raising=False)
    store = ViewStore(SimpleNamespace())  # type: ignore[arg-type]
    store.add_dynamic_items(Probe)
    first = index_of(store)
    assert index_of(store) is first  # kept while the registrations stay
    interaction = SimpleNamespace(message=SimpleNamespace(components=components()),
                                  data={"custom_id": "tb:act:1:2:d", "component_type": BUTTON})
    store.dispatch_dynamic_items(BUTTON, "tb:act:1:2:d", interaction)  # type: ignore[arg-type]
    store.dispatch_dynamic_items(BUTTON, "tb:sel:1:2:d", interaction)  # type: ignore[arg-type]
    await asyncio.gather(*list(store._ViewStore__tasks))  # type: ignore[attr-defined]
    assert Probe.calls == [("tb:act:1:2:d", "Draw")]
    store.remove_dynamic_items(Probe)
    assert index_of(store) is not first and index_of(store).candidates("tb:act:1:2:d") == []


LEAN_CASES: list[dict[str, Any]] = [
    {"type": 2, "style": 1, "label": "Draw", "custom_id": "tb:act:1:2:a:draw"},
    {"type": 2, "style": 4, "label": "7♥", "custom_id": "tb:act:1:2:a:x", "disabled": True,
     "emoji": {"name": "🂡"}, "id": 7},
    {"type": 2, "style": 2, "custom_id": "tb:hand:1"},  # no label
    {"type": 3, "custom_id": "tb:sel:1:2:s:discard:0", "placeholder": "Discard…",
     "options": [{"label": "7♥", "value": "discard:7♥", "description": "d"},
                 {"label": "8♠", "value": "discard:8♠", "default": True}]},
    {"type": 3, "custom_id": "tb:sel:1:2:s:x:0", "min_values": 0, "max_values": 2,
     "disabled": True, "required": False, "id": 9,
     "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "b"}]},
]


def _state(item: Any) -> dict[str, Any]:
    """Everything an item holds: its own attributes and its underlying component's slots."""
    from discord.utils import get_slots

    underlying = item._underlying
    slots = {slot: getattr(underlying, slot, "<unset>")
             for slot in get_slots(type(underlying))}
    own = {key: value for key, value in vars(item).items() if key != "_underlying"}
    own.update({slot: getattr(item, slot, "<unset>") for slot in get_slots(type(item))
                if slot != "_underlying"})
    return {"own": own, "slots": slots, "class": type(item), "component": type(underlying)}


@pytest.mark.parametrize("data", LEAN_CASES)
def test_a_lean_item_is_what_discord_py_makes_of_the_component(data: dict[str, Any]) -> None:
    """``as_item`` (``lean_button``, ``lean_select``) against discord.py's ``from_component``:
    every attribute of the item and every slot of its component, what it writes, and a
    select's values once the click's data refreshed it. Fails when discord.py's items or
    components gain, lose or rename a slot or an attribute."""
    component = _component_factory(data)
    lean = lean_dispatch.as_item(component)
    made: Any = (discord.ui.Button.from_component(component) if data["type"] == BUTTON
                 else discord.ui.Select.from_component(component))
    assert lean is not None
    assert _state(lean) == _state(made)
    assert lean.to_component_dict() == made.to_component_dict()
    assert (lean.custom_id, lean.is_dispatchable(), lean.type, lean.row, lean.width) == (
        made.custom_id, made.is_dispatchable(), made.type, made.row, made.width)
    if data["type"] == SELECT:
        interaction: Any = SimpleNamespace()
        chosen = {"custom_id": data["custom_id"], "component_type": 3,
                  "values": [data["options"][0]["value"]]}
        lean._refresh_state(interaction, chosen)
        made._refresh_state(interaction, chosen)
        assert lean.values == made.values == [data["options"][0]["value"]]
        assert _state(lean) == _state(made)


def test_links_and_other_selects_keep_discord_pys_own_items() -> None:
    link = _component_factory({"type": 2, "style": 5, "label": "L", "url": "https://x.y"})
    item: Any = lean_dispatch.as_item(link)
    assert _state(item) == _state(discord.ui.Button.from_component(link))  # type: ignore[arg-type]
    users = _component_factory({"type": 5, "custom_id": "tb:u:1"})
    assert isinstance(lean_dispatch.as_item(users), discord.ui.UserSelect)
