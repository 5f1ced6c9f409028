"""Walk and search the component trees of messages and modals (legacy rows and Components V2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
LABEL = 18


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component in the tree, depth first, containers before their children (a
    ``component`` or ``accessory`` child as a shallow copy). A list built by one recursive
    function, not nested generators: the stand-in walks every message it stores and every
    message a player reads, and ``yield from`` at each level was a tenth of the load
    bench's CPU."""
    found: list[dict[str, Any]] = []
    _walk_into(components, found)
    return found


def _walk_into(components: Iterable[dict[str, Any]], found: list[dict[str, Any]]) -> None:
    for component in components:
        found.append(component)
        children = component.get("components")
        if children:
            _walk_into(children, found)
        for key in ("component", "accessory"):
            child = component.get(key)
            if isinstance(child, Mapping):
                _walk_into([dict(child)], found)


def media_urls(components: list[dict[str, Any]],
               tree: list[dict[str, Any]] | None = None) -> list[str]:
    """The URLs of the media a Components V2 tree shows (thumbnails, gallery items);
    ``tree``: ``walk(components)`` when the caller has it."""
    urls: list[str] = []
    for c in walk(components) if tree is None else tree:
        media = [c.get("media")] if c.get("type") == THUMBNAIL else [
            item.get("media") for item in c.get("items") or [] if isinstance(item, Mapping)]
        urls += [str(m["url"]) for m in media if isinstance(m, Mapping) and m.get("url")]
    return urls


def find(components: list[dict[str, Any]], custom_id: str) -> dict[str, Any] | None:
    return next((c for c in walk(components) if c.get("custom_id") == custom_id), None)


def interactive(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Buttons (with a custom_id, so not link buttons) and selects."""
    return [
        c
        for c in walk(components)
        if c.get("custom_id") and (c.get("type") == BUTTON or c.get("type") in SELECT_TYPES)
    ]


def texts(components: list[dict[str, Any]]) -> list[str]:
    """All human-readable text a user sees in the components (labels, options, text displays)."""
    found: list[str] = []
    for c in walk(components):
        for key in ("label", "placeholder", "content", "title", "description", "value"):
            value = c.get(key)
            if isinstance(value, str) and value:
                found.append(value)
        for option in c.get("options") or []:
            found.extend(str(option.get(k)) for k in ("label", "description") if option.get(k))
        for item in c.get("items") or []:  # a media gallery's alt texts are read out too
            if isinstance(item, Mapping) and item.get("description"):
                found.append(str(item["description"]))
        emoji = c.get("emoji")
        if isinstance(emoji, Mapping) and emoji.get("name"):
            found.append(str(emoji["name"]))
    return found
