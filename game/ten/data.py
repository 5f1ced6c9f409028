"""Every fixed number of TEN in one place, the **[house]** decisions of the spec included.

A corrected house value is a one-line change here; the engine reads nothing else.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("R", "B", "O", "G")  # red, blue, orange, green
COLOUR_NAMES: dict[str, str] = {"R": "red", "B": "blue", "O": "orange", "G": "green"}
COLOUR_EMOJI: dict[str, str] = {"R": "🟥", "B": "🟦", "O": "🟧", "G": "🟩", "W": "🌈"}
NUMBERS: tuple[int, ...] = tuple(range(1, 10))

# Number cards per colour: copies of each number (three of 1-6, one of 7-9).
NUMBER_COPIES: dict[int, int] = {1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3, 7: 1, 8: 1, 9: 1}
COLOUR_WILDS_PER_COLOUR = 2
NUMBER_WILD_NUMBERS: tuple[int, ...] = NUMBERS  # [house] nine number wilds, one per number
FULL_WILDS = 1
# [house spread] currency card value -> copies (27 cards).
CURRENCY_COPIES: dict[int, int] = {1: 7, 2: 6, 3: 6, 4: 4, 5: 4}

# [house] Player-count symbols. Number cards: (number, copy index counted from 1) per colour.
# Currency cards: values carrying the symbol (one card each).
SYMBOL_4PLUS_NUMBER_COPIES: frozenset[tuple[int, int]] = frozenset({(1, 3), (2, 3), (3, 3), (4, 3)})
SYMBOL_4PLUS_CURRENCY: tuple[int, ...] = (1, 2, 3, 4)
SYMBOL_3_NUMBER_COPIES: frozenset[tuple[int, int]] = frozenset({(5, 3), (6, 3), (1, 2), (2, 2)})
SYMBOL_3_CURRENCY: tuple[int, ...] = (1, 2, 3, 5)
DECK_SIZE_BY_PLAYERS: dict[int, int] = {1: 89, 2: 89, 3: 109, 4: 129, 5: 129}

MIN_SEATS = 2  # the engine's seats; solo is two seats with a bot (spec section 6, [house])
MAX_SEATS = 5
START_CURRENCY = 5
CURRENCY_CAP = 10
NUMBER_BUST_AT = 11
CURRENCY_BUST_AT = 11
BUST_TOKEN_VALUE = 3
CURRENCY_TOKEN_VALUE = 1
COLLECTION_CARD_VALUE = 1  # a collection card spent in a buy phase, wilds included
COMPLETE_RUN_LENGTH = 9
COMPLETE_RUN_BONUS = 1
MIN_FIRST_BID = 1
UNSOLD_WILD_LEAVES_GAME = True  # [house] everybody passed: the wild is out of the game
ONLY_TOKENS_CAN_BE_BID = True  # [house] collection cards never pay for an auction
MUST_DRAW_WHEN_TABLEAU_EMPTY = True  # [house] no stopping right after an auction on an empty row
