"""Discord's checks of a message as it stands after a request (an edit merged into it), and of
its files: answered as 400 errors with the field's path, and recorded as contract violations.
The request itself is checked first, against the spec and the unstated limits (``contract``).

Components V2 (flag ``IS_COMPONENTS_V2``, issue 41), as Discord's component reference states
(https://discord.com/developers/docs/components/reference) and its changelog clarified
(discord/discord-api-docs#7560): no ``content`` or ``embeds`` beside the flag; at most 40
components, nested ones counted; at most 4,000 characters in all the message's Text
Displays; a media item's ``attachment://name`` names a file of the message; the flag, once
set, stays (an edit cannot remove it, ``World.edit_message``); an edit may set it on a
message that lacked it when the same edit clears ``content`` and ``embeds`` (the merged
message is what is checked)."""

from __future__ import annotations

from typing import Any

from bot.playground.fakediscord import components as comp

COMPONENTS_V2 = 1 << 15
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
ATTACHMENT_SCHEME = "attachment://"


class Invalid(Exception):
    """A body Discord would refuse; ``code`` is Discord's JSON error code."""

    def __init__(self, message: str, code: int = 50035, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.path = path

    def under(self, *prefix: str | int) -> Invalid:
        """The same error for a body nested at ``prefix`` (an interaction callback's data)."""
        return Invalid(str(self), self.code, (*prefix, *self.path))


MAX_FILES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024  # a server without boosts


def check_files(files: list[tuple[str, str, bytes]]) -> None:
    """Discord's file limits: at most 10 per message, each within the upload limit."""
    if len(files) > MAX_FILES:
        raise Invalid(f"files: must be {MAX_FILES} or fewer in length", path=("files",))
    for filename, _, data in files:
        if len(data) > MAX_FILE_BYTES:
            raise Invalid(f"{filename}: request entity too large ({len(data)} bytes)", 40005)


def check_message(body: dict[str, Any], *, flags: int, has_files: bool, allow_empty: bool,
                  filenames: set[str] | None = None) -> None:
    """``filenames``: the files the message holds after the request (uploaded or kept), which
    a Components V2 media item may name; None: not checked."""
    content = body.get("content") or ""
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    tree = comp.walk(components)  # walked once for every check below
    if len(content) > 2000:
        raise Invalid(f"content: must be 2000 or fewer in length (got {len(content)})",
                      path=("content",))
    if len(embeds) > 10:
        raise Invalid("embeds: must be 10 or fewer in length", path=("embeds",))
    total = 0
    for embed in embeds:
        total += _embed_size(embed)
        if len(embed.get("description") or "") > 4096:
            raise Invalid("embeds.description: must be 4096 or fewer in length")
        if len(embed.get("fields") or []) > 25:
            raise Invalid("embeds.fields: must be 25 or fewer in length")
    if total > 6000:
        raise Invalid(f"embeds: total size must be 6000 or fewer (got {total})", path=("embeds",))
    if flags & COMPONENTS_V2:
        if content or embeds:
            raise Invalid("content and embeds cannot be used with the IS_COMPONENTS_V2 flag",
                          path=("content" if content else "embeds",))
        if len(tree) > MAX_V2_COMPONENTS:
            raise Invalid("components: a message holds at most 40 components", path=("components",))
        text = sum(len(c.get("content") or "") for c in tree
                   if c.get("type") == comp.TEXT_DISPLAY)
        if text > MAX_V2_TEXT:
            raise Invalid(f"components: the text of a message's text displays must be {MAX_V2_TEXT}"
                          f" or fewer in length (got {text})", path=("components",))
        if filenames is not None:
            for url in comp.media_urls(components, tree):
                if url.startswith(ATTACHMENT_SCHEME) and \
                        url.removeprefix(ATTACHMENT_SCHEME) not in filenames:
                    raise Invalid(f"components: {url} names no attachment of the message",
                                  path=("components",))
    elif any(c.get("type") not in (comp.ACTION_ROW, None) for c in components):
        raise Invalid("components: layout and content components need the IS_COMPONENTS_V2 flag",
                      path=("components",))
    if not flags & COMPONENTS_V2:
        if len(components) > 5:
            raise Invalid("components: must be 5 or fewer in length", path=("components",))
        for row in components:
            if row.get("type") != 1:
                raise Invalid("components: top-level components must be action rows (type 1)")
            if len(row.get("components") or []) > 5:
                raise Invalid("components.components: must be 5 or fewer in length")
    check_components(components, tree)
    if not (allow_empty or content or embeds or components or has_files or body.get("sticker_ids")):
        raise Invalid("Cannot send an empty message", code=50006)


def check_components(components: list[dict[str, Any]],
                     tree: list[dict[str, Any]] | None = None) -> None:
    """``tree``: ``comp.walk(components)`` when the caller has it."""
    seen: set[str] = set()
    for c in comp.walk(components) if tree is None else tree:
        custom_id = c.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= 100:
                raise Invalid(f"custom_id: must be 1-100 characters (got {len(custom_id)})")
            if custom_id in seen:
                raise Invalid(f"custom_id {custom_id!r} is used twice in one message")
            seen.add(custom_id)
        if len(c.get("label") or "") > 80:
            raise Invalid("label: must be 80 or fewer in length")
        if c.get("type") == comp.BUTTON and not (
            c.get("custom_id") or c.get("url") or c.get("sku_id")
        ):
            raise Invalid("buttons need a custom_id or a url")
        if c.get("type") == comp.STRING_SELECT:
            options = c.get("options") or []
            if not 1 <= len(options) <= 25:
                raise Invalid(f"select options: must be 1-25 (got {len(options)})")
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                raise Invalid("select options: values must be unique")
            for option in options:
                if len(option.get("label") or "") > 100 or len(option.get("value") or "") > 100:
                    raise Invalid("select option label and value must be 100 or fewer in length")


def check_modal(data: dict[str, Any]) -> None:
    if not data.get("custom_id") or not data.get("title"):
        raise Invalid("modal: custom_id and title are required")
    if len(data["title"]) > 45:
        raise Invalid("modal title: must be 45 or fewer in length")
    if not 1 <= len(data.get("components") or []) <= 5:
        raise Invalid("modal components: must be 1-5")
    check_components(data["components"])


def _embed_size(embed: dict[str, Any]) -> int:
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        size += len(f.get("name") or "") + len(f.get("value") or "")
    return size
