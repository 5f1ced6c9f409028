"""The /learn tutor's words for one rule: a title, a short explanation and the /rules page
that holds the rule. Each game's lessons live in its UI package
(``cogs/<game>/lesson_words.py``: ``LESSONS``), keyed by the engine's ``Lesson`` values."""

from __future__ import annotations

from dataclasses import dataclass

from cogs.i18n.messages import Message


@dataclass(frozen=True, slots=True)
class LessonWords:
    title: Message
    text: Message
    page: int  # index into the game's /rules pages
