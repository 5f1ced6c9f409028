"""The /learn tutor's words on a private table: the comment before each of the learner's
decisions and, at the end, what was learned with the /rules pages that hold it.

Game-agnostic: the rules' words, their fields and the suggested move's label come from the
game's UI (``cogs.game_ui.Teaches``); what applies comes from ``game.tutor``.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.records.session import Session
from cogs.game_ui import Teaches
from cogs.i18n.command_mentions import command_fields
from cogs.i18n.messages import N_, NP_
from cogs.i18n.rules_catalog import RulesPage
from cogs.i18n.words import Words
from cogs.kit.discord_limits import EMBED_DESCRIPTION, clip
from game.base import PlayerId
from game.tutor import Comment, Tutor

COLOUR = discord.Colour.from_rgb(0x3B, 0x82, 0xF6)

TUTOR_TITLE = NP_("tutor", "📘 Tutor")
LESSON_LINE = NP_("tutor", "**{title}**: {text}")
SUGGESTED = NP_("tutor", "Suggested: **{move}** (you may play anything legal).")
LEARNED_TITLE = NP_("tutor", "📘 What you learned")
PAGE_LINE = NP_("tutor", "✅ {lessons} — {rules_command}, page {page}: *{heading}*")
NOT_MET = NP_("tutor", "Not met this game: {lessons}.")
READ_MORE = N_("Every rule, page by page: {rules_command}. Play again with {learn_command}.")


def _lesson_line(ui: Teaches, lesson: str, fields: dict[str, str], words: Words) -> str:
    spoken = ui.lesson_words(lesson)
    return words.text(LESSON_LINE, title=words.text(spoken.title),
                      text=words.text(spoken.text, **fields))


def comment_embed(
    ui: Teaches, session: Session, viewer: PlayerId, comment: Comment, words: Words
) -> discord.Embed:
    """The comment before a decision (or at the end: what just happened)."""
    fields = ui.lesson_fields(session, viewer, words)
    lines = [_lesson_line(ui, lesson, fields, words) for lesson in comment.lessons]
    if comment.suggestion is not None:
        move = ui.move_label(session, viewer, comment.suggestion, words)
        lines.append(words.text(SUGGESTED, move=move))
    return discord.Embed(title=words.text(TUTOR_TITLE), colour=COLOUR,
                         description=clip("\n".join(lines), EMBED_DESCRIPTION))


def learned_embed(
    ui: Teaches, required: Sequence[str], met: Sequence[str], pages: Sequence[RulesPage],
    words: Words,
) -> discord.Embed:
    """What was learned, grouped by the /rules page that holds each rule, and what the game
    did not bring up."""
    commands = command_fields(words)
    by_page: dict[int, list[str]] = {}
    for lesson in met:
        page = ui.lesson_words(lesson).page
        by_page.setdefault(page, []).append(words.text(ui.lesson_words(lesson).title))
    lines = [
        words.text(PAGE_LINE, lessons=", ".join(titles), page=words.number(page + 1),
                   heading=words.text(pages[page].title), rules_command=commands["rules_command"])
        for page, titles in sorted(by_page.items())
    ]
    missing = [words.text(ui.lesson_words(lesson).title) for lesson in required
               if lesson not in met]
    if missing:
        lines.append(words.text(NOT_MET, lessons=", ".join(missing)))
    lines.append(words.text(READ_MORE, **commands))
    return discord.Embed(title=words.text(LEARNED_TITLE), colour=COLOUR,
                         description=clip("\n".join(lines), EMBED_DESCRIPTION))


def tutor_embeds(
    ui: Teaches, session: Session, viewer: PlayerId, tutor: Tutor, pages: Sequence[RulesPage],
    words: Words,
) -> list[discord.Embed]:
    """The tutor's part of the learner's message now: the comment before their decision,
    nothing while the bots play, and at the end the last comment and what was learned."""
    comment = tutor.now()
    if comment is None:
        return []
    embeds = [comment_embed(ui, session, viewer, comment, words)] if comment.lessons else []
    if tutor.engine.is_over(tutor.state):
        embeds.append(learned_embed(ui, tutor.teacher.REQUIRED, tutor.met, pages, words))
    return embeds

