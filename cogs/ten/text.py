"""TEN's words and card layouts for Discord, drawn from the engine's view models only.

Every function here formats; none decides a rule. Cards are shown with the engine's display
helper (``🟥5``, ``🟦#``, ``🌈7``, ``$3``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cogs.i18n.button_names import button_names
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.i18n.messages import N_, Message
from cogs.i18n.words import Words
from cogs.ten.colour_words import card_name, colour_mark
from game.base import PlayerId, PlayerResult
from game.ten import (
    MarketCard,
    PlayerView,
    RunView,
    TenView,
    display,
    may_draw,
    may_stop,
)

Names = Mapping[PlayerId, str]
ENGLISH = words_for(Language.EN)


def name(names: Names, player: PlayerId | None, words: Words = ENGLISH) -> str:
    if player is None:
        return words.gettext("nobody")
    return names.get(player, player)


def cards_line(notes: Sequence[str], words: Words = ENGLISH) -> str:
    return ", ".join([card_name(note, words) for note in notes]) if notes else "—"


def _run_token(colour: str, number: int, note: str) -> str:
    """One place of a run: the bare number for a number card, the wild and its place else."""
    if note == f"{colour}{number}":
        return str(number)
    if note == f"W{number}":
        return display(note)  # a number wild stands for its own number
    return f"{display(note) if note[0] == 'W' else '#'}→{number}"


def run_line(run: RunView, words: Words = ENGLISH) -> str | None:
    """``🟥 red 3 4 #→5 6 🌈7 (5)``, or None for a colour that scores nothing."""
    if not run.points:
        return None
    places = [
        _run_token(run.colour, number, note)
        for number, note in zip(range(run.start, run.end + 1), run.cards, strict=True)
    ]
    return f"{colour_mark(run.colour, words)} {' '.join(places)} ({run.points})"


def spare_cards(player: PlayerView) -> list[str]:
    """The collection cards outside every scoring run (display order)."""
    in_runs = Counter([note for run in player.runs for note in run.cards])  # a list: one call
    spare: list[str] = []
    for note in player.collection:
        if in_runs[note]:
            in_runs[note] -= 1
        else:
            spare.append(note)
    return spare


def collection_lines(player: PlayerView, words: Words = ENGLISH) -> list[str]:
    lines = [line for run in player.runs if (line := run_line(run, words))]
    spare = spare_cards(player)
    if spare:
        lines.append(words.gettext("spare: {cards}", cards=cards_line(spare, words)))
    return lines or [words.gettext("no cards yet")]


def tokens_line(player: PlayerView, words: Words = ENGLISH) -> str:
    return words.gettext("💰 {currency} currency · 💥 {bust} bust", currency=player.currency,
                         bust=player.bust_tokens)


def player_field(view: TenView, player: PlayerView, names: Names,
                 words: Words = ENGLISH) -> tuple[str, str]:
    # Whoever must act now: the bidder during an auction, not the player whose turn it is.
    marker = "▶ " if player.player == view.awaiting and view.phase != "over" else ""
    title = f"{marker}{name(names, player.player, words)} — {points(player.score, words)}"
    return title, "\n".join([tokens_line(player, words), *collection_lines(player, words)])


def _market_card(card: MarketCard) -> str:
    copies = f" ×{card.copies}" if card.copies > 1 else ""
    return f"{card.price}{copies}"


def market_lines(market: Mapping[str, Sequence[MarketCard]],
                 words: Words = ENGLISH) -> list[str]:
    return [
        f"{colour_mark(colour, words)}: " + " · ".join(_market_card(card) for card in on_sale)
        for colour, on_sale in market.items()
        if on_sale
    ] or [words.pgettext("market", "empty")]


def pile_line(view: TenView, words: Words = ENGLISH) -> str:
    if view.pile_size == 0:
        return words.gettext("empty — the last card has been flipped")
    chance = f"{view.bust_chance:.0%}"
    return words.ngettext("{count} card · next flip busts: **{chance}**",
                          "{count} cards · next flip busts: **{chance}**", view.pile_size,
                          chance=chance)


def tableau_title(view: TenView, words: Words = ENGLISH) -> str:
    return words.gettext("Tableau — total {total} · currency {currency}",
                         total=view.running_total, currency=view.tableau_currency)


def draw_choices(view: TenView) -> tuple[bool, bool]:
    """(may flip, may stop) in the draw phase, as the engine's rules say (``may_draw``,
    ``may_stop``): flip while the pile holds a card; stop once the tableau shows one, or when
    the pile is empty."""
    pile_left, row_filled = view.pile_size > 0, bool(view.tableau)
    return may_draw(pile_left, row_filled), may_stop(pile_left, row_filled)


def draw_prompt(may_flip: bool, may_stop: bool, words: Words = ENGLISH) -> str:
    """The private view's footer in the draw phase: only what can be done now."""
    if may_flip and may_stop:
        return words.gettext("Your turn: press **{flip_button}** for another card, or **stop**"
                             " and take the numbers or the currency.", **button_names(words))
    if may_flip:
        return words.gettext("Your turn: press **{flip_button}** to flip a card; you may stop"
                             " once the tableau shows one.", **button_names(words))
    return words.gettext("Your turn: the draw pile is empty, so **stop** and take the numbers"
                         " or the currency.")


def _then(names: Names, players: Sequence[PlayerId], words: Words) -> str:
    return ", ".join(name(names, p, words) for p in players)


