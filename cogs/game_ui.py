"""The per-game table UI plug-in: how a game draws itself in Discord.

Each game's UI lives in its own package (``cogs/<game key>/``), a discord.py extension whose
``setup`` registers one :class:`GameUI` in the bot's ``cogs.ui_registry.GameUIs``; a game without
one gets ``cogs.plain_ui.PlainUI``. Outside its package nothing names a game.

The cogs own the flow: the click handler parses the control's id, and the session manager
(``SessionManager.click``) runs the gate (seat, status, version, turn: see
``bot.sessions.transitions.check_move``) under the session's lock, then asks the UI to decode
the click (the engine reads the control's action code and checks that one action:
``game.action_codes.legal_coded``), and applies the action. A GameUI only turns sessions into
messages (:class:`Render`) and a click's payload into one of the player's legal actions
(:class:`Move`) or a next step to show (:class:`OpenStep`). It holds
no rules of its own: it asks its engine. Its controls are built with ``cogs.kit.control_menus``
and the component ids of ``cogs.kit.custom_ids``.

Hidden information rules: :meth:`GameUI.table` is public and must draw from
``engine.view(state, None)`` only; :meth:`GameUI.private` is sent ephemeral only.

Optional hooks, each a capability that the UI's class declares (``capabilities =
declares(SHOWS_SCORES, ...)``) and a caller asks for with :func:`able` (never ``isinstance``):
:class:`ShowsScores` (the table's Scores button),
:class:`Announces` (public posts a change calls for, such as round summaries),
:class:`AnswersInfo` (old info buttons drawn as game controls), :class:`WordsTurns` (the
game's own words for "it is not your turn"), :class:`WordsTables` (the table in the server's
language), :class:`WordsPrivate` (private views and next steps in the viewer's language; the
cogs call :func:`private_in` / :func:`action_in`, which fall back to the English forms),
:class:`DrawsReplay` (compact hands for a replay step), :class:`WordsEvents` (the game's
events as lines of the log, a replay and the turn clock's notices; the cogs call
:func:`event_lines`), :class:`PingsControls` (the controls
on the turn ping), :class:`ShowsStandings` (the standings of the final post),
:class:`DrawsImages` (the table and a hand as pictures), :class:`DrawsFinalPicture` (the
picture for a finished game's final post), :class:`DrawsCardEmojis` (its card faces as the
application's emojis) and :class:`WordsHints` (the expert's hint in the
game's words; the Hint button itself is the hints feature's turn item, ``extra`` of
:class:`WordsPrivate`). The
picture hooks return PNG bytes and run in a worker thread (``cogs.pictures``): they
may read the session (the manager swaps a new session in, it never changes one) but must touch
nothing else.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

import discord
from pydantic import BaseModel

from bot.records.change import Change
from bot.records.session import OLD_LINE, Session
from cogs.i18n.lesson_catalog import LessonWords
from cogs.i18n.words import Words
from cogs.kit.card_emojis import CARD_EMOJIS, Face
from cogs.kit.card_layout import Card, Picture, card_view
from cogs.kit.control_payloads import Rows, Shown
from cogs.kit.discord_limits import (
    ATTACHMENT_SCHEME,
    FILE_DESCRIPTION,
    clip,
    fit_content,
    fit_embeds,
    fit_files,
    unlink_images,
)
from game.base import Event, PlayerId
from game.replay import StepMarker

log = logging.getLogger(__name__)

Page = tuple[str, str]  # one rules page: (heading, text)
Item = Shown  # a control of a render (cogs.kit.control_payloads)


@dataclass(frozen=True)
class Attachment:
    """A file sent with a message (a rendered image): ``description`` is its alt text."""

    filename: str
    data: bytes
    description: str | None = None

    @property
    def url(self) -> str:
        """What an embed names it by (``embed.set_image(url=attachment.url)``)."""
        return f"{ATTACHMENT_SCHEME}{self.filename}"

    def file(self) -> discord.File:
        """A fresh ``discord.File`` (one is used up by the request that sends it)."""
        description = clip(self.description, FILE_DESCRIPTION) if self.description else None
        return discord.File(io.BytesIO(self.data), filename=self.filename,
                            description=description)


@dataclass
class Render:
    """A message body: content, embeds, an optional view of components, and files.

    ``files`` None leaves a message's attachments as they are when it is edited (renders that
    never carry files); a list, even empty, is the message's whole set of attachments, so an
    edit replaces (or removes) the old image.
    """

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    view: Rows | discord.ui.View | None = None
    files: list[Attachment] | None = None
    # Sent as one Components V2 card (``cogs.kit.card_layout``): content and embeds become
    # its Text Displays, the files its pictures (with their alt text), the view its rows.
    card: bool = False
    # The card emojis on its controls and card texts (``cogs.kit.card_emojis``); False: the
    # reader's text-only mode (pictures off), plain card names.
    emojis: bool = True

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``send_message`` / ``followup.send`` / ``channel.send``."""
        files = self._fit_files()
        self._decorate()
        if self.card:
            kwargs: dict[str, Any] = {"view": self._card(files)}
            if files:
                kwargs["files"] = [attachment.file() for attachment in files]
            return kwargs
        kwargs = {"content": fit_content(self.content), "embeds": fit_embeds(self.embeds)}
        if files:
            kwargs["files"] = [attachment.file() for attachment in files]
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``edit_message`` / ``message.edit``; ``view=None`` clears.
        A card's edit clears ``content`` and ``embeds``, which also turns a message sent
        before the cards into one (``cogs.kit.card_layout``)."""
        files = self._fit_files()
        self._decorate()
        if self.card:
            kwargs: dict[str, Any] = {"content": None, "embeds": [], "view": self._card(files)}
            if files is not None:
                kwargs["attachments"] = [attachment.file() for attachment in files]
            return kwargs
        kwargs = {"content": fit_content(self.content), "embeds": fit_embeds(self.embeds),
                  "view": self.view}
        if files is not None:
            kwargs["attachments"] = [attachment.file() for attachment in files]
        return kwargs

    def _card(self, files: list[Attachment] | None) -> Card:
        pictures = [Picture(attachment.filename, attachment.description)
                    for attachment in files or []]
        decorate = CARD_EMOJIS.text if self.emojis and CARD_EMOJIS.active else None
        return card_view(fit_content(self.content), fit_embeds(self.embeds), pictures,
                         self.view, decorate)

    def _decorate(self) -> None:
        """The card emojis on the controls naming a card, or none (``emojis`` False)."""
        if self.view is not None:
            CARD_EMOJIS.decorate(self.view.children, self.emojis)

    def _fit_files(self) -> list[Attachment] | None:
        """The files within Discord's limits; embed images naming a dropped one are removed."""
        if self.files is None:
            unlink_images(self.embeds, set())
            return None
        kept = [self.files[i] for i in fit_files([len(a.data) for a in self.files])]
        unlink_images(self.embeds, {attachment.filename for attachment in kept})
        return kept


