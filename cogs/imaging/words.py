"""The words of a picture: the renderers write their labels as ``_("…")`` / ``ngettext(…)``
(extracted into the catalogs like every player-facing text), and a picture is drawn in the
language of the message it goes with: ``with words_in(words): render_table(...)``. Without
it a renderer draws in English (the tests, the goldens, the bench).

A context variable rather than a parameter through every layout helper: each render runs in
one call on one thread (or worker process), which sets it around the call.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.messages import Message
from cogs.i18n.words import Words

_current: ContextVar[Words | None] = ContextVar("picture_words", default=None)


def picture_words() -> Words:
    """The words of the picture being drawn (English outside :func:`words_in`)."""
    return _current.get() or words_for(Language.EN)


@contextlib.contextmanager
def words_in(words: Words) -> Iterator[Words]:
    """Draw the pictures of the block in ``words``' language."""
    token = _current.set(words)
    try:
        yield words
    finally:
        _current.reset(token)


def _(message: str, /, **fields: object) -> str:
    return picture_words().gettext(message, **fields)


def ngettext(singular: str, plural: str, count: int, /, **fields: object) -> str:
    return picture_words().ngettext(singular, plural, count, **fields)


def marked(message: Message, /, **fields: object) -> str:
    """A text marked at import time with ``N_``, in the picture's language."""
    return picture_words().text(message, **fields)
