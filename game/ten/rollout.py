"""Fast playouts for TEN search: moves applied without events, and greedy rollouts.

``step`` plays the moves a playout makes most (a flip of a number or currency card that
neither busts nor empties the pile, a bid or pass that is not the auction's last) straight on
the state, without validation and without building events; every other move goes through
``rules.apply_for``. It leaves the state exactly as the rules do, fields-set bookkeeping
included (``tests/engine/test_expert_ten.py`` plays random games both ways and compares every
state). Only legal moves may be passed.

``greedy_move`` is the rollout players' policy: the normal bot's, with its scoring done on
card ids (``collection_score``): the same moves (tested) wherever no seat holds more than
``EXACT_SHARED_WILDS`` number wilds and full wilds.
"""

from __future__ import annotations

from functools import lru_cache

from game.bits import bit_of
from game.search.interrupt import STOP_EVERY_MOVES, Interrupted, Stop
from game.ten import cards, data, rules
from game.ten.greedy import GREEDY_STOP_RISK, GREEDY_TOKENS_PER_POINT, greedy_action
from game.ten.odds import running_total, tableau_currency
from game.ten.payments import legal_payments, wealth
from game.ten.scoring import plain_best
from game.ten.state import Bid, Buy, Draw, Pass, TenAction, TenState
from game.ten.vocabulary import Phase

_DRAW_PHASE, _AUCTION, _BUY, _PAY = Phase.DRAW, Phase.AUCTION, Phase.BUY, Phase.PAY
_NOTATION = cards.NOTATION
_NUMBER = cards.NUMBER
_CURRENCY_VALUE = cards.CURRENCY_VALUE
_IS_WILD = cards.IS_WILD
_IS_NUMBER = tuple(kind == cards.Kind.NUMBER for kind in cards.KIND)
# A rollout that has not ended after this many moves stops there (a guard only).
MAX_ROLLOUT_MOVES = 5000


def step(state: TenState, seat: int, action: TenAction) -> None:
    """Apply the legal ``action`` of ``seat`` as the rules would, without events."""
    fields = state.__dict__
    kind = type(action)
    if kind is Draw:
        pile = fields["pile"]
        card = pile[-1] if len(pile) > 1 else None
        if card is not None and not _IS_WILD[card]:
            tableau = fields["tableau"]
            currency = _CURRENCY_VALUE[card]
            total = _NUMBER[card] - currency
            for c in tableau:
                currency += _CURRENCY_VALUE[c]
                total += _NUMBER[c] - _CURRENCY_VALUE[c]
            busts = (
                total >= data.NUMBER_BUST_AT
                if _IS_NUMBER[card]
                else currency >= data.CURRENCY_BUST_AT
            )
            if not busts:
                tableau.append(pile.pop())
                return
    elif kind is Pass or kind is Bid:
        index = fields["bid_index"] + 1
        if index < len(fields["bidders"]):
            if kind is Bid:
                assert isinstance(action, Bid)
                fields["high_bid"] = action.amount
                fields["high_bidder"] = seat
                state.__pydantic_fields_set__.update(("high_bid", "high_bidder"))
            fields["bid_index"] = index
            state.__pydantic_fields_set__.add("bid_index")
            return
    rules.apply_for(state, fields["players"][seat], action)


def pile_bust_chance(state: TenState) -> float:
    """``odds.bust_chance`` computed from the pile's contents (equal in a consistent world)."""
    pile = state.__dict__["pile"]
    if not pile:
        return 0.0
    tableau = state.__dict__["tableau"]
    total = running_total(tableau)
    currency = tableau_currency(tableau)
    number_room = data.NUMBER_BUST_AT - total
    currency_room = data.CURRENCY_BUST_AT - currency
    busting = 0
    for card in pile:
        if _IS_NUMBER[card]:
            busting += _NUMBER[card] >= number_room
        else:
            value = _CURRENCY_VALUE[card]
            busting += value > 0 and value >= currency_room
    return busting / len(pile)


# Per card id: (colour index or -1, number bit (a number card's or a number wild's), colour
# wild, shared wild).
_COLOUR_INDEX = {colour: index for index, colour in enumerate(data.COLOURS)}
_PARTS: tuple[tuple[int, int, int, int], ...] = tuple(
    (
        _COLOUR_INDEX.get(cards.COLOUR[card], -1),
        bit_of(_NUMBER[card]) if cards.KIND[card] in (cards.Kind.NUMBER, cards.Kind.NUMBER_WILD)
        else 0,
        int(cards.KIND[card] == cards.Kind.COLOUR_WILD),
        int(cards.KIND[card] in (cards.Kind.NUMBER_WILD, cards.Kind.FULL_WILD)),
    )
    for card in range(cards.CARD_COUNT)
)