def as_card(render: Render) -> Render:
    """``render`` sent as one Components V2 card (the table, a player's view, the final post
    and replays; ``cogs.kit.card_layout``)."""
    # ``replace(render, card=True)`` written out: ``dataclasses.replace`` is ~10 Python calls,
    # and every card sent makes one (issue 42, sixth pass; tests/cogs/test_render_copies.py
    # fails if Render's fields change).
    return Render(render.content, render.embeds, render.view, render.files, True, render.emojis)


@dataclass(frozen=True)
class Move:
    """A click that stands for one of the engine's actions; the cogs hand it to the manager."""

    action: BaseModel


@dataclass(frozen=True)
class OpenStep:
    """A click that changes nothing yet and shows a next step (the next page of controls,
    which cards to spend): ``render`` replaces the clicker's private message."""

    render: Render


Click = Move | OpenStep


C = TypeVar("C")


@dataclass(frozen=True, eq=False)
class Capability(Generic[C]):
    """Something a game UI may do beyond :class:`GameUI`, one of the protocols below. A UI's
    class declares the ones it has (``capabilities``); a caller asks :func:`able`, never
    ``isinstance``."""

    name: str


def declares(*capabilities: Capability[Any]) -> frozenset[Capability[Any]]:
    """A UI class's ``capabilities``."""
    return frozenset(capabilities)


def able(ui: GameUI, capability: Capability[C]) -> C | None:
    """``ui`` as ``capability`` when its class declares it, else None."""
    # not typing.cast: a call per ask (issue 42)
    return ui if capability in ui.capabilities else None  # type: ignore[return-value]


