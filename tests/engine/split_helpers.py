"""Build SPLIT positions by hand for the rule tests."""

from __future__ import annotations

from collections.abc import Sequence

from game.split.cards import DECK_SIZE, RANKS, card_id, parse_face
from game.split.state import SplitState, TableMatch

PLAYERS = ["ana", "ben", "cy", "di", "ed", "flo"]


class Deck:
    """Hands out card ids by notation, each physical half at most once."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def card(self, text: str) -> int:
        face = parse_face(text)
        for card in (card_id(face, 0), card_id(face, 1)):
            if card not in self.used:
                self.used.add(card)
                return card
        raise ValueError(f"both halves of {text} are in use")

    def cards(self, texts: Sequence[str] | str) -> list[int]:
        if isinstance(texts, str):
            texts = texts.split()
        return [self.card(text) for text in texts]

    def rest(self) -> list[int]:
        return [card for card in range(DECK_SIZE) if card not in self.used]


def make_state(
    hands: Sequence[str],
    *,
    row: str = "",
    matches: Sequence[tuple[int, str, str]] = (),
    pile: str | None = None,
    turn: int = 0,
    step: str = "main",
    picked: str | None = None,
    dealer: int | None = None,
    turns_started: Sequence[int] | None = None,
    round: int = 1,
) -> SplitState:
    """A position: ``hands[i]`` is seat i's hand ("7♥ 7H 10S"), ``matches`` are
    (owner, "halves", "covered"). Without ``pile`` every unused card goes to the pile, so
    all 104 cards are accounted for; with ``pile`` (top card last) the rest is left out."""
    count = len(hands)
    deck = Deck()
    hand_cards = [deck.cards(hand) for hand in hands]
    row_cards = deck.cards(row)
    table = [
        TableMatch(owner=owner, halves=deck.cards(halves), covered=deck.cards(covered))
        for owner, halves, covered in matches
    ]
    picked_card = None
    if picked is not None:
        face = parse_face(picked)
        picked_card = next(c for c in hand_cards[turn] if c >> 1 == face)
    pile_cards = deck.cards(pile) if pile is not None else deck.rest()
    return SplitState(
        players=PLAYERS[:count],
        seed=1,
        round=round,
        dealer=(turn - 1) % count if dealer is None else dealer,
        turn=turn,
        step=step,  # type: ignore[arg-type]
        hands=hand_cards,
        pile=pile_cards,
        row=row_cards,
        matches=table,
        picked=picked_card,
        turns_started=list(turns_started)
        if turns_started is not None
        else [int(s == turn and step != "take") for s in range(count)],
        boxes=[[0] * len(RANKS) for _ in range(count)],
        negatives=[0] * count,
        round_marks=[0] * count,
    )


def names(cards: Sequence[int]) -> list[str]:
    from game.split.cards import name

    return sorted((name(card) for card in cards), key=parse_face)
