"""The 129 cards as data: every physical card has a small int id; lookups are flat tuples.

Notation (used in actions, events and error texts): ``R5`` a red 5, ``B#`` a blue colour wild,
``W7`` a number wild 7 (any colour), ``W#`` the full wild, ``$3`` a 3-currency card.
Colour letters: R red, B blue, O orange, G green.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import IntEnum
from functools import cache

from game.ten import data


class Kind(IntEnum):
    NUMBER = 0
    COLOUR_WILD = 1
    NUMBER_WILD = 2
    FULL_WILD = 3
    CURRENCY = 4


WILD_KINDS = frozenset({Kind.COLOUR_WILD, Kind.NUMBER_WILD, Kind.FULL_WILD})


def _build() -> list[tuple[Kind, str, int, int]]:
    """(kind, colour letter or 'W'/'$', number or currency value or 0, minimum player count)."""
    cards: list[tuple[Kind, str, int, int]] = []
    for colour in data.COLOURS:
        for number in data.NUMBERS:
            for copy in range(1, data.NUMBER_COPIES[number] + 1):
                if (number, copy) in data.SYMBOL_4PLUS_NUMBER_COPIES:
                    minimum = 4
                elif (number, copy) in data.SYMBOL_3_NUMBER_COPIES:
                    minimum = 3
                else:
                    minimum = 1
                cards.append((Kind.NUMBER, colour, number, minimum))
        cards.extend((Kind.COLOUR_WILD, colour, 0, 1) for _ in range(data.COLOUR_WILDS_PER_COLOUR))
    cards.extend((Kind.NUMBER_WILD, "W", number, 1) for number in data.NUMBER_WILD_NUMBERS)
    cards.extend((Kind.FULL_WILD, "W", 0, 1) for _ in range(data.FULL_WILDS))
    for value, copies in data.CURRENCY_COPIES.items():
        four_plus = data.SYMBOL_4PLUS_CURRENCY.count(value)
        three = data.SYMBOL_3_CURRENCY.count(value)
        cards.extend((Kind.CURRENCY, "$", value, 4) for _ in range(four_plus))
        cards.extend((Kind.CURRENCY, "$", value, 3) for _ in range(three))
        cards.extend((Kind.CURRENCY, "$", value, 1) for _ in range(copies - four_plus - three))
    return cards


_TABLE = _build()
CARD_COUNT = len(_TABLE)
KIND: tuple[Kind, ...] = tuple(card[0] for card in _TABLE)
COLOUR: tuple[str, ...] = tuple(card[1] for card in _TABLE)
NUMBER: tuple[int, ...] = tuple(card[2] if card[0] != Kind.CURRENCY else 0 for card in _TABLE)
CURRENCY_VALUE: tuple[int, ...] = tuple(
    card[2] if card[0] == Kind.CURRENCY else 0 for card in _TABLE
)
MIN_PLAYERS: tuple[int, ...] = tuple(card[3] for card in _TABLE)
IS_WILD: tuple[bool, ...] = tuple(kind in WILD_KINDS for kind in KIND)


def _notation(card: int) -> str:
    kind, colour, number = KIND[card], COLOUR[card], NUMBER[card]
    if kind == Kind.NUMBER:
        return f"{colour}{number}"
    if kind == Kind.COLOUR_WILD:
        return f"{colour}#"
    if kind == Kind.NUMBER_WILD:
        return f"W{number}"
    if kind == Kind.FULL_WILD:
        return "W#"
    return f"${CURRENCY_VALUE[card]}"


NOTATION: tuple[str, ...] = tuple(_notation(card) for card in range(CARD_COUNT))
KNOWN_NOTATIONS = frozenset(NOTATION)


def deck_for(players: int) -> list[int]:
    """Card ids of the deck for a player count (spec section 1, player-count deck)."""
    return [card for card in range(CARD_COUNT) if MIN_PLAYERS[card] <= players]


def notation(card: int) -> str:
    return NOTATION[card]


def kind_of(note: str) -> Kind:
    return KIND[NOTATION.index(note)]


def display(note: str) -> str:
    """Notation with a colour square, for messages: ``🟥5``, ``🟦#``, ``🌈7``, ``$3``."""
    if note[0] in data.COLOUR_EMOJI:
        return f"{data.COLOUR_EMOJI[note[0]]}{note[1]}"
    return note


def split_notes(text: str) -> list[str]:
    """``"R1B#W7"`` -> ``["R1", "B#", "W7"]``; raises ValueError on an unknown card."""
    if len(text) % 2:
        raise ValueError(f"{text!r} is not a list of cards")
    notes = [text[i : i + 2] for i in range(0, len(text), 2)]
    for note in notes:
        if note not in KNOWN_NOTATIONS:
            raise ValueError(f"{note!r} is not a TEN card")
    return notes


def join_notes(notes: Iterable[str]) -> str:
    return "".join(notes)


@cache
def deck_counts(players: int) -> Counter[str]:
    return Counter(NOTATION[card] for card in deck_for(players))


def _sort_key(note: str) -> tuple[int, int, str]:
    order = {c: i for i, c in enumerate(data.COLOURS)}
    group = order.get(note[0], len(order) + (note[0] == "$"))
    return (group, int(note[1]) if note[1].isdigit() else 10, note)


# notation -> its display order (``sorted(notes, key=SORT_KEYS.__getitem__)``: no Python call
# per note)
SORT_KEYS: dict[str, tuple[int, int, str]] = {note: _sort_key(note) for note in KNOWN_NOTATIONS}


def sort_key(note: str) -> tuple[int, int, str]:
    """Display order: colours in table order, then wilds, then currency; by number."""
    return SORT_KEYS[note]
