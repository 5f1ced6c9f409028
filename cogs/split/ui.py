"""The SPLIT GameUI: public table, private hand with controls, and click translation.

Registered by the extension ``setup`` in ``cogs/split/__init__.py``. Layout and words live in
``cogs.split.table`` (public), ``cogs.split.hand`` (private) and ``cogs.split.format``; round
summaries are this UI's announcements (``cogs.game_ui.Announces``), posted by
``cogs.listeners.announcer``; the final result heads the final post (``cogs.listeners.final_post``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from pydantic import BaseModel

from bot.records.change import Change, ChangeKind
from bot.records.session import Session, Status
from cogs.game_ui import (
    ANNOUNCES,
    ANSWERS_INFO,
    DESCRIBES_PICTURES,
    DRAWS_CARD_EMOJIS,
    DRAWS_FINAL_PICTURE,
    DRAWS_IMAGES,
    DRAWS_REPLAY,
    POINTS_UNIT,
    SHOWS_SCORES,
    SHOWS_STANDINGS,
    TEACHES,
    WIN_UNIT,
    WORDS_DECISIONS,
    WORDS_EVENTS,
    WORDS_HINTS,
    WORDS_PRIVATE,
    WORDS_TABLES,
    Click,
    HintUnit,
    Move,
    OpenStep,
    Page,
    Render,
    TurnItemsOf,
    declares,
    no_items,
)
from cogs.i18n.button_names import button_names
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.lesson_catalog import LessonWords
from cogs.i18n.words import Words
from cogs.imaging.words import words_in
from cogs.kit.card_emojis import Face
from cogs.kit.control_menus import page_of
from cogs.kit.view_memo import ViewMemo
from cogs.rendering.rules_pages import rules_page
from cogs.split import picture_words
from cogs.split.card_face import emoji_faces
from cogs.split.events import event_line
from cogs.split.format import COLOUR
from cogs.split.hand import private_render, resolve
from cogs.split.hand_image import render_hand
from cogs.split.labels import action_label
from cogs.split.lesson_words import LESSONS
from cogs.split.rules_text import PAGES, RULES
from cogs.split.score_image import render_scores
from cogs.split.table import final_embed, round_summary_embed, scores_embed, table_render
from cogs.split.table_image import render_table
from game.base import Engine, Event, PlayerId
from game.replay import StepMarker
from game.split import ROUNDS, Lesson, RoundSummary, SplitEngine

# Tables drawn before Rules and Scores became info buttons (``tb:info``) carry them as game
# buttons; a restarted bot still answers those for the seated players.
LEGACY_RULES_PAYLOAD = "rules"
LEGACY_SCORES_PAYLOAD = "scores"


class SplitUI:
    rules: Sequence[Page] = RULES
    capabilities = declares(
        SHOWS_SCORES,
        ANNOUNCES,
        ANSWERS_INFO,
        WORDS_TABLES,
        WORDS_PRIVATE,
        TEACHES,
        WORDS_EVENTS,
        WORDS_DECISIONS,
        DRAWS_REPLAY,
        SHOWS_STANDINGS,
        DRAWS_IMAGES,
        DESCRIBES_PICTURES,
        DRAWS_CARD_EMOJIS,
    DRAWS_FINAL_PICTURE,
        WORDS_HINTS,
    )
    rules_pages = PAGES  # the same pages, in the reader's language (cogs.rendering.rules_pages)

    def __init__(self, engine: Engine[Any, Any]) -> None:
        if not isinstance(engine, SplitEngine):
            raise TypeError("SplitUI draws SPLIT games only")
        self.engine: SplitEngine = engine
        self.views = ViewMemo(engine)  # each view once per stored version (issue 42)
        self.key = engine.key
        self.title = engine.title

    def table(self, session: Session) -> Render:
        return self.table_in(session, words_for(Language.EN))

    def table_in(self, session: Session, words: Words) -> Render:
        view = self.views.of(session, None)
        results = (
            self.engine.results(session.state) if session.status is Status.FINISHED else []
        )
        return table_render(session, view, results, words)

    def event_line(self, event: Event, viewer: PlayerId | None,
                   names: Mapping[PlayerId, str], words: Words) -> str:
        """One event in ``words`` (``cogs.game_ui.WordsEvents``; ``cogs.split.events``)."""
        return event_line(event, viewer, names, words)

    def private(self, session: Session, viewer: PlayerId) -> Render:
        return self.private_in(session, viewer, words_for(Language.EN))

    def move_words(self, session: Session, viewer: PlayerId, action: Any, words: Words) -> str:
        return action_label(session.state, action, session.names, words)

    def cost_unit(self, marker: StepMarker) -> str:
        # The expert plays a round out: its margin in points, but the last round's end is the
        # game's, valued as a share of the win (``game.split.expert.outcome_value``).
        return WIN_UNIT if (marker.round or 1) >= ROUNDS else POINTS_UNIT

    def private_in(self, session: Session, viewer: PlayerId, words: Words,
                   extra: TurnItemsOf = no_items) -> Render:
        return private_render(self.engine, session, viewer, words, extra=extra,
                              views=self.views)

    # --- hints (cogs.game_ui.WordsHints) -------------------------------------------------------

    def hint_move(self, session: Session, viewer: PlayerId, action: Any, words: Words) -> str:
        """The move as its control in the hand says it."""
        return action_label(session.state, action, session.names, words)

    def hint_unit(self, session: Session) -> HintUnit:
        """The expert values a round by its margin in points; the last round's end is the
        game's, valued by the share of the win (``game.split.expert.outcome_value``)."""
        view = self.views.of(session, None)
        return HintUnit.WIN if view.round >= view.rounds else HintUnit.POINTS

    # --- pictures (cogs.game_ui.DrawsImages, DrawsFinalPicture; run in a worker thread) ---

    def table_image(self, session: Session, words: Words) -> bytes | None:
        with words_in(words):
            return render_table(self.views.of(session, None), session.names)

    def hand_image(self, session: Session, viewer: PlayerId, words: Words) -> bytes | None:
        with words_in(words):
            return render_hand(self.views.of(session, viewer), session.names)

    def table_alt(self, session: Session, words: Words) -> str:
        return picture_words.table_alt(session, self.views.of(session, None), words)

    def hand_alt(self, session: Session, viewer: PlayerId, words: Words) -> str:
        return picture_words.hand_alt(self.views.of(session, viewer), words)

    def card_faces(self) -> list[Face]:
        """Every card face as an emoji (``cogs.card_emoji_upload``)."""
        return emoji_faces()

    def final_picture(self, session: Session, words: Words) -> bytes | None:
        """The score progression over the three rounds, one line per player."""
        if session.status is not Status.FINISHED:
            return None
        with words_in(words):
            return render_scores(self.views.of(session, None),
                                 self.engine.results(session.state), session.names)

    def scores(self, session: Session, words: Words) -> Render:
        return Render(embeds=[scores_embed(session, self.views.of(session, None),
                                           words)])

    def announcement(self, change: Change, words: Words) -> list[discord.Embed]:
        """A round summary for each round that ended (public); the final result is the
        final post's (:meth:`final_embeds`, ``cogs.listeners.final_post``)."""
        if change.kind not in (ChangeKind.ACTION, ChangeKind.FINISHED):
            return []
        session = change.session
        ends = [event for event in change.events if event.kind == "round_end"]
        if not ends and change.kind != ChangeKind.FINISHED:
            return []
        view = self.views.of(session, None)
        return [
            round_summary_embed(session, view, RoundSummary.model_validate(event.data), words)
            for event in ends
        ]

    def final_embeds(self, session: Session, words: Words) -> list[discord.Embed]:
        """The standings of the final post (``cogs.game_ui.ShowsStandings``)."""
        view = self.views.of(session, None)
        return [final_embed(session, view, self.engine.results(session.state), words)]

    def replay_hands(self, session: Session, words: Words) -> list[discord.Embed]:
        """Every seat's hand at a replay step, in one embed (``cogs.game_ui.DrawsReplay``;
        the game is over, so the hands are no longer hidden)."""
        names = session.names
        embed = discord.Embed(title=words.gettext("Every hand"), colour=COLOUR)
        for player in self.views.of(session, None).players:
            hand = self.views.of(session, player).hand or []
            embed.add_field(name=f"{names.get(player, player)} ({len(hand)})",
                            value=" ".join(hand) or "—", inline=False)
        return [embed]

    def info_for(self, session: Session, payload: str, words: Words) -> Render | None:
        if payload == LEGACY_RULES_PAYLOAD:
            return rules_page(self, 0, words)
        if payload == LEGACY_SCORES_PAYLOAD:
            return self.scores(session, words)
        return None

    # --- the /learn tutor (cogs.game_ui.Teaches) -------------------------------------------

    def lesson_words(self, lesson: str) -> LessonWords:
        return LESSONS[Lesson(lesson)]

    def lesson_fields(self, session: Session, viewer: PlayerId, words: Words) -> dict[str, str]:
        return button_names(words)

    def move_label(
        self, session: Session, viewer: PlayerId, action: BaseModel, words: Words
    ) -> str:
        return action_label(session.state, action, session.names, words)  # type: ignore[arg-type]

    def action_for(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None,
    ) -> Click:
        return self.action_in(session, viewer, payload, values, words_for(Language.EN))

    def action_in(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None,
        words: Words, extra: TurnItemsOf = no_items,
    ) -> Click:
        page = page_of(payload)
        if page is not None:
            return OpenStep(private_render(self.engine, session, viewer, words, page=page,
                                           extra=extra, views=self.views))
        return Move(resolve(self.engine, session, viewer, payload, values))
