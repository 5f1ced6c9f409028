"""TEN's colours in words (issue 41: colour is never the only carrier of meaning). The texts
show a card's colour as a coloured square (``🟥5``); each card and each colour row also
says its colour's name from the catalogs (``🟥5 red``, ``🟥 red 3 4 5``), in the reader's
language. The compact table (``cogs.ten.table_text``, a phone's 15 lines) writes the colour's
letter instead, the one the card pictures print in their corner (``🟥R5``, ``🟥R3–7``), with
the letters explained in its footer. Wilds of any colour (``🌈7``, ``🌈#``: a rainbow, a
shape of its own) and currency cards (``$3``) name no colour."""

from __future__ import annotations

from cogs.i18n.messages import NP_, Message
from cogs.i18n.words import Words
from game.ten import data, display

COLOUR_WORDS: dict[str, Message] = {
    "R": NP_("ten-colour", "red"),
    "B": NP_("ten-colour", "blue"),
    "O": NP_("ten-colour", "orange"),
    "G": NP_("ten-colour", "green"),
}


def card_name(note: str, words: Words) -> str:
    """``R5`` -> ``🟥5 red``, ``B#`` -> ``🟦# blue``; ``W7`` -> ``🌈7``, ``$3`` -> ``$3``."""
    colour = COLOUR_WORDS.get(note[0])
    shown = display(note)
    return f"{shown} {words.text(colour)}" if colour is not None else shown


def colour_mark(colour: str, words: Words) -> str:
    """A colour's row heading: ``🟥 red``."""
    return f"{data.COLOUR_EMOJI[colour]} {words.text(COLOUR_WORDS[colour])}"


def card_letter(note: str) -> str:
    """``R5`` -> ``🟥R5``, ``B#`` -> ``🟦B#``; ``W7`` -> ``🌈7``, ``$3`` -> ``$3``."""
    if note[0] in COLOUR_WORDS:
        return f"{data.COLOUR_EMOJI[note[0]]}{note}"
    return display(note)


def colour_letter(colour: str) -> str:
    """A colour's mark in the compact table: ``🟥R``."""
    return f"{data.COLOUR_EMOJI[colour]}{colour}"