class GameUI(Protocol):
    """What a game's Discord front end provides. ``session.state`` is the engine's state."""

    key: str  # the engine's key
    title: str  # the engine's title
    rules: Sequence[Page]  # the /rules pages (none: the game has no rules summary)
    # What it does beyond this contract, declared by its class (:func:`able` asks).
    capabilities: frozenset[Capability[Any]]

    def table(self, session: Session) -> Render:
        """The public table message (everyone sees it): no hidden information.

        Called for active and finished sessions (show the results when finished; no game
        components then). Typically includes ``cogs.kit.custom_ids.HandButton(session.id)``.
        """
        ...

    def private(self, session: Session, viewer: PlayerId) -> Render:
        """``viewer``'s own view (their hand and their legal moves); always sent ephemeral."""
        ...

    def action_for(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None,
    ) -> Click:
        """Translate a game control's click (``values``: a select's chosen options, None for
        a button) into one of ``viewer``'s legal actions (the engine reads the control's code
        and checks that one action: ``game.action_codes.legal_coded``) or a next step. Called
        by the manager under the session's lock, only after the gate passed (``viewer`` is
        seated, it is their turn, the version is current): pure, quick, no I/O.

        Raise ``bot.records.errors.Refusal`` for a payload that stands for nothing now. Never apply
        anything: the manager applies the action.
        """
        ...


class ShowsScores(Protocol):
    """A GameUI that also draws a public score sheet (the ``tb:info:{id}:scores`` button)."""

    def scores(self, session: Session, words: Words) -> Render:
        """Everyone's scores so far, for a running game: public, so no hidden information;
        in ``words``'s language (the clicker's: it is answered ephemeral)."""
        ...


SHOWS_SCORES: Capability[ShowsScores] = Capability("shows scores")


class Announces(Protocol):
    """A GameUI that posts public messages for some changes (SPLIT's round summaries)."""

    def announcement(self, change: Change, words: Words) -> list[discord.Embed]:
        """The embeds to post as a new channel message for ``change`` (usually none), in
        ``words``'s language (the server's)."""
        ...


ANNOUNCES: Capability[Announces] = Capability("announces")


class AnswersInfo(Protocol):
    """A GameUI with game controls that show public information to any seated player,
    whatever the turn (the Rules and Scores buttons of SPLIT tables drawn before they became
    ``tb:info`` buttons)."""

    def info_for(self, session: Session, payload: str, words: Words) -> Render | None:
        """The ephemeral answer to ``payload`` in ``words``, or None when it is not such a
        control."""
        ...


ANSWERS_INFO: Capability[AnswersInfo] = Capability("answers info")


class WordsTurns(Protocol):
    """A GameUI with its own words for a click out of turn ("It is Ana's turn to bid."), in
    ``words``'s language (the clicker's)."""

    def not_your_turn(self, session: Session, words: Words) -> str: ...


WORDS_TURNS: Capability[WordsTurns] = Capability("words turns")


class WordsTables(Protocol):
    """A GameUI whose table texts come from the catalogs: :meth:`table_in` draws the table in
    ``words``'s language (``table(session)`` draws it in English)."""

    def table_in(self, session: Session, words: Words) -> Render: ...


WORDS_TABLES: Capability[WordsTables] = Capability("words tables")


# The features' items for the viewer's turn, asked by the UI only when it shows the viewer's
# controls (their turn), so a view drawn off turn or a click that moves asks nothing.
TurnItemsOf = Callable[[], Sequence[Item]]


def no_items() -> Sequence[Item]:
    return ()


class WordsPrivate(Protocol):
    """A GameUI whose private views come from the catalogs: :meth:`private_in` draws
    ``viewer``'s view and :meth:`action_in` the next steps and refusals in ``words``'s
    language (the viewer's); ``private`` / ``action_for`` are the English forms. ``extra``:
    gives what the features add on the viewer's turn (``cogs.features.TurnItems``: the Hint
    button); the UI asks it only when it shows the viewer's controls and lays the items out
    after them."""

    def private_in(self, session: Session, viewer: PlayerId, words: Words,
                   extra: TurnItemsOf = no_items) -> Render: ...

    def action_in(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None,
        words: Words, extra: TurnItemsOf = no_items,
    ) -> Click: ...


WORDS_PRIVATE: Capability[WordsPrivate] = Capability("words private views")


