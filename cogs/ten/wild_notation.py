"""One notation for TEN's cards in words and images, wilds included.

``*`` always means "wild": a colour wild is its colour letter and ``*`` (``R*``: red, any
number), a number wild is ``*`` and its number (``*7``: a 7 of any colour), the full wild is
``**``. A wild standing in a run is written with the place it takes: ``R*=R5``, ``*7=B7``,
``**=G7``. Number cards keep the engine's notation (``R5``), currency cards too (``$3``).
The engine's own notation (``R#``, ``W7``, ``W#``) stays what actions and payloads use.
"""

from __future__ import annotations

from game.ten import COLOUR_NAMES

WILD_MARK = "*"


def card_text(note: str) -> str:
    """The shown name of a card given in the engine's notation."""
    colour, value = note[0], note[1]
    if colour == "W":
        return WILD_MARK * 2 if value == "#" else f"{WILD_MARK}{value}"
    if value == "#":
        return f"{colour}{WILD_MARK}"
    return note


def placed_text(wild: str, place: str) -> str:
    """A wild and the place it takes in a run: ``placed_text("R#", "R5") == "R*=R5"``."""
    return f"{card_text(wild)}={place}"


def card_words(note: str) -> str:
    """The card in words, for captions and accessible text: ``red wild (any number)``."""
    colour, value = note[0], note[1]
    if colour == "$":
        return f"currency {value}"
    if colour == "W":
        return "full wild (any colour, any number)" if value == "#" else \
            f"number wild {value} (any colour)"
    if value == "#":
        return f"{COLOUR_NAMES[colour]} wild (any number)"
    return f"{COLOUR_NAMES[colour]} {value}"
