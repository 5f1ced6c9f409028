"""TEN's events as lines of words in the reader's language: the table log, the turn clock's
notices and a replay's steps (``cogs.game_ui.WordsEvents``).

The same facts as the engine's English ``describe`` (``game.ten.describe``); TEN's events
hold public data only. The data may come back from the store (JSON: lists for tuples).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cogs.i18n.common_words import BUST_TOKENS, CURRENCY_TOKENS
from cogs.i18n.words import Words
from cogs.ten.colour_words import card_name
from game.base import Event, PlayerId
from game.ten.vocabulary import BustKind, EventKind, Reward

Names = Mapping[PlayerId, str]


def _name(names: Names, player: Any) -> str:
    return "?" if player is None else names.get(str(player), str(player))


def _cards(notes: Sequence[str] | None, words: Words) -> str:
    return ", ".join(card_name(note, words) for note in notes) if notes else \
        words.gettext("no cards")


def _gains(gains: Mapping[str, int] | None, names: Names) -> str:
    """`` (Ana +2, Ben +1)``: who gained currency tokens (numbers and names only)."""
    parts = [f"{_name(names, p)} +{g}" for p, g in (gains or {}).items() if g]
    return f" ({', '.join(parts)})" if parts else ""


def _payment(d: Mapping[str, Any], words: Words) -> str:
    parts = []
    if d.get("c"):
        parts.append(words.plural(CURRENCY_TOKENS, int(d["c"])))
    if d.get("b"):
        parts.append(words.plural(BUST_TOKENS, int(d["b"])))
    if d.get("cards"):
        parts.append(_cards(list(d["cards"]), words))
    return " + ".join(parts) or words.gettext("nothing")


def _turn(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("Turn {turn}: {name} to play.", turn=d["turn"], name=who)


def _flip(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    card = card_name(d["card"], words)
    if "total" in d:
        return words.ngettext(
            "{name} flips {card}: total {total}, currency {currency} ({count} card left).",
            "{name} flips {card}: total {total}, currency {currency} ({count} cards left).",
            d["left"], name=who, card=card, total=d["total"], currency=d["currency"])
    return words.ngettext("{name} flips the wild {card} ({count} card left).",
                          "{name} flips the wild {card} ({count} cards left).",
                          d["left"], name=who, card=card)


def _bust(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    fields = {"name": who, "cards": _cards(d.get("to_market"), words),
              "gains": _gains(d.get("gains"), names)}
    if d.get("bust") == BustKind.CURRENCY:
        return words.gettext("{name} busts on currency and takes a bust token; {cards} to the "
                             "market{gains}.", **fields)
    return words.gettext("{name} busts on numbers and takes a bust token; {cards} to the "
                         "market{gains}.", **fields)


def _stop(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    cards, gains = _cards(d.get("cards"), words), _gains(d.get("gains"), names)
    if d.get("take") == Reward.NUMBERS:
        return words.gettext("{name} stops and takes {cards}{gains}.", name=who, cards=cards,
                             gains=gains)
    return words.ngettext(
        "{name} stops and takes {count} currency; {cards} to the market{gains}.",
        "{name} stops and takes {count} currency; {cards} to the market{gains}.",
        int(d["currency"]), name=who, cards=cards, gains=gains)


def _auction(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("Auction for {card}.", card=card_name(d["card"], words))


def _bid(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} bids {amount}.", name=who, amount=d["amount"])


def _pass(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} passes.", name=who)


def _won(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} wins {card} for {price}.", name=who,
                         card=card_name(d["card"], words), price=d["price"])


def _unsold(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("Nobody bids: {card} leaves the game.", card=card_name(d["card"], words))


def _paid(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} pays {payment} for {card}.", name=who,
                         payment=_payment(d, words), card=card_name(d["card"], words))


def _choose(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} chooses {card} to buy.", name=who,
                         card=card_name(d["card"], words))


def _back(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} chooses again.", name=who)


def _bought(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} buys {card} with {payment}.", name=who,
                         card=card_name(d["card"], words), payment=_payment(d, words))


def _skip(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("{name} buys nothing.", name=who)


def _final_buy(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("Final buy phase: {name}.", name=who)


def _over(d: Mapping[str, Any], who: str, names: Names, words: Words) -> str:
    return words.gettext("The game is over.")


_Wording = Callable[[Mapping[str, Any], str, Names, Words], str]
_WORDINGS: dict[str, _Wording] = {
    EventKind.TURN: _turn,
    EventKind.FLIP: _flip,
    EventKind.BUST: _bust,
    EventKind.STOP: _stop,
    EventKind.AUCTION: _auction,
    EventKind.BID: _bid,
    EventKind.PASS: _pass,
    EventKind.WON: _won,
    EventKind.UNSOLD: _unsold,
    EventKind.PAID: _paid,
    EventKind.CHOOSE: _choose,
    EventKind.BACK: _back,
    EventKind.BOUGHT: _bought,
    EventKind.SKIP: _skip,
    EventKind.FINAL_BUY: _final_buy,
    EventKind.OVER: _over,
}


def event_line(event: Event, viewer: PlayerId | None, names: Names, words: Words) -> str:
    """``event`` in ``words``, as ``viewer`` may see it (``None``: its public part only)."""
    wording = _WORDINGS.get(event.kind)
    if wording is None:  # a kind this UI does not know (a newer engine): its name
        return event.kind
    return wording(event.visible_to(viewer), _name(names, event.actor), names, words)
