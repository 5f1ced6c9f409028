"""Build TEN positions from card notation for the tests."""

from __future__ import annotations

from collections.abc import Sequence

from game.base import Event
from game.ten import TenEngine, cards
from game.ten.invariants import check_invariants
from game.ten.state import TenAction, TenState

ENGINE = TenEngine()
SEATS = ["A", "B", "C", "D", "E"]


class Cards:
    """Hands out distinct card ids of a deck by notation."""

    def __init__(self, players: int) -> None:
        self.free = cards.deck_for(players)

    def take(self, note: str) -> int:
        for card in self.free:
            if cards.NOTATION[card] == note:
                self.free.remove(card)
                return card
        raise ValueError(f"no {note} left in the deck")

    def many(self, notes: Sequence[str]) -> list[int]:
        return [self.take(note) for note in notes]


def build(
    players: int = 4,
    *,
    flips: Sequence[str] = (),
    tableau: Sequence[str] = (),
    market: Sequence[str] = (),
    collections: Sequence[Sequence[str]] | None = None,
    currency: Sequence[int] | None = None,
    bust: Sequence[int] | None = None,
    active: int = 0,
    rest_in_pile: bool = True,
) -> TenState:
    """A draw-phase position. ``flips`` are the next cards in flip order; the remaining deck
    cards lie below them (``rest_in_pile``) or are out of the game (``removed``)."""
    deck = Cards(players)
    top = deck.many(flips)
    table = deck.many(tableau)
    sale = deck.many(market)
    owned = [deck.many(c) for c in (collections or [[] for _ in range(players)])]
    rest = list(deck.free)
    pile = (rest if rest_in_pile else []) + top[::-1]
    state = TenState(
        players=SEATS[:players],
        seed=1,
        pile=pile,
        final=not pile,
        tableau=table,
        market=sale,
        removed=[] if rest_in_pile else rest,
        collections=owned,
        currency=list(currency or [5] * players),
        bust=list(bust or [0] * players),
        active=active,
    )
    check_invariants(state)
    return state


def act(state: TenState, player: str, action: TenAction | dict[str, object]) -> list[Event]:
    if isinstance(action, dict):
        action = ENGINE.parse_action(action)
    events = ENGINE.apply(state, player, action)
    check_invariants(state)
    return events


def notes(ids: Sequence[int]) -> list[str]:
    return [cards.NOTATION[card] for card in ids]


def kinds(events: Sequence[Event]) -> list[str]:
    return [event.kind for event in events]