def situation(view: TenView, names: Names, words: Words = ENGLISH) -> str:
    """One or two sentences: what the table waits for, in the rule order."""
    active = name(names, view.active, words)
    if view.phase == "draw":
        may_flip, may_stop = draw_choices(view)
        if not may_stop:
            return words.gettext("**{name}** flips a card (turn {turn}).", name=active,
                                 turn=view.turn)
        if not may_flip:
            return words.gettext("**{name}** must stop: the draw pile is empty (turn {turn}).",
                                 name=active, turn=view.turn)
        return words.gettext("**{name}** flips or stops (turn {turn}).", name=active,
                             turn=view.turn)
    if view.phase == "auction" and view.auction is not None:
        auction = view.auction
        wild = card_name(auction.wild, words)
        later = auction.still_to_bid[1:]
        bidder = name(names, auction.to_bid, words)
        if auction.high_bidder is not None:
            first = words.gettext("Auction for the wild **{wild}** — high bid **{bid}** by"
                                  " {name}.", wild=wild, bid=auction.high_bid,
                                  name=name(names, auction.high_bidder, words))
        else:
            first = words.gettext("Auction for the wild **{wild}** — no bid yet.", wild=wild)
        second = (
            words.gettext("**{name}** to bid; then {names}.", name=bidder,
                          names=_then(names, later, words))
            if later else words.gettext("**{name}** to bid (last to bid).", name=bidder)
        )
        return f"{first}\n{second}"
    if view.phase == "payment" and view.payment is not None:
        pay = view.payment
        payer = name(names, pay.payer, words)
        if pay.paying_for == "wild":
            return words.gettext("**{name}** won {card} for {price} and chooses how to pay.",
                                 name=payer, card=card_name(pay.card, words), price=pay.price)
        return words.gettext("**{name}** buys {card} and chooses how to pay {price}.",
                             name=payer, card=card_name(pay.card, words), price=pay.price)
    if view.phase == "buy":
        return words.gettext("**{name}** may buy one market card (or skip).",
                             name=name(names, view.buyer, words))
    if view.phase == "final buys":
        later = view.final_buys_left
        buyer = name(names, view.buyer, words)
        if later:
            return words.gettext("Final buy phases: **{name}** now; then {names}.", name=buyer,
                                 names=_then(names, later, words))
        return words.gettext("Final buy phases: **{name}** now (the last one).", name=buyer)
    return words.gettext("The game is over.")


def points(score: int, words: Words = ENGLISH) -> str:
    return words.ngettext("{count} pt", "{count} pts", score)


def result_title(result: PlayerResult, names: Names, words: Words = ENGLISH) -> str:
    return (f"#{result.placement} {name(names, result.player, words)} — "
            f"{points(result.score, words)}")


def _breakdown_run(colour: str, run: Mapping[str, Any], words: Words) -> str | None:
    if not run["points"]:
        return None
    return run_line(RunView(colour=colour, **run), words)


def result_lines(result: PlayerResult, words: Words = ENGLISH) -> list[str]:
    """Per colour: the run with each wild's place; the unused wilds; tokens and the tie-break."""
    breakdown = result.breakdown
    lines = [
        line
        for colour, run in breakdown["runs"].items()
        if (line := _breakdown_run(colour, run, words))
    ] or [words.gettext("no scoring run")]
    for wild, place in breakdown["assignment"]:
        lines.append(words.gettext("{wild} took the place of {place}",
                                   wild=card_name(wild, words), place=card_name(place, words)))
    if breakdown["unused_wilds"]:
        lines.append(words.gettext("unused wilds: {cards}",
                                   cards=cards_line(breakdown["unused_wilds"], words)))
    lines.append(words.ngettext(
        "💰 {currency} currency · {count} card · 💥 {bust} bust",
        "💰 {currency} currency · {count} cards · 💥 {bust} bust",
        breakdown["collection_size"], currency=breakdown["currency"],
        bust=breakdown["bust_tokens"]))
    return lines


DECIDED_BY: dict[str, Message] = {
    "score": N_("by points"),
    "currency tokens": N_("tie on points broken by currency tokens"),
    "fewest cards": N_("tie on points and currency broken by fewest cards"),
    "shared": N_("shared place: equal points, currency and cards"),
}


def _decided(result: PlayerResult, words: Words) -> str | None:
    reason = DECIDED_BY.get(str(result.breakdown.get("decided_by")))
    return words.text(reason) if reason is not None else None


def winners_line(results: Sequence[PlayerResult], names: Names,
                 words: Words = ENGLISH) -> str:
    top = [r for r in results if r.placement == 1]
    if not top:
        return words.gettext("No result.")
    reason = _decided(top[0], words) or ""
    marked = [f"**{name(names, r.player, words)}**" for r in top]
    who = marked[0]
    for other in marked[1:]:
        who = words.gettext("{first} and {second}", first=who, second=other)
    if len(top) > 1:
        return words.gettext("🏆 {names} win with {score} points ({reason}).", names=who,
                             score=top[0].score, reason=reason)
    return words.gettext("🏆 {name} wins with {score} points ({reason}).", name=who,
                         score=top[0].score, reason=reason)


def decided_line(result: PlayerResult, words: Words = ENGLISH) -> str:
    reason = _decided(result, words)
    return words.gettext("Place: {reason}", reason=reason) if reason else ""
