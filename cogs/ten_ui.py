"""TEN's table in Discord: the public table message, the private view and the click decoder.

The engine decides everything: controls come from ``engine.legal_actions``, the table from
``engine.view(state, None)``, the log lines from ``engine.describe`` (kept by the manager in
``Session.log``), payments from ``payment_options``. A click becomes action JSON that the
manager hands to the engine, which refuses anything illegal in its own words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.errors import Refusal
from bot.models import Session, Status
from cogs import ten_controls as controls
from cogs import ten_text as text
from cogs.components import act_button, hand_button, info_button
from cogs.game_ui import Render
from cogs.ten_controls import Item
from game.base import Engine, PlayerId
from game.ten import Payment, TenEngine, payment_options
from game.ten.payments import wealth
from game.ten.state import TenState
from game.ten.view import PlayerView, TenView

COLOUR = discord.Colour.from_rgb(0xE6, 0x7E, 0x22)
LOG_LINES = 8
EMBED_LIMIT = 6000
NOT_A_CONTROL = "That button is not part of this game."

_SIMPLE: dict[str, dict[str, Any]] = {
    "d": {"type": "draw"},
    "sn": {"type": "stop", "take": "numbers"},
    "sc": {"type": "stop", "take": "currency"},
    "p": {"type": "pass"},
    "k": {"type": "skip"},
    "r": {"type": "back"},
}
_PANEL_LABELS = {"auction": "Bid or pass", "payment": "Pay", "buy": "Buy or skip",
                 "final buys": "Buy or skip"}


def info_buttons(session: Session) -> list[Item]:
    """Table and Rules (anyone) and My view (seated players)."""
    return [
        info_button(session, "table", label="Table"),
        info_button(session, "rules", label="Rules"),
        hand_button(session, label="My view"),
    ]


class TenUI:
    def __init__(self, engine: Engine[Any, Any]) -> None:
        if not isinstance(engine, TenEngine):
            raise TypeError("TenUI draws TEN games only")
        self.engine: TenEngine = engine

    # --- the public table -------------------------------------------------------------------

    def table(self, session: Session) -> Render:
        if session.status is Status.FINISHED:
            return self._final(session)
        state: TenState = session.state
        view: TenView = self.engine.view(state, None)
        names = session.names
        embed = discord.Embed(title=f"TEN — turn {view.turn}", colour=COLOUR,
                              description=text.situation(view, names))
        embed.add_field(name="Draw pile", value=text.pile_line(view), inline=False)
        embed.add_field(name=text.tableau_title(view), value=text.cards_line(view.tableau),
                        inline=False)
        embed.add_field(name="Market — price = number",
                        value="\n".join(text.market_lines(view.market)), inline=False)
        for player in view.players:
            title, body = text.player_field(view, player, names)
            embed.add_field(name=title, value=controls.clip(body, 1024), inline=True)
        _add_log(embed, session)
        discord_view = discord.ui.View(timeout=None)
        for item in self._table_actions(session, view):
            discord_view.add_item(item)
        for item in info_buttons(session):
            item.row = 1
            discord_view.add_item(item)
        return Render(embeds=[embed], view=discord_view)

    def _table_actions(self, session: Session, view: TenView) -> list[Item]:
        """The awaited human's buttons: Draw / Stop in the draw phase, else one button that
        opens their private controls."""
        if view.awaiting is None:
            return []
        seat = session.seat_of(view.awaiting)
        if seat is None or seat.is_bot:
            return []
        if view.phase == "draw":
            legal = self.engine.legal_actions(session.state, view.awaiting)
            return controls.draw_buttons(session, legal, view.tableau_currency)
        label = f"{_PANEL_LABELS[view.phase]} — {text.name(session.names, view.awaiting)}"
        return [act_button(session, "panel", label=controls.clip(label, 80),
                                    style=discord.ButtonStyle.primary, row=0)]

    def _final(self, session: Session) -> Render:
        names = session.names
        results = self.engine.results(session.state)
        embed = discord.Embed(title="TEN — final scores", colour=COLOUR,
                              description=text.winners_line(results, names))
        for result in results:
            lines = [*text.result_lines(result), text.decided_line(result)]
            embed.add_field(name=text.result_title(result, names),
                            value=controls.clip("\n".join(lines), 1024), inline=False)
        _add_log(embed, session)
        return Render(embeds=[embed])

    # --- the private view -------------------------------------------------------------------

    def private(self, session: Session, viewer: PlayerId) -> Render:
        state: TenState = session.state
        names = session.names
        view: TenView = self.engine.view(state, viewer)
        me = _player(view, viewer)
        embed = discord.Embed(title=f"TEN — {text.name(names, viewer)}'s view", colour=COLOUR)
        if session.status is Status.FINISHED:
            result = next(r for r in self.engine.results(state) if r.player == viewer)
            embed.description = text.result_title(result, names)
            embed.add_field(name="Your score", value="\n".join(text.result_lines(result)))
            return Render(embeds=[embed])
        embed.description = text.situation(view, names)
        seat = state.players.index(viewer)
        embed.add_field(
            name=f"You — {text.points(me.score)}",
            value="\n".join([
                f"{text.tokens_line(me)} · wealth {wealth(state, seat)}",
                *text.collection_lines(me),
            ]),
            inline=False,
        )
        items: list[Item] = []
        if session.status is Status.ACTIVE and view.awaiting == viewer:
            items = self._my_controls(session, view, viewer, embed)
        else:
            embed.set_footer(text=f"Waiting for {text.name(names, view.awaiting)}.")
        discord_view = discord.ui.View(timeout=None)
        for item in items:
            discord_view.add_item(item)
        return Render(embeds=[embed], view=discord_view)

    def _my_controls(
        self, session: Session, view: TenView, viewer: PlayerId, embed: discord.Embed
    ) -> list[Item]:
        legal = self.engine.legal_actions(session.state, viewer)
        if view.phase == "draw":
            embed.add_field(name=text.tableau_title(view), value=text.cards_line(view.tableau),
                            inline=False)
            embed.add_field(name="Draw pile", value=text.pile_line(view), inline=False)
            embed.set_footer(text="Your turn: draw again or stop.")
            return controls.draw_buttons(session, legal, view.tableau_currency)
        if view.phase == "auction":
            embed.set_footer(text="Your bid: pass, or choose an amount (up to your wealth).")
            return controls.bid_controls(session, legal)
        if view.phase == "payment":
            options = self._payment_options(session.state, view)
            embed.add_field(name="Least wasteful", value=options[0].label(), inline=False)
            embed.set_footer(text="Choose how to pay.")
            me = _player(view, viewer)
            assert view.payment is not None
            return controls.payment_controls(
                session, options, me.collection, can_go_back=view.payment.paying_for == "card"
            )
        embed.add_field(name="Market — price = number",
                        value="\n".join(text.market_lines(view.market)), inline=False)
        embed.set_footer(text="Buy one market card you can pay for, or skip.")
        return controls.buy_controls(session, legal)

    def _payment_options(self, state: TenState, view: TenView) -> list[Payment]:
        payment = view.payment
        if payment is None:
            return []
        return payment_options(state, payment.payer, payment.price,
                               cards_allowed=payment.paying_for == "card")

    def _card_step(self, session: Session, viewer: PlayerId, index: int,
                   option: Payment) -> Render:
        """Next step for a payment that spends collection cards: which cards."""
        view: TenView = self.engine.view(session.state, viewer)
        me = _player(view, viewer)
        count = len(option.cards)
        embed = discord.Embed(
            title="TEN — choose the cards to spend", colour=COLOUR,
            description=(
                f"{text.situation(view, session.names)}\nYou pay **{option.label()}**: pick "
                f"{count} collection card{'s' if count > 1 else ''} (spent cards leave the game)."
            ),
        )
        embed.add_field(name="Suggested", value=text.cards_line(option.cards))
        discord_view = discord.ui.View(timeout=None)
        discord_view.add_item(act_button(
            session, f"y:{index}", label=controls.clip(f"Pay {option.label()}", 80),
            style=discord.ButtonStyle.success, row=0,
        ))
        discord_view.add_item(act_button(session, "v", label="Back", row=0))
        discord_view.add_item(controls.card_picker(session, me.collection, option, row=1))
        return Render(embeds=[embed], view=discord_view)

    # --- clicks ---------------------------------------------------------------------------------

    def action_for(
        self, session: Session, viewer: PlayerId, payload: str, values: Sequence[str]
    ) -> Mapping[str, Any] | str | Render:
        if payload == "v":
            return self.private(session, viewer)
        state: TenState = session.state
        view: TenView = self.engine.view(state, None)
        if view.awaiting != viewer:
            raise Refusal(_turn_text(view, session.names))
        if payload == "panel":
            return self.private(session, viewer)
        if payload in _SIMPLE:
            return _SIMPLE[payload]
        code, _, arg = payload.partition(":")
        if code == "b":
            return {"type": "bid", "amount": _int(_one(values), "Choose a bid from the list.")}
        if code == "m":
            return {"type": "buy", "card": _one(values)}
        if code in ("y", "yo"):
            raw = arg if code == "y" else _one(values)
            options = self._payment_options(state, view)
            index = _int(raw, "That payment is not offered.")
            if not 0 <= index < len(options):
                raise Refusal("That payment is not offered.")
            option = options[index]
            if code == "yo" and option.cards:
                return self._card_step(session, viewer, index, option)
            return option.action().model_dump()
        if code == "yc":
            currency, _, bust = arg.partition(":")
            notes = [controls.note_of_key(value) for value in values]
            return {
                "type": "pay",
                "c": _int(currency, NOT_A_CONTROL),
                "b": _int(bust, NOT_A_CONTROL),
                "cards": "".join(notes),
            }
        raise Refusal(NOT_A_CONTROL)


def _add_log(embed: discord.Embed, session: Session) -> None:
    """The last event lines, as many as fit in Discord's 6000 characters per message."""
    lines = list(session.log[-LOG_LINES:])
    while lines:
        value = controls.clip("\n".join(lines), 1024)
        if len(embed) + len("Recent") + len(value) <= EMBED_LIMIT:
            embed.add_field(name="Recent", value=value, inline=False)
            return
        lines.pop(0)


def _player(view: TenView, player: PlayerId) -> PlayerView:
    return next(p for p in view.players if p.player == player)


def _turn_text(view: TenView, names: Mapping[PlayerId, str]) -> str:
    if view.awaiting is None:
        return "The game is over."
    who = text.name(names, view.awaiting)
    if view.phase == "auction":
        return f"It is {who}'s turn to bid."
    if view.phase == "payment":
        return f"It is {who}'s turn to pay."
    if view.phase in ("buy", "final buys"):
        return f"It is {who}'s buy phase."
    return f"It is {who}'s turn."


def _one(values: Sequence[str]) -> str:
    if len(values) != 1:
        raise Refusal("Choose one option from the list.")
    return values[0]


def _int(raw: str, message: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise Refusal(message) from None