class Teaches(Protocol):
    """A GameUI that can comment a /learn game (``game.tutor``): the words of each rule of
    the engine's lessons, and a suggested move named as its control is labelled."""

    def lesson_words(self, lesson: str) -> LessonWords: ...

    def lesson_fields(self, session: Session, viewer: PlayerId, words: Words) -> dict[str, str]:
        """The fields the lessons' texts hold (TEN's bust chance), from ``viewer``'s view."""
        ...

    def move_label(
        self, session: Session, viewer: PlayerId, action: BaseModel, words: Words
    ) -> str:
        """``action`` (one of ``viewer``'s legal actions) as its control is labelled."""
        ...


TEACHES: Capability[Teaches] = Capability("teaches")
def table_in(ui: GameUI, session: Session, words: Words) -> Render:
    """The public table in ``words`` (English for a UI without catalog texts)."""
    wording = able(ui, WORDS_TABLES)
    return as_card(wording.table_in(session, words) if wording is not None
                   else ui.table(session))


def private_in(ui: GameUI, session: Session, viewer: PlayerId, words: Words,
               extra: TurnItemsOf = no_items) -> Render:
    """``viewer``'s private view in ``words`` (English for a UI without catalog texts), with
    ``extra``'s items on their turn (:class:`WordsPrivate`)."""
    wording = able(ui, WORDS_PRIVATE)
    if wording is not None:
        return as_card(wording.private_in(session, viewer, words, extra))
    return as_card(ui.private(session, viewer))


def action_in(
    ui: GameUI, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None,
    words: Words, extra: TurnItemsOf = no_items,
) -> Click:
    """:meth:`GameUI.action_for` with its next steps in ``words`` (``extra`` on the viewer's
    turn, as in :func:`private_in`)."""
    wording = able(ui, WORDS_PRIVATE)
    if wording is not None:
        click = wording.action_in(session, viewer, payload, values, words, extra)
    else:
        click = ui.action_for(session, viewer, payload, values)
    return OpenStep(as_card(click.render)) if isinstance(click, OpenStep) else click


class WordsEvents(Protocol):
    """A GameUI that words its engine's events from the catalogs: one line per event, as
    ``viewer`` may see it (``None``: anyone; such a line never names a hidden card), in
    ``words``'s language. The cogs word the table log (``Session.log``: public events), the
    turn clock's notices and a replay's steps with it (:func:`event_lines`)."""

    def event_line(self, event: Event, viewer: PlayerId | None,
                   names: Mapping[PlayerId, str], words: Words) -> str: ...


WORDS_EVENTS: Capability[WordsEvents] = Capability("words events")
def event_line(ui: GameUI, event: Event, viewer: PlayerId | None,
               names: Mapping[PlayerId, str], words: Words) -> str:
    """One event in ``words`` (see :class:`WordsEvents`). A line stored in English before the
    log kept events stays as it was; a UI without words for events, or a wording that fails,
    gives the event's kind (a wording bug must not hide the rest of the log)."""
    if event.kind == OLD_LINE:
        return str(event.data.get("text", ""))
    wording = able(ui, WORDS_EVENTS)
    if wording is not None:
        try:
            return wording.event_line(event, viewer, names, words)
        except Exception:  # a wording bug must not hide the rest of the log: the kind instead
            log.exception("wording a %s event of %s failed", event.kind, ui.key)
    return event.kind


def event_lines(ui: GameUI, events: Iterable[Event], viewer: PlayerId | None,
                names: Mapping[PlayerId, str], words: Words) -> list[str]:
    """:func:`event_line` of each event."""
    return [event_line(ui, event, viewer, names, words) for event in events]


# A review's cost unit (``cogs.reviews.review_pages``): points of margin, or a share of a win.
POINTS_UNIT = "points"
WIN_UNIT = "win"


class WordsDecisions(Protocol):
    """A GameUI that words a player's decision for the expert's review: ``session.state`` is
    the state before it (``viewer``'s turn)."""

    def move_words(self, session: Session, viewer: PlayerId, action: Any, words: Words) -> str:
        """``action`` (one of ``viewer``'s legal actions) as a short phrase in ``words``."""
        ...

    def cost_unit(self, marker: StepMarker) -> str:
        """The unit of the expert search's outcome at a decision in ``marker``'s round and
        turn (``game.replay``): :data:`POINTS_UNIT` or :data:`WIN_UNIT`."""
        ...


WORDS_DECISIONS: Capability[WordsDecisions] = Capability("words decisions")


