"""Cards as the application's own emojis (issue 41): which card names have an emoji, the
emojis put on the controls and card texts that name a card, and the plain fallback.

The faces are uploaded once, by ``cogs.card_emoji_upload``, as *application emojis*: an
application owns up to 2,000 of them, usable by the bot everywhere without the Use External
Emojis permission (https://discord.com/developers/docs/resources/emoji, "Application-Owned
Emoji"; "List Application Emojis" and "Create Application Emoji",
``GET``/``POST /applications/{application.id}/emojis``). A name is 2 to 32 characters of
``A-Z a-z 0-9 _`` (the spec's ``minLength``/``maxLength``; the character set is the one
Discord's clients and libraries accept), the image at most 256 KiB, 128x128 recommended.
A component's ``emoji`` is ``{"id", "name"}`` (the spec's ``ComponentEmojiForRequest``); a text
names a custom emoji as ``<:name:id>``
(https://discord.com/developers/docs/reference, "Message Formatting").

Readable without them: a label keeps its card's name (``7♥``, the emoji only beside it), and
a text keeps the name after its emoji. Nothing is decorated where

* ``CARD_EMOJIS`` is off, or the upload has not finished (or was refused): ``CARD_EMOJIS``;
* the reader chose the text-only mode (pictures off, ``/images off``, or a server's
  ``/config images`` for public messages): a render marked ``emojis=False``, since a screen
  reader reads a custom emoji by its name, which would say each card twice;
* Discord refused a message naming one of them (a 400 whose errors name an emoji, such as
  ``BUTTON_COMPONENT_INVALID_EMOJI`` for an emoji deleted in the Developer Portal): the
  request is sent again without them (:func:`install_fallback`) and the process stops
  using them (logged once at WARNING).

Decorating is a pass over the render when it is sent (``cogs.game_ui.Render``), so the UIs
build their labels and texts as before, and the cards of a text inside a code block are
left alone. A card's name in a text is found by the names the game UIs gave their faces
(``Face.token``), the longest first (``10♥`` before ``0♥``).
"""

from __future__ import annotations

import copy
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import HTTPClient

from bot.process.token_requests import TokenRequests
from cogs.kit.control_payloads import ButtonPayload, SelectPayload, Shown

log = logging.getLogger(__name__)

NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
MAX_APPLICATION_EMOJIS = 2000
MAX_EMOJI_BYTES = 256 * 1024
EMOJI_SIDE = 128  # px, the size Discord's page recommends
CODE_FENCE = "```"
_CUSTOM = re.compile(r"<a?:([A-Za-z0-9_]{2,32}):([0-9]{1,20})>")


@dataclass(frozen=True)
class Face:
    """One card's emoji as a game UI gives it: ``token``, the card as its texts and labels
    write it (``7♥``, ``🟥5``); ``name``, the emoji's name with its design's version
    (``split_7h_v1``: a changed design gets new names, so an old face is never reused);
    ``draw``, its picture (PNG bytes, :data:`EMOJI_SIDE` square, at most 256 KiB)."""

    token: str
    name: str
    draw: Callable[[], bytes]

    def __post_init__(self) -> None:
        if not NAME.fullmatch(self.name):
            raise ValueError(f"{self.name!r} is not an emoji name (2-32 of A-Z a-z 0-9 _)")


class CardEmojis:
    """The process's card emojis: token -> the uploaded emoji, and whether they are used."""

    def __init__(self) -> None:
        self._by_token: dict[str, discord.PartialEmoji] = {}
        self._ids: set[int] = set()
        self._pattern: re.Pattern[str] | None = None
        self.stopped: str | None = None  # why they are no longer used (None: not stopped)

    @property
    def active(self) -> bool:
        return bool(self._by_token) and self.stopped is None

    @property
    def ids(self) -> frozenset[int]:
        return frozenset(self._ids)

    def use(self, emojis: Mapping[str, discord.PartialEmoji]) -> None:
        """Use ``emojis`` (token -> uploaded emoji) from now on."""
        self._by_token = {token: emoji for token, emoji in emojis.items() if emoji.id}
        self._ids = {emoji.id for emoji in self._by_token.values() if emoji.id is not None}
        tokens = sorted(self._by_token, key=len, reverse=True)
        self._pattern = re.compile("|".join(map(re.escape, tokens))) if tokens else None

    def stop(self, reason: str) -> None:
        """Plain labels from now on (logged once at WARNING)."""
        if self.stopped is None:
            self.stopped = reason
            log.warning("card emojis are no longer used: %s; cards are named in plain text",
                        reason)

    def clear(self) -> None:
        """Forget every emoji (tests)."""
        self.use({})
        self.stopped = None

    def emoji_for(self, text: str) -> discord.PartialEmoji | None:
        """The emoji of the first card ``text`` names (None: none, or not in use)."""
        if not self.active or self._pattern is None:
            return None
        found = self._pattern.search(text)
        return self._by_token.get(found.group(0)) if found else None

    def text(self, text: str) -> str:
        """``text`` with each card it names preceded by its emoji (code blocks left alone)."""
        if not self.active or self._pattern is None or not text:
            return text
        pattern, by_token = self._pattern, self._by_token
        parts = text.split(CODE_FENCE)
        for index in range(0, len(parts), 2):  # the even parts are outside ``` blocks
            parts[index] = pattern.sub(lambda m: f"{by_token[m.group(0)]}{m.group(0)}",
                                       parts[index])
        return CODE_FENCE.join(parts)

    def decorate(self, items: Iterable[Shown], on: bool) -> None:
        """Each button and select option naming a card gets its emoji (``on``), or loses one
        of ours (not ``on``, or not in use): the label itself never changes."""
        on = on and self.active
        if not on and not self._ids:
            return  # no emoji to set, and none of ours on any control
        for item in items:
            inner = getattr(item, "item", item)  # a DynamicItem wraps its component
            if isinstance(inner, ButtonPayload | discord.ui.Button):
                inner.emoji = self._chosen(inner.emoji, inner.label or "", on)
            elif isinstance(inner, SelectPayload | discord.ui.Select):
                for option in inner.options:
                    option.emoji = self._chosen(option.emoji, option.label, on)

    def _chosen(self, current: discord.PartialEmoji | None, label: str,
                on: bool) -> discord.PartialEmoji | None:
        ours = current is not None and current.id is not None and current.id in self._ids
        if current is not None and not ours:
            return current  # a control's own emoji (🃏, 💡) stays
        return self.emoji_for(label) if on else None

    def strip(self, value: Any) -> tuple[Any, bool]:
        """``value`` (a request's JSON) without any custom emoji of ours; whether it had one."""
        found = False

        def clean(node: Any) -> Any:
            nonlocal found
            if isinstance(node, dict):
                emoji = node.get("emoji")
                out = {}
                for key, item in node.items():
                    if key == "emoji" and isinstance(emoji, dict) and _int(emoji.get("id")) \
                            in self._ids:
                        found = True
                        continue
                    out[key] = clean(item)
                return out
            if isinstance(node, list):
                return [clean(item) for item in node]
            if isinstance(node, str) and "<" in node:
                def plain(match: re.Match[str]) -> str:
                    nonlocal found
                    if _int(match.group(2)) in self._ids:
                        found = True
                        return ""
                    return match.group(0)
                return _CUSTOM.sub(plain, node)
            return node

        return clean(value), found


