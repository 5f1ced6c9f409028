"""The spending order of a collection: the order in which a payment gives up its cards.

Cards outside every scoring run come first, then the cards of the cheapest runs; within the
same run points, number cards before wilds, then display order. The runs are those of the
collection's best score (``scoring.best_choices``), so a wild is spent late only when it
stands in a run.

This sits on the buy phase's hot path (every new collection that pays is ranked once), so it
works on card ids and plain ints and caches per collection as held.
"""

from __future__ import annotations

from game.bits import bit_of, each_bit, popcount, span, without
from game.ten import cards, data
from game.ten.cards import Kind
from game.ten.scoring import best_choices_for_tally, plain_best

_NUMBER, _COLOUR_WILD, _NUMBER_WILD, _FULL_WILD = range(4)
_NOT_COLLECTABLE = -1
_COLOUR_INDEX = {colour: index for index, colour in enumerate(data.COLOURS)}


def _part(card: int) -> tuple[int, int, int]:
    """(what the card is, its colour index, its number's bit) for the tally."""
    kind = cards.KIND[card]
    if kind == Kind.NUMBER:
        return _NUMBER, _COLOUR_INDEX[cards.COLOUR[card]], bit_of(cards.NUMBER[card])
    if kind == Kind.COLOUR_WILD:
        return _COLOUR_WILD, _COLOUR_INDEX[cards.COLOUR[card]], 0
    if kind == Kind.NUMBER_WILD:
        return _NUMBER_WILD, 0, bit_of(cards.NUMBER[card])
    if kind == Kind.FULL_WILD:
        return _FULL_WILD, 0, 0
    return _NOT_COLLECTABLE, 0, 0  # currency cards


def _is_wild(note: str) -> bool:
    return "#" in note or note[0] == "W"


# Spend rank of each collectable notation: wilds after number cards, then display order.
_ORDER: tuple[str, ...] = tuple(
    sorted(
        (note for note in cards.KNOWN_NOTATIONS if note[0] != "$"),
        key=lambda note: (_is_wild(note), cards.sort_key(note)),
    )
)
_RANK_OF_NOTE: dict[str, int] = {note: rank for rank, note in enumerate(_ORDER)}
# A card's sort key is its rank plus _STEP times the points of the run it stands in.
_STEP = len(_ORDER)
# per card id: (what, colour index, bit, spend rank)
_PART: tuple[tuple[int, int, int, int], ...] = tuple(
    (*_part(card), _RANK_OF_NOTE.get(note, 0)) for card, note in enumerate(cards.NOTATION)
)
_CARD_OF_NOTE: dict[str, int] = {
    cards.NOTATION[card]: card
    for card in reversed(range(len(_PART)))
    if _PART[card][0] != _NOT_COLLECTABLE
}

_ORDERS: dict[tuple[int, ...], str] = {}
_ORDERS_KEPT = 256  # small on purpose: a new collection is rarely ranked twice


def joined_order(owned: tuple[int, ...]) -> str:
    """The whole spending order of the collection ``owned`` (card ids), joined notation."""
    joined = _ORDERS.get(owned)
    if joined is None:
        if len(_ORDERS) >= _ORDERS_KEPT:
            _ORDERS.clear()
        joined = _ORDERS[owned] = _rank(owned)
    return joined


def spending_order(notes: list[str]) -> tuple[str, ...]:
    """The spending order of a collection given by notation (copies of a note are alike)."""
    try:
        owned = tuple([_CARD_OF_NOTE[note] for note in notes])
    except KeyError as err:
        raise ValueError(f"{err.args[0]!r} cannot be in a collection") from None
    joined = joined_order(owned)
    return tuple([joined[i : i + 2] for i in range(0, len(joined), 2)])


def _rank(owned: tuple[int, ...]) -> str:
    held = [0, 0, 0, 0]
    allowance = [0, 0, 0, 0]
    wild_mask = 0
    fulls = 0
    part = _PART
    parts = [part[card] for card in owned]
    for what, colour, bit, _ in parts:
        if what == _NUMBER:
            held[colour] |= bit
        elif what == _COLOUR_WILD:
            allowance[colour] += 1
        elif what == _NUMBER_WILD:
            wild_mask |= bit
        elif what == _FULL_WILD:
            fulls += 1
        else:
            raise ValueError("currency cards are never in a collection")
    # Per colour: the run's numbers still to be matched by a held card, its colour wilds
    # still to be matched, and the key bonus of its cards.
    in_run = [0, 0, 0, 0]
    colour_wilds = [0, 0, 0, 0]
    bonus = [0, 0, 0, 0]
    wild_bonus: dict[int, int] = {}  # number-wild bit -> bonus
    full_bonus: list[int] = []
    if not wild_mask and not fulls:
        for colour in range(4):
            h = held[colour]
            if h or allowance[colour]:
                points, start, end = plain_best(h, allowance[colour])
                if points:
                    run = span(start, end)
                    in_run[colour] = h & run
                    colour_wilds[colour] = popcount(without(run, h))
                    bonus[colour] = points * _STEP
    else:
        tally = (tuple(held), tuple(allowance), wild_mask, fulls)
        for colour, (mask, full, points, start, end) in enumerate(best_choices_for_tally(tally)[1]):
            if not points:
                continue
            h = held[colour]
            run = span(start, end)
            extra = points * _STEP
            in_run[colour] = h & run
            colour_wilds[colour] = popcount(without(run, h)) - popcount(mask) - full
            bonus[colour] = extra
            for wild in each_bit(mask):
                wild_bonus[wild] = extra
            full_bonus.extend([extra] * full)
    keys = []
    for what, colour, bit, key in parts:
        if what == _NUMBER:
            if in_run[colour] & bit:
                in_run[colour] ^= bit
                key += bonus[colour]
        elif what == _COLOUR_WILD:
            if colour_wilds[colour]:
                colour_wilds[colour] -= 1
                key += bonus[colour]
        elif what == _NUMBER_WILD:
            key += wild_bonus.pop(bit, 0)
        elif full_bonus:
            key += full_bonus.pop()
        keys.append(key)
    keys.sort()
    order = _ORDER
    step = _STEP
    return "".join([order[key % step] for key in keys])