class DrawsReplay(Protocol):
    """A GameUI with its own compact hands for a replay step (``cogs.rendering.replay_pages``);
    without it a replay shows each seat's private view (:func:`private_in`). The game is over, so
    every hand may be shown; the result must stay small (a replay message holds at most 10
    embeds)."""

    def replay_hands(self, session: Session, words: Words) -> list[discord.Embed]: ...


DRAWS_REPLAY: Capability[DrawsReplay] = Capability("draws replays")


class PingsControls(Protocol):
    """A GameUI whose turn ping (``cogs.listeners.turn_ping``) carries the controls the pinged
    players need to act (TEN's Draw and Stop, its bid button) instead of only "My hand". Built with
    ``cogs.kit.control_menus`` / ``cogs.kit.custom_ids`` (they carry the session and its version);
    public, so no hidden information; at most 20 items (the ping keeps a row of its own); in
    ``words`` (the server's)."""

    def ping_controls(self, session: Session, players: Sequence[PlayerId],
                      words: Words) -> list[Item]: ...


PINGS_CONTROLS: Capability[PingsControls] = Capability("pings controls")


class ShowsStandings(Protocol):
    """A GameUI with its own standings for the final post (``cogs.listeners.final_post``); without
    it the post lists ``engine.results`` (place, name, score)."""

    def final_embeds(self, session: Session, words: Words) -> list[discord.Embed]: ...


SHOWS_STANDINGS: Capability[ShowsStandings] = Capability("shows standings")


class DrawsImages(Protocol):
    """A GameUI that draws its table and a player's hand as images (PNG bytes). Called in a
    worker thread, results cached per (session, version, viewer) by ``cogs.pictures``; the
    words come from ``words`` (the message's language)."""

    def table_image(self, session: Session, words: Words) -> bytes | None:
        """The public table: drawn from ``engine.view(state, None)`` only (None: no image)."""
        ...

    def hand_image(self, session: Session, viewer: PlayerId, words: Words) -> bytes | None:
        """``viewer``'s own view (their cards as the controls of :meth:`GameUI.private` name
        them)."""
        ...


DRAWS_IMAGES: Capability[DrawsImages] = Capability("draws images")


class DescribesPictures(Protocol):
    """A GameUI that says in words what its pictures show, as their alt text (issue 41): the
    table's state in short, a hand's cards in order; plain text (no Markdown), in ``words``,
    from the same view the picture is drawn from (the public view for the table)."""

    def table_alt(self, session: Session, words: Words) -> str: ...

    def hand_alt(self, session: Session, viewer: PlayerId, words: Words) -> str: ...


DESCRIBES_PICTURES: Capability[DescribesPictures] = Capability("describes pictures")


class DrawsFinalPicture(Protocol):
    """A GameUI with a picture for a finished game (SPLIT's score progression, TEN's final
    collections), attached to the game's final post. Public information only."""

    def final_picture(self, session: Session, words: Words) -> bytes | None:
        """PNG bytes for ``session`` once finished; None while it runs or when there is none.
        Runs in a worker thread (``cogs.pictures.final_attachment`` wraps it)."""
        ...


DRAWS_FINAL_PICTURE: Capability[DrawsFinalPicture] = Capability("draws a final picture")


class DrawsCardEmojis(Protocol):
    """A GameUI whose cards are uploaded as the application's emojis (issue 41;
    ``cogs.card_emoji_upload``): one :class:`cogs.kit.card_emojis.Face` per card face, drawn
    with the same card drawing as its pictures, named with its design's version."""

    def card_faces(self) -> Sequence[Face]: ...


DRAWS_CARD_EMOJIS: Capability[DrawsCardEmojis] = Capability("draws card emojis")


class HintUnit(StrEnum):
    """What the numbers of a hint measure: the game's expert outcome at that moment."""

    POINTS = "points"  # a margin in points
    WIN = "win"  # a share of the win (1 = a whole win)


class WordsHints(Protocol):
    """A GameUI that words the expert's hints (``cogs.hints.hint_click``): a move as its
    controls and log say it, in ``words`` (the viewer's), drawn from ``viewer``'s own view,
    and the unit of its expert's outcome now. The Hint button is not the UI's: the hints
    feature registers it (``cogs.features.Feature.turn_items``) and the table hands it to the
    private view (``extra``)."""

    def hint_move(self, session: Session, viewer: PlayerId, action: Any, words: Words) -> str:
        ...

    def hint_unit(self, session: Session) -> HintUnit: ...


WORDS_HINTS: Capability[WordsHints] = Capability("words hints")