def _int(raw: object) -> int | None:
    try:
        return int(str(raw))
    except ValueError:
        return None


CARD_EMOJIS = CardEmojis()  # the process's one set (the bot's emojis are the application's)


def refuses_emoji(error: BaseException) -> bool:
    """Whether ``error`` is Discord refusing a request for an emoji it names (a 400)."""
    return (isinstance(error, discord.HTTPException) and error.status == 400
            and "emoji" in str(error.text).lower())


def _plain_request(kwargs: dict[str, Any], payload_key: str,
                   form_key: str) -> dict[str, Any] | None:
    """The request's keyword arguments without our emojis; None when it named none."""
    found = False
    plain = dict(kwargs)
    if isinstance(kwargs.get(payload_key), dict):
        plain[payload_key], found = CARD_EMOJIS.strip(kwargs[payload_key])
    form = kwargs.get(form_key)
    if form:
        fields = []
        for field in form:
            field = dict(field)
            if field.get("name") == "payload_json" and isinstance(field.get("value"), str):
                stripped, had = CARD_EMOJIS.strip(json.loads(field["value"]))
                if had:
                    found = True
                    field["value"] = json.dumps(stripped, separators=(",", ":"),
                                                ensure_ascii=True)
            fields.append(field)
        plain[form_key] = fields
    for file in kwargs.get("files") or []:
        file.reset()  # the refused try read them
    return plain if found else None


Request = Callable[..., Awaitable[Any]]


def _fallback(request: Request, payload_key: str, form_key: str) -> Request:
    async def send(*args: Any, **kwargs: Any) -> Any:
        kept = copy.copy(kwargs)
        try:
            return await request(*args, **kwargs)
        except discord.HTTPException as error:
            if not CARD_EMOJIS.ids or not refuses_emoji(error):
                raise
            plain = _plain_request(kept, payload_key, form_key)
            if plain is None:
                raise
            answer = await request(*args, **plain)  # still refused: the emojis were not why
            CARD_EMOJIS.stop(f"Discord refused a message with them ({error.text})")
            return answer

    send.__wrapped__ = request  # type: ignore[attr-defined]
    return send


def install_fallback(http: HTTPClient, token_requests: TokenRequests | None = None) -> None:
    """Send again without our emojis any request Discord refuses for one of them, and stop
    using them: the bot's REST client (``client.http.request``: channel messages, its JSON
    under ``json``, a multipart's ``payload_json`` in ``form``), discord.py's webhook adapter
    (the interaction answers discord.py still makes: ``payload`` / ``multipart``) and the token
    writes' own wire (``token_requests``, ``TableBot.token_requests``: the same keywords). The
    places every message passes, so no call site needs to know; installed once per process."""
    from discord.webhook.async_ import async_context

    request = http.request
    if not hasattr(request, "__wrapped__"):
        http.request = _fallback(request, "json", "form")  # type: ignore[method-assign,assignment]
    adapter = async_context.get()
    if not hasattr(adapter.request, "__wrapped__"):
        adapter.request = _fallback(  # type: ignore[method-assign,assignment]
            adapter.request, "payload", "multipart")
    if token_requests is not None and not hasattr(token_requests.request, "__wrapped__"):
        token_requests.request = _fallback(  # type: ignore[method-assign,assignment]
            token_requests.request, "payload", "multipart")
