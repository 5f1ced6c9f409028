"""SPLIT cards: 104 half-cards as ints, their notation and the match levels.

A card is an int 0..103: ``face * 2 + copy`` where ``face = rank * 4 + suit`` (0..51) and
``copy`` (0/1) tells the two identical halves apart for bookkeeping only. The notation
(``7♥``, ``10♠``, ``Q♦``, ``A♣``) names a face; identical halves share it.
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

WEAK, STRONG, PERFECT = 1, 2, 3
LEVEL_NAMES: dict[int, Level] = {WEAK: Level.WEAK, STRONG: Level.STRONG, PERFECT: Level.PERFECT}

FACE_NAMES: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)

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


def face_of(card: int) -> int:
    return card >> 1


def rank_of(card: int) -> int:
    """Rank index (0 = A … 12 = K) of a card id."""
    return card >> 3


def face_rank(face: int) -> int:
    return face >> 2


def name(card: int) -> str:
    """Notation of a card id, e.g. ``7♥``."""
    return FACE_NAMES[card >> 1]


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
            return rank * 4 + suit
    raise ValueError(f"'{text}' is not a card (write it like 7♥, 10♠ or 7H, 10S)")


def canonical(text: str) -> str:
    """The standard notation of a card name given in any accepted form."""
    return FACE_NAMES[parse_face(text)]


def face_level(a: int, b: int) -> int:
    """Match level of two faces: PERFECT, STRONG, WEAK, or 0 when they do not match."""
    if a == b:
        return PERFECT
    if a >> 2 != b >> 2:
        return 0
    return STRONG if SUIT_COLOUR[a & 3] == SUIT_COLOUR[b & 3] else WEAK


def level(card_a: int, card_b: int) -> int:
    """Match level of two card ids (see :func:`face_level`)."""
    return face_level(card_a >> 1, card_b >> 1)
