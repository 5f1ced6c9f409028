"""TEN's table in Discord: the public table message, the private view and the click decoder.

The engine decides everything: controls come from ``engine.legal_actions`` (payments too:
``cogs.ten.controls``), the table from ``engine.view(state, None)``, the
event lines from ``cogs.ten.events`` (the manager keeps the public events in ``Session.log``).
A click becomes the engine's action model, which the manager hands to the engine; it refuses
anything illegal in its own words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from pydantic import BaseModel

from bot.records.errors import Refusal
from bot.records.session import Session, Status
from cogs.game_ui import (
    DESCRIBES_PICTURES,
    DRAWS_CARD_EMOJIS,
    DRAWS_FINAL_PICTURE,
    DRAWS_IMAGES,
    PINGS_CONTROLS,
    SHOWS_SCORES,
    TEACHES,
    WIN_UNIT,
    WORDS_DECISIONS,
    WORDS_EVENTS,
    WORDS_HINTS,
    WORDS_PRIVATE,
    WORDS_TABLES,
    WORDS_TURNS,
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
from cogs.i18n.catalogs import words_for
from cogs.i18n.common_words import DRAW_PILE, LOG, MY_VIEW, SCORES, TABLE
from cogs.i18n.common_words import RULES as RULES_BUTTON
from cogs.i18n.language import Language
from cogs.i18n.lesson_catalog import LessonWords
from cogs.i18n.messages import N_, Message
from cogs.i18n.words import Words
from cogs.imaging.words import words_in
from cogs.kit.card_emojis import Face
from cogs.kit.control_menus import (
    CHOOSE_ONE,
    LEGAL,
    NOT_AVAILABLE,
    OUTDATED,
    UNKNOWN_CONTROL,
    Controls,
    with_buttons,
)
from cogs.kit.control_payloads import Rows, Shown, fresh
from cogs.kit.custom_ids import HandButton, InfoButton, InfoKind
from cogs.kit.discord_limits import clip
from cogs.kit.view_memo import VersionMemo, ViewMemo
from cogs.ten import controls, picture_words, table_text, text
from cogs.ten.card_face import emoji_faces
from cogs.ten.events import event_line
from cogs.ten.final_image import render_final
from cogs.ten.hand_image import render_hand
from cogs.ten.lesson_words import LESSONS
from cogs.ten.rules_text import PAGES, RULES
from cogs.ten.table_image import render_table
from game.action_codes import legal_coded
from game.base import Engine, Event, PlayerId
from game.replay import StepMarker
from game.ten import (
    Bid,
    Buy,
    Draw,
    Lesson,
    Pay,
    PlayerView,
    Stop,
    TenAction,
    TenEngine,
    TenState,
    TenView,
    display,
    payment_of,
    wealth,
)

COLOUR = discord.Colour.from_rgb(0xE6, 0x7E, 0x22)

_PANEL_LABELS: dict[str, Message] = {
    "auction": N_("Bid or pass — {name}"), "payment": N_("Pay — {name}"),
    "buy": N_("Buy or skip — {name}"), "final buys": N_("Buy or skip — {name}"),
}


def info_buttons(session: Session, words: Words) -> list[Shown]:
    """Table, Rules, Scores and Log (anyone) and My view (seated players)."""
    return [
        InfoButton.payload(session.id, InfoKind.TABLE, label=words.text(TABLE)),
        InfoButton.payload(session.id, InfoKind.RULES, label=words.text(RULES_BUTTON)),
        InfoButton.payload(session.id, InfoKind.SCORES, label=words.text(SCORES)),
        InfoButton.payload(session.id, InfoKind.LOG, label=words.text(LOG)),
        HandButton.payload(session.id, label=words.text(MY_VIEW)),
    ]


class TenUI:
    rules: Sequence[Page] = RULES
    capabilities = declares(
        SHOWS_SCORES,
        WORDS_TURNS,
        WORDS_TABLES,
        WORDS_PRIVATE,
        TEACHES,
        WORDS_EVENTS,
        WORDS_DECISIONS,
        PINGS_CONTROLS,
        DRAWS_IMAGES,
        DESCRIBES_PICTURES,
        DRAWS_CARD_EMOJIS,
    DRAWS_FINAL_PICTURE,
        WORDS_HINTS,
    )
    rules_pages = PAGES  # the same pages, in the reader's language (cogs.rendering.rules_pages)

    def __init__(self, engine: Engine[Any, Any]) -> None:
        if not isinstance(engine, TenEngine):
            raise TypeError("TenUI draws TEN games only")
        self.engine: TenEngine = engine
        self.views = ViewMemo(engine)  # each view once per stored version (issue 42)
        # the awaited player's table controls, drawn for the table and again for the turn
        # ping of the same version: once per version and language
        self.table_controls: VersionMemo[list[Shown]] = VersionMemo()
        self.key = engine.key
        self.title = engine.title

    def event_line(self, event: Event, viewer: PlayerId | None,
                   names: Mapping[PlayerId, str], words: Words) -> str:
        """One event in ``words`` (``cogs.game_ui.WordsEvents``; ``cogs.ten.events``)."""
        return event_line(event, viewer, names, words)

    # --- the public table -------------------------------------------------------------------

    def table(self, session: Session) -> Render:
        return self.table_in(session, words_for(Language.EN))

    def table_in(self, session: Session, words: Words) -> Render:
        if session.status is Status.FINISHED:
            return self._final(session, words)
        view: TenView = self.views.of(session, None)
        embed = table_text.table_embed(view, session.names, words, COLOUR)
        discord_view = Rows()
        for item in self._table_actions(session, view, words):
            discord_view.add_item(item)
        for item in info_buttons(session, words):
            item.row = 1
            discord_view.add_item(item)
        return Render(embeds=[embed], view=discord_view)

    def scores(self, session: Session, words: Words = text.ENGLISH) -> Render:
        """Every player's whole collection (the table shows runs and counts only); once the
        game is over, the final results in full."""
        if session.status is Status.FINISHED:
            return self._final_results(session, words)
        view: TenView = self.views.of(session, None)
        return Render(embeds=[table_text.collections_embed(
            view, session.names, words, COLOUR)])

    def _table_actions(self, session: Session, view: TenView, words: Words) -> list[Shown]:
        """The awaited human's buttons: Draw / Stop in the draw phase, else one button that
        opens their private controls (built once per version and language, handed out as
        copies: a send places them and sets their emojis)."""
        made = self.table_controls.of(session, words,
                                      lambda: self._draw_table_actions(session, view, words))
        return [fresh(item) for item in made]

    def _draw_table_actions(self, session: Session, view: TenView,
                            words: Words) -> list[Shown]:
        if view.awaiting is None:
            return []
        seat = session.seat_of(view.awaiting)
        if seat is None or seat.is_bot:
            return []
        if view.phase == "draw":
            legal = self.engine.legal_actions(session.state, view.awaiting)
            return controls.legal_controls(session, legal, view.tableau_currency,
                                           words).items()
        label = words.text(_PANEL_LABELS[view.phase],
                           name=text.name(session.names, view.awaiting, words))
        # A shortcut: passing a bid or skipping a buy needs no private view.
        legal = self.engine.legal_actions(session.state, view.awaiting)
        quick = controls.quick_controls(session, legal, words).items()
        return [controls.panel_button(session, label), *quick]

    def ping_controls(self, session: Session, players: Sequence[PlayerId],
                      words: Words) -> list[Shown]:
        """The turn ping's controls (``cogs.game_ui.PingsControls``): the awaited player's
        Draw / Stop, or the button that opens their bid, payment or buy; and My view."""
        view: TenView = self.views.of(session, None)
        return [*self._table_actions(session, view, words),
                HandButton.payload(session.id, label=words.text(MY_VIEW))]

    def _final(self, session: Session, words: Words) -> Render:
        """The finished table, phone-sized: the winners and one line per player. Each
        collection with its wilds' places is behind Scores; the final post has the standings."""
        names = session.names
        results = self.engine.results(session.state)
        lines = [text.winners_line(results, names, words),
                 *(text.result_title(result, names, words) for result in results)]
        embed = discord.Embed(title=words.gettext("TEN — final scores"), colour=COLOUR,
                              description=clip("\n".join(lines), 4096))
        embed.set_footer(text=words.gettext(
            "Scores: each collection with the place each wild took."))
        return Render(embeds=[embed])

    def _final_results(self, session: Session, words: Words) -> Render:
        """Every player's scoring runs, each wild's place, tokens and how places were decided
        (the Scores answer of a finished game)."""
        names = session.names
        results = self.engine.results(session.state)
        embed = discord.Embed(title=words.gettext("TEN — final scores"), colour=COLOUR,
                              description=text.winners_line(results, names, words))
        for result in results:
            lines = [*text.result_lines(result, words), text.decided_line(result, words)]
            embed.add_field(name=text.result_title(result, names, words),
                            value=clip("\n".join(lines), 1024), inline=False)
        return Render(embeds=[embed])

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
        return emoji_faces(display)

    def final_picture(self, session: Session, words: Words) -> bytes | None:
        """Every final collection, each wild captioned with the place it took."""
        if session.status is not Status.FINISHED:
            return None
        with words_in(words):
            return render_final(self.views.of(session, None),
                                self.engine.results(session.state), session.names)

    # --- the private view -------------------------------------------------------------------

    def private(self, session: Session, viewer: PlayerId) -> Render:
        return self.private_in(session, viewer, text.ENGLISH)

    def move_words(self, session: Session, viewer: PlayerId, action: Any, words: Words) -> str:
        view: TenView = self.views.of(session, viewer)
        if isinstance(action, Pay) and view.payment is not None:
            return words.gettext("Pay {payment}", payment=controls.payment_label(
                payment_of(action, view.payment.price), words))
        look = controls.look(action, view.tableau_currency, words)
        return look.label if look is not None else str(action)

    def cost_unit(self, marker: StepMarker) -> str:
        return WIN_UNIT  # the expert plays the game out: its share of the win

    def private_in(self, session: Session, viewer: PlayerId, words: Words,
                   extra: TurnItemsOf = no_items) -> Render:
        state: TenState = session.state
        names = session.names
        view: TenView = self.views.of(session, viewer)
        me = _player(view, viewer)
        embed = discord.Embed(title=words.gettext("TEN — {name}'s view",
                                                  name=text.name(names, viewer, words)),
                              colour=COLOUR)
        if session.status is Status.FINISHED:
            result = next(r for r in self.engine.results(state) if r.player == viewer)
            embed.description = text.result_title(result, names, words)
            embed.add_field(name=words.gettext("Your score"),
                            value="\n".join(text.result_lines(result, words)))
            return Render(embeds=[embed])
        embed.description = text.situation(view, names, words)
        seat = state.players.index(viewer)
        embed.add_field(
            name=words.gettext("You — {points}", points=text.points(me.score, words)),
            value="\n".join([
                words.gettext("{tokens} · wealth {wealth}", tokens=text.tokens_line(me, words),
                              wealth=wealth(state, seat)),
                *text.collection_lines(me, words),
            ]),
            inline=False,
        )
        items: list[Shown] = []
        if session.status is Status.ACTIVE and view.awaiting == viewer:
            items = with_buttons(self._my_controls(session, view, viewer, embed, words), extra())
        else:
            embed.set_footer(text=words.gettext(
                "Waiting for {name}.", name=text.name(names, view.awaiting, words)))
        discord_view = Rows()
        for item in items:
            discord_view.add_item(item)
        return Render(embeds=[embed], view=discord_view)

    # --- hints (cogs.game_ui.WordsHints) -------------------------------------------------------

    def hint_move(self, session: Session, viewer: PlayerId, action: Any, words: Words) -> str:
        """The move as its control in the private view says it (a payment as the payment
        select lists it)."""
        if isinstance(action, Pay):
            view: TenView = self.views.of(session, viewer)
            assert view.payment is not None  # a Pay is legal in the payment phase only
            return controls.payment_label(payment_of(action, view.payment.price), words)
        currency = self.views.of(session, viewer).tableau_currency
        shown = controls.look(action, currency, words)
        return shown.label if shown is not None else str(action)

    def hint_unit(self, session: Session) -> HintUnit:
        """The expert values a move by its share of the win in playouts to the end of the
        game, plus a small part of the score margin (``game.ten.expert``, whose playouts
        stop early only when its ``HORIZON_ROUNDS`` is set, which the bot never does)."""
        return HintUnit.WIN

    def _my_controls(
        self, session: Session, view: TenView, viewer: PlayerId, embed: discord.Embed,
        words: Words,
    ) -> list[Shown]:
        legal = self.engine.legal_actions(session.state, viewer)
        if view.phase == "draw":
            embed.add_field(name=text.tableau_title(view, words),
                            value=text.cards_line(view.tableau, words), inline=False)
            embed.add_field(name=words.text(DRAW_PILE), value=text.pile_line(view, words),
                            inline=False)
            _prompt(embed, text.draw_prompt(any(isinstance(action, Draw) for action in legal),
                                            any(isinstance(action, Stop) for action in legal),
                                            words))
            return controls.legal_controls(session, legal, view.tableau_currency,
                                           words).items()
        if view.phase == "auction":
            if any(isinstance(action, Bid) for action in legal):
                bid = words.gettext("Your bid: **pass**, or **choose an amount** (up to your"
                                    " wealth).")
            else:
                bid = words.gettext("Your wealth is too low to bid more: **pass**.")
            _prompt(embed, bid)
            return controls.legal_controls(session, legal, words=words).items()
        if view.phase == "payment" and view.payment is not None:
            pays = controls.pays_in(legal)
            options = controls.payments(pays, view.payment.price)
            embed.add_field(name=words.gettext("Least wasteful"),
                            value=controls.payment_label(options[0], words), inline=False)
            _prompt(embed, words.gettext("Choose how to **pay**."))
            me = _player(view, viewer)
            pay = controls.payment_controls(session, pays, options, words)
            back = controls.legal_controls(session, legal, words=words)
            found = Controls(buttons=[*pay.buttons, *back.buttons], selects=pay.selects)
            if options and options[0].cards:
                found.selects.append(
                    controls.card_picker(session, me.collection, options[0], words))
            return found.items()
        embed.add_field(name=words.gettext("Market — price = number"),
                        value="\n".join(text.market_lines(view.market, words)), inline=False)
        if any(isinstance(action, Buy) for action in legal):
            _prompt(embed, words.gettext("**Buy** one market card you can pay for, or"
                                         " **skip**."))
        else:
            _prompt(embed, words.gettext("No market card is within your wealth: **skip**."))
        return controls.legal_controls(session, legal, words=words).items()

    def _card_step(self, session: Session, viewer: PlayerId, pay: Pay, words: Words) -> Render:
        """Next step for a payment that spends collection cards: which cards."""
        view: TenView = self.views.of(session, viewer)
        assert view.payment is not None  # a Pay is legal in the payment phase only
        option = payment_of(pay, view.payment.price)
        me = _player(view, viewer)
        pick = words.ngettext(
            "You pay **{payment}**: pick {count} collection card (spent cards leave the game).",
            "You pay **{payment}**: pick {count} collection cards (spent cards leave the"
            " game).", len(option.cards), payment=controls.payment_label(option, words))
        embed = discord.Embed(
            title=words.gettext("TEN — choose the cards to spend"), colour=COLOUR,
            description=f"{text.situation(view, session.names, words)}\n{pick}",
        )
        embed.add_field(name=words.gettext("Suggested"), value=text.cards_line(option.cards, words))
        discord_view = Rows()
        for item in controls.card_step_controls(session, pay, option, me.collection,
                                                words).items():
            discord_view.add_item(item)
        return Render(embeds=[embed], view=discord_view)

    # --- the /learn tutor (cogs.game_ui.Teaches) -------------------------------------------

    def lesson_words(self, lesson: str) -> LessonWords:
        return LESSONS[Lesson(lesson)]

    def lesson_fields(self, session: Session, viewer: PlayerId, words: Words) -> dict[str, str]:
        view: TenView = self.views.of(session, viewer)
        return {"chance": f"{view.bust_chance:.0%}"}

    def move_label(
        self, session: Session, viewer: PlayerId, action: BaseModel, words: Words
    ) -> str:
        if isinstance(action, Pay):
            return controls.payment_label(payment_of(action, session.state.pay_price), words)
        view: TenView = self.views.of(session, viewer)
        look = controls.look(action, view.tableau_currency, words)  # type: ignore[arg-type]
        return look.label if look is not None else str(action)

    # --- clicks ---------------------------------------------------------------------------------

    def not_your_turn(self, session: Session, words: Words) -> str:
        return _turn_text(self.views.of(session, None), session.names, words)

    def action_for(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None,
    ) -> Click:
        return self.action_in(session, viewer, payload, values, text.ENGLISH)

    def action_in(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str] | None,
        words: Words, extra: TurnItemsOf = no_items,
    ) -> Click:
        """The click as one of the viewer's legal actions (the engine reads the control's code
        and checks that one action) or a next step."""
        if payload in (controls.PANEL, controls.VIEW):
            return OpenStep(self.private_in(session, viewer, words, extra))

        def legal(code: str) -> TenAction:
            action = legal_coded(self.engine, session.state, viewer, code)
            if action is None:
                raise Refusal(NOT_AVAILABLE)
            return action

        if LEGAL.owns(payload):
            return Move(LEGAL.choice(payload, values, legal, controls.group_of))
        if controls.OLD_PAYLOAD.fullmatch(payload):
            raise Refusal(OUTDATED)
        if controls.PAYMENTS.owns(payload):
            pay = controls.chosen_payment(payload, values, legal)
            if values is not None and pay.cards:
                return OpenStep(self._card_step(session, viewer, pay, words))
            return Move(pay)
        code, _, arg = payload.partition(":")
        if code == controls.CARDS:
            split = controls.picker_split(arg)
            if split is None:
                raise Refusal(UNKNOWN_CONTROL)
            if not values:
                raise Refusal(CHOOSE_ONE)
            pays = controls.pays_in(self.engine.legal_actions(session.state, viewer))
            picked = controls.picked_payment(*split, values, pays)
            if picked is None:
                raise Refusal(NOT_AVAILABLE)
            return Move(picked)
        raise Refusal(UNKNOWN_CONTROL)


def _prompt(embed: discord.Embed, prompt: str) -> None:
    """What the viewer can do now, under the situation (a footer would not show its bold)."""
    embed.description = f"{embed.description}\n\n{prompt}"


def _player(view: TenView, player: PlayerId) -> PlayerView:
    return next(p for p in view.players if p.player == player)


def _turn_text(view: TenView, names: Mapping[PlayerId, str], words: Words) -> str:
    if view.awaiting is None:
        return words.gettext("The game is over.")
    who = text.name(names, view.awaiting, words)
    if view.phase == "auction":
        return words.gettext("It is {name}'s turn to bid.", name=who)
    if view.phase == "payment":
        return words.gettext("It is {name}'s turn to pay.", name=who)
    if view.phase in ("buy", "final buys"):
        return words.gettext("It is {name}'s buy phase.", name=who)
    return words.gettext("It is {name}'s turn.", name=who)