# Collections with more shared wilds (number wilds and the full wild) than this are scored by
# ``greedy_assignment``: the exact search's cost grows as 3 ** wilds (a 2-player playout
# often ends with 5-8 per seat, and one playout scores hundreds of times), and the greedy one
# is almost always the same total.
EXACT_SHARED_WILDS = 5


def collection_score(collection: list[int]) -> int:
    """The score of a collection of card ids, from a tally of bit masks: exact (equal to
    ``scoring.score_total`` of its notes) up to ``EXACT_SHARED_WILDS`` shared wilds, then
    by ``greedy_assignment``."""
    held = [0, 0, 0, 0]
    allowance = [0, 0, 0, 0]
    shared: list[int] = []  # a number wild's bit, 0 for the full wild
    parts = _PARTS
    for card in collection:
        colour, bit, colour_wild, shared_wild = parts[card]
        if colour >= 0:
            held[colour] |= bit
            allowance[colour] += colour_wild
        elif shared_wild:
            shared.append(bit)
    if not shared:
        total = 0
        for colour in range(4):
            if held[colour] or allowance[colour]:
                total += plain_best(held[colour], allowance[colour])[0]
        return total
    if len(shared) > EXACT_SHARED_WILDS:
        return greedy_assignment(held, allowance, shared)
    return _assigned_total(tuple(held), tuple(allowance), tuple(sorted(shared)))


@lru_cache(maxsize=65536)
def _assigned_total(
    held: tuple[int, ...], allowance: tuple[int, ...], shared: tuple[int, ...]
) -> int:
    """The best total over every assignment of the shared wilds to colours (or to none): a
    colour's points with a set of them are its plain best with their numbers held and one
    more colour wild per full wild. A programme over the colours and the sets used."""
    # The expert's playouts spend most of their time here (a miss of the cache), so the
    # ``game.bits`` helpers are inlined: each expression names the one it stands for.
    count = len(shared)
    subsets = 1 << count  # bit_of(count): the sets of shared wilds are 0 .. subsets - 1
    extra_bits = [0] * subsets
    extra_fulls = [0] * subsets
    for subset in range(1, subsets):
        low = subset & -subset  # lowest_bit(subset)
        index = low.bit_length() - 1  # index_of(low)
        rest = subset ^ low  # without(subset, low)
        extra_bits[subset] = extra_bits[rest] | shared[index]
        extra_fulls[subset] = extra_fulls[rest] + (shared[index] == 0)
    best = [0] + [-1] * (subsets - 1)  # best[used]: the most points with exactly ``used``
    for colour in range(4):
        h, a = held[colour], allowance[colour]
        value = [plain_best(h | extra_bits[m], a + extra_fulls[m])[0] for m in range(subsets)]
        after = [-1] * subsets
        for used in range(subsets):
            base = best[used]
            if base < 0:
                continue
            free = (subsets - 1) ^ used  # without(every shared wild, used)
            sub = free  # then each of subsets_of(free), free first and 0 last
            while True:
                total = base + value[sub]
                if total > after[used | sub]:
                    after[used | sub] = total
                if not sub:
                    break
                sub = (sub - 1) & free
        best = after
    return max(best)


def greedy_assignment(held: list[int], allowance: list[int], shared: list[int]) -> int:
    """A lower bound of the score, usually the best: the shared wilds placed one at a time
    (number wilds from 9 down, the full wild last), each where it adds the most points."""
    held = list(held)
    allowance = list(allowance)
    points = [plain_best(held[c], allowance[c])[0] for c in range(4)]
    for bit in sorted(shared, reverse=True):
        best_gain, best_colour, best_points = 0, -1, 0
        for colour in range(4):
            if bit:
                if held[colour] & bit:
                    continue
                new = plain_best(held[colour] | bit, allowance[colour])[0]
            else:
                new = plain_best(held[colour], allowance[colour] + 1)[0]
            if new - points[colour] > best_gain:
                best_gain, best_colour, best_points = new - points[colour], colour, new
        if best_colour >= 0:
            points[best_colour] = best_points
            if bit:
                held[best_colour] |= bit
            else:
                allowance[best_colour] += 1
    return sum(points)


def _gain(collection: list[int], extra: list[int]) -> int:
    return collection_score(collection + extra) - collection_score(collection)


