"""Walk and search the component trees of messages and modals (legacy rows and Components V2)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
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


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in the tree, depth first, containers before their children."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        for key in ("component", "accessory"):
            child = component.get(key)
            if isinstance(child, Mapping):
                yield from walk([dict(child)])


def media_urls(components: list[dict[str, Any]]) -> list[str]:
    """The URLs of the media a Components V2 tree shows (thumbnails, gallery items)."""
    urls: list[str] = []
    for c in walk(components):
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
