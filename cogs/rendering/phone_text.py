"""Phone-sized text for the public tables: short names, lines wrapped at a width, and the
measure of what a message shows (lines and their displayed length).

A phone shows about 60 characters on a line of an embed; the tables are laid out as lines of
at most :data:`LINE_WIDTH` displayed characters (Markdown markers ``**`` and backticks are not
displayed, so they are not counted).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import discord

from cogs.game_ui import Render

LINE_WIDTH = 60
NAME_WIDTH = 16
NBSP = "\u00a0"  # a display name on the table is cut to this (Discord allows 32)

_MARKUP = re.compile(r"\*\*|`")


def shown_length(line: str) -> int:
    """How many characters ``line`` shows (Markdown bold and code markers left out)."""
    return len(_MARKUP.sub("", line))


def plain(text: str) -> str:
    """``text`` as words for an alt text: the Markdown markers and the ▶ of who acts left out,
    lines joined, no-break spaces made plain."""
    text = _MARKUP.sub("", text).replace("▶ ", "").replace(NBSP, " ")
    return " ".join(text.split())


def short(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` cut to ``width`` characters (with an ellipsis), Markdown markers removed so a
    name cannot break the table's bold text."""
    plain = _MARKUP.sub("", name).replace("\n", " ")
    cut = plain if len(plain) <= width else plain[: width - 1] + "…"
    return cut.replace(" ", NBSP)


def wrap(pieces: Iterable[str], *, first: str = "", indent: str = "", sep: str = " ",
         width: int = LINE_WIDTH) -> list[str]:
    """``pieces`` joined by ``sep`` into lines of at most ``width`` shown characters; the first
    line starts with ``first``, the others with ``indent``. A piece is never cut."""
    lines: list[str] = []
    current = first
    fresh = True  # nothing but the lead on the current line yet
    for piece in pieces:
        candidate = current + ("" if fresh else sep) + piece
        # what shows is never longer than the text: no markers to strip from a short line
        if not fresh and len(candidate) > width and shown_length(candidate) > width:
            lines.append(current)
            current, fresh = indent + piece, False
            continue
        current, fresh = candidate, False
    if not fresh or current:
        lines.append(current)
    return lines


def wrap_text(line: str, *, first: str = "", indent: str = "   ",
              width: int = LINE_WIDTH) -> list[str]:
    """One line of words wrapped at spaces (a name from :func:`short` never breaks: its spaces
    are non-breaking)."""
    return wrap(line.split(" "), first=first, indent=indent, width=width)


def embed_lines(embed: discord.Embed) -> list[str]:
    """Every line an embed shows, in order: title, description, fields, footer."""
    lines: list[str] = []
    for text in (embed.title, embed.description):
        if text:
            lines.extend(text.split("\n"))
    for embed_field in embed.fields:
        lines.extend(str(embed_field.name).split("\n"))
        lines.extend(str(embed_field.value).split("\n"))
    if embed.footer.text:
        lines.extend(embed.footer.text.split("\n"))
    return lines


def render_lines(render: Render) -> list[str]:
    """Every line a message shows: its content, then each embed's lines."""
    lines = render.content.split("\n") if render.content else []
    for embed in render.embeds:
        lines.extend(embed_lines(embed))
    return lines


def size_of(render: Render) -> tuple[int, int]:
    """(lines, longest line's shown length) of a message."""
    lines = render_lines(render)
    return len(lines), max((shown_length(line) for line in lines), default=0)


def join_lines(lines: Sequence[str], limit: int = 4096) -> str:
    """``lines`` joined, the last ones dropped whole until the text fits ``limit``."""
    kept = list(lines)
    while kept and len("\n".join(kept)) > limit:
        kept.pop()
    return "\n".join(kept)
