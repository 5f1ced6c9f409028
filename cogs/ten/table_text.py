"""TEN's public table in phone-sized lines, drawn from ``engine.view(state, None)`` only.

Title: the turn, the draw pile and the chance that the next flip busts. Then who must act now
and for what (▶ marks them: the bidder during an auction, the payer, the buyer), the tableau,
the market, and one or two lines per player (points, tokens, scoring runs, spare cards). The
whole collection of every player is behind the Scores button (:func:`collections_embed`).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs.i18n.words import Words
from cogs.rendering.phone_text import join_lines, short, wrap, wrap_text
from cogs.ten import text
from cogs.ten.colour_words import COLOUR_WORDS, card_letter, colour_letter
from game.ten import COLOURS, MarketCard, PlayerView, RunView, TenView

MARK = "▶ "


def who(names: text.Names, player: str | None) -> str:
    return f"**{short(text.name(names, player))}**"


def acting(view: TenView) -> str | None:
    """Whoever must act now: the awaited player (the bidder in an auction), else nobody."""
    return view.awaiting if view.phase != "over" else None


def title(view: TenView, words: Words) -> str:
    if view.pile_size == 0:
        return words.gettext("TEN · turn {turn} · the last card is flipped", turn=view.turn)
    chance = format(view.bust_chance, ".0%")
    return words.gettext("TEN · turn {turn} · draw pile {count} · bust {chance}",
                         turn=view.turn, count=view.pile_size, chance=chance)


def situation_lines(view: TenView, names: text.Names, words: Words) -> list[str]:
    """What the table waits for, in at most two short lines."""
    if view.phase == "draw":
        may_flip, may_stop = text.draw_choices(view)
        active = who(names, view.active)
        if not may_stop:
            line = words.gettext("{name} flips a card", name=active)
        elif not may_flip:
            line = words.gettext("{name} must stop: the draw pile is empty", name=active)
        else:
            line = words.gettext("{name} flips again or stops", name=active)
        return wrap_text(line, first=MARK)
    if view.phase == "auction" and view.auction is not None:
        auction = view.auction
        wild = card_letter(auction.wild)
        first = (
            words.gettext("Auction for {wild}: high bid {bid} by {name}", wild=wild,
                          bid=auction.high_bid, name=short(text.name(names, auction.high_bidder)))
            if auction.high_bidder is not None
            else words.gettext("Auction for {wild}: no bid yet", wild=wild)
        )
        later = auction.still_to_bid[1:]
        bidder = who(names, auction.to_bid)
        second = (
            words.gettext("{name} bids; then {names}", name=bidder,
                          names=", ".join(short(text.name(names, p)) for p in later))
            if later else words.gettext("{name} bids last", name=bidder)
        )
        return [*wrap_text(first), *wrap_text(second, first=MARK)]
    if view.phase == "payment" and view.payment is not None:
        pay = view.payment
        if pay.paying_for == "wild":
            line = words.gettext("{name} won {card} for {price} and pays",
                                 name=who(names, pay.payer), card=card_letter(pay.card),
                                 price=pay.price)
        else:
            line = words.gettext("{name} buys {card} and pays {price}",
                                 name=who(names, pay.payer), card=card_letter(pay.card),
                                 price=pay.price)
        return wrap_text(line, first=MARK)
    if view.phase == "buy":
        return wrap_text(words.gettext("{name} may buy a market card or skip",
                                       name=who(names, view.buyer)), first=MARK)
    if view.phase == "final buys":
        later = view.final_buys_left
        line = (
            words.gettext("Final buys: {name} now; then {names}", name=who(names, view.buyer),
                          names=", ".join(short(text.name(names, p)) for p in later))
            if later else words.gettext("Final buys: {name}, the last one",
                                        name=who(names, view.buyer))
        )
        return wrap_text(line, first=MARK)
    return [words.gettext("The game is over.")]


def tableau_lines(view: TenView, words: Words) -> list[str]:
    if not view.tableau:
        return [words.gettext("Tableau: empty")]
    head = words.gettext("Tableau · total {total} · 💰{currency}:", total=view.running_total,
                         currency=view.tableau_currency)
    return wrap([card_letter(note) for note in view.tableau], first=head + " ", indent="   ")


def _market_colour(colour: str, on_sale: Sequence[MarketCard]) -> str:
    prices = " ".join([  # a list: one call, not a generator resumed per card (issue 42)
        f"{card.price}×{card.copies}" if card.copies > 1 else str(card.price)
        for card in on_sale
    ])
    return f"{colour_letter(colour)} {prices}"


def market_lines(view: TenView, words: Words) -> list[str]:
    """``Market: 🟥R 1 3×2 5 · 🟦B 2 4`` (a number card's price is its number)."""
    groups = [_market_colour(colour, cards) for colour, cards in view.market.items() if cards]
    if not groups:
        return [words.gettext("Market: empty")]
    return wrap(groups, first=words.gettext("Market:") + " ", indent="   ", sep=" · ")


def run_range(run: RunView) -> str:
    """``🟥R3–7`` for a scoring run (``🟥R4`` for a run of one number)."""
    span = str(run.start) if run.start == run.end else f"{run.start}–{run.end}"
    return f"{colour_letter(run.colour)}{span}"


def player_lines(view: TenView, player: PlayerView, names: text.Names,
                 words: Words) -> list[str]:
    """``▶ **Ana** · 12 pts · 💰4 💥1``, then the scoring runs and the count of spare cards
    (on the same line when they fit)."""
    marked = player.player == acting(view)
    head = " · ".join([
        f"{MARK if marked else ''}{who(names, player.player)}",
        words.ngettext("{count} pt", "{count} pts", player.score),
        f"💰{player.currency} 💥{player.bust_tokens}",
    ])
    runs = [run_range(run) for run in player.runs if run.points]
    spare = len(text.spare_cards(player))
    if spare:
        runs.append(words.ngettext("+{count} spare", "+{count} spare", spare))
    if not runs:
        return [head]
    return wrap(runs, first=head + " · ", indent="   ")


def colour_legend(words: Words) -> str:
    """``R red B blue O orange G green``: the compact table's colour letters."""
    found = words.derived.get(colour_legend)
    if found is None:  # one Words' colour names never change: made once (issue 42)
        found = words.derived[colour_legend] = " ".join(
            [f"{colour} {words.text(COLOUR_WORDS[colour])}" for colour in COLOURS])
    return str(found)


def table_embed(view: TenView, names: text.Names, words: Words,
                colour: discord.Colour) -> discord.Embed:
    lines = [
        *situation_lines(view, names, words),
        *tableau_lines(view, words),
        *market_lines(view, words),
    ]
    for player in view.players:
        lines.extend(player_lines(view, player, names, words))
    embed = discord.Embed(title=title(view, words), colour=colour, description=join_lines(lines))
    embed.set_footer(text=words.gettext("💰 currency · 💥 bust · {colours}",
                                        colours=colour_legend(words)))
    return embed


def collections_embed(view: TenView, names: text.Names, words: Words,
                      colour: discord.Colour) -> discord.Embed:
    """The Scores button's answer: every player's tokens, runs and spare cards in full."""
    embed = discord.Embed(title=words.gettext("TEN · every collection"), colour=colour)
    for player in view.players:
        field_title, body = text.player_field(view, player, names, words)
        embed.add_field(name=field_title, value=body[:1024], inline=False)
    return embed