def greedy_move(state: TenState, seat: int) -> TenAction:
    """The normal bot's policy (``greedy.greedy_action``), its points scored from card ids
    (``collection_score``, exact) and the bust chance read from the pile's contents (in a
    sampled world exactly the unseen cards): the same move, far cheaper."""
    fields = state.__dict__
    phase = fields["phase"]
    collection = fields["collections"][seat]
    if phase == _DRAW_PHASE:
        pile = fields["pile"]
        can_stop = not pile or bool(fields["tableau"])
        if can_stop and (not pile or pile_bust_chance(state) > GREEDY_STOP_RISK):
            tableau = fields["tableau"]
            numbers = [c for c in tableau if _IS_NUMBER[c]]
            before = fields["currency"][seat]
            currency_gain = min(data.CURRENCY_CAP, before + tableau_currency(tableau)) - before
            if _gain(collection, numbers) >= currency_gain:
                return rules._STOP_NUMBERS
            return rules._STOP_CURRENCY
        return rules._DRAW
    if phase == _AUCTION:
        card = fields["auction_card"]
        value = _gain(collection, [card])
        limit = min(wealth(state, seat), value * GREEDY_TOKENS_PER_POINT)
        low = max(fields["high_bid"] + 1, data.MIN_FIRST_BID)
        if low > limit:
            return rules._PASS
        last = fields["bid_index"] == len(fields["bidders"]) - 1
        return rules._bid_action(low if last else limit)
    if phase == _BUY:
        tokens = wealth(state, seat)
        best: tuple[int, TenAction] | None = None
        market = fields["market"]
        base = collection_score(collection)
        for action in rules.legal(state, seat):
            if isinstance(action, Buy) and int(action.card[1]) <= tokens:
                card = next(c for c in market if _NOTATION[c] == action.card)
                gain = collection_score([*collection, card]) - base
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, action)
        return best[1] if best else rules._SKIP
    if phase == _PAY and wealth(state, seat) >= fields["pay_price"]:
        # Token-only, least wasteful first (the normal bot's choice when tokens can pay).
        return legal_payments(state, seat, fields["pay_price"], cards_allowed=False)[0]
    return greedy_action(state, seat)


def play_out(state: TenState, stop: Stop | None = None) -> None:
    """Greedy play by every seat to the end of the game. ``stop`` is asked before the first
    move and every ``STOP_EVERY_MOVES`` moves; when it says so, ``Interrupted`` is raised
    (the state is then part-way through the playout)."""
    for moves in range(MAX_ROLLOUT_MOVES):
        seat = rules.waiting_seat(state)
        if seat is None:
            return
        if stop is not None and moves % STOP_EVERY_MOVES == 0 and stop():
            raise Interrupted
        step(state, seat, greedy_move(state, seat))


def play_out_turns(state: TenState, turns: int, stop: Stop | None = None) -> None:
    """Greedy play until ``turns`` more turns have begun (or the game ends); ``stop`` as
    in ``play_out``."""
    stop_at = state.__dict__["turn"] + turns
    for moves in range(MAX_ROLLOUT_MOVES):
        seat = rules.waiting_seat(state)
        if seat is None or state.__dict__["turn"] >= stop_at:
            return
        if stop is not None and moves % STOP_EVERY_MOVES == 0 and stop():
            raise Interrupted
        step(state, seat, greedy_move(state, seat))


def standing(state: TenState, seat: int, wealth_weight: float, win_bonus: float) -> float:
    """The seat's lead over the best other seat, in points: at the end the score margin
    (``collection_score``) plus ``win_bonus`` times its share of the win; before it each seat
    counts its score plus ``wealth_weight`` points per token of wealth (what it can still
    bid and buy with)."""
    if rules.waiting_seat(state) is None:
        share, lead = outcome(state, seat)
        return lead + win_bonus * share
    fields = state.__dict__
    currency, busts = fields["currency"], fields["bust"]
    values = [
        collection_score(collection)
        + wealth_weight * (currency[s] + data.BUST_TOKEN_VALUE * busts[s])
        for s, collection in enumerate(fields["collections"])
    ]
    mine = values.pop(seat)
    return mine - max(values)


def outcome(state: TenState, seat: int) -> tuple[float, float]:
    """(the seat's share of the win, its score minus the best other score) at the end, with
    the placing keys of ``results.final_results`` (score, currency, fewest cards) and scores
    by ``collection_score`` (cheaper than ``results``: every rollout ends with new
    collections)."""
    keys = [
        (collection_score(collection), state.currency[s], -len(collection))
        for s, collection in enumerate(state.collections)
    ]
    best = max(keys)
    firsts = sum(1 for key in keys if key == best)
    share = 1.0 / firsts if keys[seat] == best else 0.0
    others = max(key[0] for s, key in enumerate(keys) if s != seat)
    return share, float(keys[seat][0] - others)
