"""SPLIT cards: 104 half-cards as ints, their notation and the match levels.

A card is an int 0..103 (:func:`card_id`): the two identical halves of each face are two ids,
told apart for bookkeeping only. A face is an int 0..51 (:func:`face_id`) for a rank (0 = A …
12 = K) and a suit (``SUITS`` order). The notation (``7♥``, ``10♠``, ``Q♦``, ``A♣``) names a
face; identical halves share it.

The rest of the engine reads ids only through the names here: ``FACE_OF[card]``,
``RANK_OF[card]``, ``FACE_RANK[face]``, ``FACE_LEVEL[a][b]`` (tables, as cheap as the bit
arithmetic they replace in the rules' inner loops) and the functions around them.
"""

from __future__ import annotations

from game.split.vocabulary import Level

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("♠", "♥", "♦", "♣")
SUIT_LETTERS = "SHDC"
# Spades and clubs are black (0), hearts and diamonds red (1).
SUIT_COLOUR: tuple[int, ...] = (0, 1, 1, 0)
DECK_SIZE = 104
FACES = 52

COPIES = 2  # identical halves per face

WEAK, STRONG, PERFECT = 1, 2, 3
LEVEL_NAMES: dict[int, Level] = {WEAK: Level.WEAK, STRONG: Level.STRONG, PERFECT: Level.PERFECT}

FACE_NAMES: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)

CARD_NAMES: tuple[str, ...] = tuple(FACE_NAMES[card // COPIES] for card in range(DECK_SIZE))

_SUIT_ALIASES: dict[str, int] = {
    **{symbol: index for index, symbol in enumerate(SUITS)},
    **{letter: index for index, letter in enumerate(SUIT_LETTERS)},
    "♤": 0,
    "♡": 1,
    "♢": 2,
    "♧": 3,
}
_RANK_ALIASES: dict[str, int] = {**{rank: index for index, rank in enumerate(RANKS)}, "T": 9}
_PARSED: dict[str, int] = {name: face for face, name in enumerate(FACE_NAMES)}


def face_id(rank: int, suit: int) -> int:
    """The face of ``rank`` (0 = A … 12 = K) in ``suit`` (index into ``SUITS``)."""
    return rank * len(SUITS) + suit


def card_id(face: int, copy: int) -> int:
    """The card id of half ``copy`` (0 or 1) of ``face``."""
    return face * COPIES + copy


FACE_RANK: tuple[int, ...] = tuple(face // len(SUITS) for face in range(FACES))
FACE_SUIT: tuple[int, ...] = tuple(face % len(SUITS) for face in range(FACES))
FACE_OF: tuple[int, ...] = tuple(card // COPIES for card in range(DECK_SIZE))
RANK_OF: tuple[int, ...] = tuple(FACE_RANK[face] for face in FACE_OF)


def face_of(card: int) -> int:
    """The face (0..51) of a card id."""
    return FACE_OF[card]


def rank_of(card: int) -> int:
    """Rank index (0 = A … 12 = K) of a card id."""
    return RANK_OF[card]


def face_rank(face: int) -> int:
    return FACE_RANK[face]


def name(card: int) -> str:
    """Notation of a card id, e.g. ``7♥``."""
    return CARD_NAMES[card]


def face_name(face: int) -> str:
    return FACE_NAMES[face]


def parse_face(text: str) -> int:
    """The face (0..51) named by ``text``: ``7♥``, ``7H``, ``10s``, ``QD``, ``T♣``.

    Raises ValueError with a readable message when ``text`` names no card.
    """
    face = _PARSED.get(text)
    if face is not None:
        return face
    cleaned = text.strip().upper().replace("\ufe0f", "")
    if len(cleaned) >= 2:
        suit = _SUIT_ALIASES.get(cleaned[-1])
        rank = _RANK_ALIASES.get(cleaned[:-1])
        if suit is not None and rank is not None:
            return face_id(rank, suit)
    raise ValueError(f"'{text}' is not a card (write it like 7♥, 10♠ or 7H, 10S)")


def canonical(text: str) -> str:
    """The standard notation of a card name given in any accepted form."""
    return FACE_NAMES[parse_face(text)]


def _level(a: int, b: int) -> int:
    if a == b:
        return PERFECT
    if FACE_RANK[a] != FACE_RANK[b]:
        return 0
    return STRONG if SUIT_COLOUR[FACE_SUIT[a]] == SUIT_COLOUR[FACE_SUIT[b]] else WEAK


# FACE_LEVEL[a][b]: the match level of faces a and b (see face_level).
FACE_LEVEL: tuple[tuple[int, ...], ...] = tuple(
    tuple(_level(a, b) for b in range(FACES)) for a in range(FACES)
)


def face_level(a: int, b: int) -> int:
    """Match level of two faces: PERFECT (the same face), STRONG (one rank, one colour), WEAK
    (one rank), or 0 when they do not match."""
    return FACE_LEVEL[a][b]


def level(card_a: int, card_b: int) -> int:
    """Match level of two card ids (see :func:`face_level`)."""
    return FACE_LEVEL[FACE_OF[card_a]][FACE_OF[card_b]]
