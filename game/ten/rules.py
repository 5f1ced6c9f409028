"""The TEN rules as transitions on ``TenState`` (spec sections 2-4). Seats are ints.

``legal_for`` lists a player's actions; ``apply_for`` checks an action with the same predicate
per rule and applies it in place, refusing with IllegalAction (nothing changed) otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from game.base import Event, IllegalAction, PlayerId, rng_for
from game.ten import cards, data
from game.ten.cards import Kind
from game.ten.odds import tableau_currency
from game.ten.payments import (
    execute_payment,
    is_listed_payment,
    is_valid_payment,
    legal_payments,
    payment_refusal,
    wealth,
)
from game.ten.state import (
    Back,
    Bid,
    Buy,
    Draw,
    Pass,
    Pay,
    Skip,
    Stop,
    TenAction,
    TenState,
)
from game.ten.vocabulary import ActionType, BustKind, EventKind, PayFor, Phase, Reward

# Enum members the common actions use, as module globals: Python 3.11 reads ``Phase.DRAW``
# through the enum class's ``__getattr__`` hook at ten times the cost (see game.ten.vocabulary).
# A state's fields hold the members themselves (pydantic validates "draw" into Phase.DRAW), so
# the rules compare them with ``is``.
_DRAW_PHASE, _AUCTION, _PAY, _BUY = Phase.DRAW, Phase.AUCTION, Phase.PAY, Phase.BUY
_OVER = Phase.OVER
_WILD, _CARD = PayFor.WILD, PayFor.CARD
_NUMBERS, _CURRENCY = Reward.NUMBERS, Reward.CURRENCY
_NUMBER_BUST, _CURRENCY_BUST = BustKind.NUMBER, BustKind.CURRENCY
_FLIP_EVENT, _BUST_EVENT, _STOP_EVENT = EventKind.FLIP, EventKind.BUST, EventKind.STOP
_TURN_EVENT, _BID_EVENT, _PASS_EVENT = EventKind.TURN, EventKind.BID, EventKind.PASS

SOLO_NEEDS_BOT = (
    "TEN needs at least 2 seats: a solo game is played against a bot seat (spec section 6), "
    "so add a bot player id before starting."
)


def new_game(players: Sequence[PlayerId], seed: int) -> tuple[TenState, list[Event]]:
    """The shuffled game, and the event that turn 1 starts."""
    count = len(players)
    if count < data.MIN_SEATS:
        raise IllegalAction(SOLO_NEEDS_BOT)
    if count > data.MAX_SEATS:
        raise IllegalAction(f"TEN is for at most {data.MAX_SEATS} players.")
    if len(set(players)) != count:
        raise IllegalAction("Every player may sit only once.")
    pile = cards.deck_for(count)
    rng_for(seed, "ten", "deck").shuffle(pile)
    state = TenState(
        players=list(players),
        seed=seed,
        pile=pile,
        collections=[[] for _ in players],
        currency=[data.START_CURRENCY] * count,
        bust=[0] * count,
        active=rng_for(seed, "ten", "first").randrange(count),
    )
    state.mark_all_set()
    return state, [Event(_TURN_EVENT, state.players[state.active], {"turn": state.turn})]


def awaiting(state: TenState) -> list[PlayerId]:
    if state.phase is _DRAW_PHASE:
        return [state.players[state.active]]
    seat = waiting_seat(state)
    return [] if seat is None else [state.players[seat]]


def is_over(state: TenState) -> bool:
    return state.phase is _OVER


def waiting_seat(state: TenState) -> int | None:
    phase = state.phase
    if phase is _DRAW_PHASE:
        return state.active
    if phase is _AUCTION:
        return state.bidders[state.bid_index]
    if phase is _PAY:
        return state.high_bidder if state.pay_for is _WILD else state.buyer
    if phase is _BUY:
        return state.buyer
    return None


def gain(state: TenState, seat: int, amount: int) -> int:
    """Add currency tokens up to the cap (spec 3.6); returns what was actually gained."""
    before = state.currency[seat]
    state.currency[seat] = min(data.CURRENCY_CAP, before + amount)
    return state.currency[seat] - before


# One predicate per rule: the legal lists and the checks in ``apply_for`` both ask these.


def may_draw(pile_left: bool, row_filled: bool) -> bool:
    """The active player may flip a card while the pile holds one (spec 3.1)."""
    return pile_left


def may_stop(pile_left: bool, row_filled: bool) -> bool:
    """The active player may stop once the row holds a card, or when the pile is empty."""
    return not pile_left or row_filled


def can_draw(state: TenState) -> bool:
    return may_draw(bool(state.pile), bool(state.tableau))


def can_stop(state: TenState) -> bool:
    return may_stop(bool(state.pile), bool(state.tableau))


def bid_range(state: TenState, seat: int) -> tuple[int, int]:
    """(lowest, highest) bid ``seat`` may make now: above the high bid, within its wealth."""
    low = max(state.high_bid + 1, data.MIN_FIRST_BID)
    return low, state.currency[seat] + data.BUST_TOKEN_VALUE * state.bust[seat]


def may_go_back(state: TenState) -> bool:
    """Only the payment of a chosen market card may be left (an auction win must be paid)."""
    return state.pay_for is _CARD


def buy_options(state: TenState, seat: int) -> list[Buy]:
    """The market cards ``seat`` may buy, in display order: in the market, of a notation it
    does not own, at a price its wealth and collection cards can pay."""
    rank = _BUY_RANK
    collection = state.collections[seat]
    offered = {rank[card] for card in state.market}
    offered.difference_update([rank[card] for card in collection])
    limit = wealth(state, seat) + len(collection)
    prices = _PRICE_BY_RANK
    return [_BUY_BY_RANK[r] for r in sorted(offered) if r < _BUY_COUNT and prices[r] <= limit]


def _buy_refusal(state: TenState, seat: int, note: str) -> str:
    """Why ``buy_options`` does not list ``note``."""
    notation = cards.NOTATION
    if all(notation[card] != note for card in state.market):
        return f"There is no {note} in the market."
    if any(notation[owned] == note for owned in state.collections[seat]):
        return f"You already own a {note}, so you cannot buy another."
    return f"You cannot pay {int(note[1])} for {note}."


# Actions are frozen models, so the legal lists share these instances.
_DRAW = Draw()
_STOP_NUMBERS = Stop(take=_NUMBERS)
_STOP_CURRENCY = Stop(take=_CURRENCY)
_STOPS: tuple[TenAction, ...] = (_STOP_NUMBERS, _STOP_CURRENCY)
_PASS = Pass()
_SKIP = Skip()
_BACK = Back()
_BIDS: dict[int, Bid] = {}
_BUYS = {note: Buy(card=note) for note in cards.KNOWN_NOTATIONS if note[0] in data.COLOURS}
# Market cards (number cards only) in display order, and their prices (the number).
_BUY_ORDER: tuple[str, ...] = tuple(
    sorted((note for note in _BUYS if note[1].isdigit()), key=cards.sort_key)
)
_BUY_PRICE: dict[str, int] = {note: int(note[1]) for note in _BUY_ORDER}
# Per card id: its place in _BUY_ORDER (number cards), or a place no market card has.
_BUY_RANK: tuple[int, ...] = tuple(
    _BUY_ORDER.index(note) if note in _BUY_PRICE else len(_BUY_ORDER) + card
    for card, note in enumerate(cards.NOTATION)
)
_BUY_BY_RANK: tuple[Buy, ...] = tuple(_BUYS[note] for note in _BUY_ORDER)
_PRICE_BY_RANK: tuple[int, ...] = tuple(_BUY_PRICE[note] for note in _BUY_ORDER)
_BUY_COUNT = len(_BUY_ORDER)
# (pile left, row filled) -> the draw phase's legal actions, by may_draw and may_stop
_DRAW_PHASE_LEGAL: dict[tuple[bool, bool], tuple[TenAction, ...]] = {
    (pile, row): ((_DRAW,) if may_draw(pile, row) else ()) + (_STOPS if may_stop(pile, row) else ())
    for pile in (False, True)
    for row in (False, True)
}
# bid_range -> the auction's legal actions
_AUCTION_LEGAL: dict[tuple[int, int], tuple[TenAction, ...]] = {}


def _bid_action(amount: int) -> Bid:
    action = _BIDS.get(amount)
    if action is None:
        action = _BIDS[amount] = Bid(amount=amount)
    return action


def legal(state: TenState, seat: int) -> list[TenAction]:
    players = state.players
    return legal_for(state, players[seat]) if 0 <= seat < len(players) else []


def legal_for(state: TenState, player: PlayerId) -> list[TenAction]:
    """``player``'s legal actions (none when the game does not wait for them)."""
    try:
        seat = state.players.index(player)
    except ValueError:
        return []
    phase = state.phase
    if phase is _DRAW_PHASE:  # waiting_seat's first case, spelled out on the hottest path
        if seat != state.active:
            return []
        return list(_DRAW_PHASE_LEGAL[bool(state.pile), bool(state.tableau)])
    if seat != waiting_seat(state):
        return []
    if phase is _AUCTION:
        key = bid_range(state, seat)
        actions = _AUCTION_LEGAL.get(key)
        if actions is None:
            bids = (_bid_action(a) for a in range(key[0], key[1] + 1))
            actions = _AUCTION_LEGAL[key] = (_PASS, *bids)
        return list(actions)
    if phase is _PAY:
        back = may_go_back(state)
        pays: list[TenAction] = list(
            legal_payments(state, seat, state.pay_price, cards_allowed=back)
        )
        if back:
            pays.append(_BACK)
        return pays
    if phase is _BUY:
        buys: list[TenAction] = list(buy_options(state, seat))
        buys.append(_SKIP)
        return buys
    return []


def is_legal_for(state: TenState, player: PlayerId, action: TenAction) -> bool:
    """Whether ``action`` is one of ``legal_for(state, player)``: the awaited seat, then the
    phase's own check (a bid in the range, a payment in its situation's cached list)."""
    try:
        seat = state.players.index(player)
    except ValueError:
        return False
    phase = state.phase
    if phase is _DRAW_PHASE:
        return seat == state.active and action in _DRAW_PHASE_LEGAL[
            bool(state.pile), bool(state.tableau)]
    if seat != waiting_seat(state):
        return False
    if phase is _AUCTION:
        if isinstance(action, Bid):
            low, high = bid_range(state, seat)
            return low <= action.amount <= high
        return isinstance(action, Pass)
    if phase is _PAY:
        back = may_go_back(state)
        if isinstance(action, Back):
            return back
        return isinstance(action, Pay) and action in legal_payments(
            state, seat, state.pay_price, cards_allowed=back)
    if phase is _BUY:
        return isinstance(action, Skip) or (
            isinstance(action, Buy) and action in buy_options(state, seat))
    return False


def apply_action(state: TenState, seat: int, action: TenAction) -> list[Event]:
    players = state.players
    if not 0 <= seat < len(players):
        raise IllegalAction("You are not playing in this game.")
    return apply_for(state, players[seat], action)


def apply_for(state: TenState, player: PlayerId, action: TenAction) -> list[Event]:
    """Applies ``player``'s action in place and returns the events; raises IllegalAction
    (with nothing changed) when the rules refuse it."""
    players = state.players
    try:
        seat = players.index(player)
    except ValueError:
        raise IllegalAction("You are not playing in this game.") from None
    phase = state.phase
    # waiting_seat's first case, spelled out on the hottest path
    waiting = state.active if phase is _DRAW_PHASE else waiting_seat(state)
    if waiting is None:
        raise IllegalAction("The game is over.")
    if waiting != seat:
        raise IllegalAction(f"It is not your move: the game waits for {players[waiting]}.")
    handler = _HANDLERS[phase].get(type(action))
    if handler is None:
        if type(action) not in _ACTION_CLASSES:
            raise IllegalAction("That is not a TEN action.")
        raise IllegalAction(_wrong_phase_text(state, action.type))
    return handler(state, seat, players[seat], action)


_Handler = Callable[[TenState, int, PlayerId, TenAction], list[Event]]


# What each phase lets the awaited player do, for the refusal of any other action.
_PHASE_CHOICES: dict[Phase, str] = {
    Phase.DRAW: "draw or stop",
    Phase.AUCTION: "bid or pass",
    Phase.PAY: "choose a payment",
    Phase.BUY: "buy a market card or skip",
    Phase.OVER: "nothing: the game is over",
}


def _wrong_phase_text(state: TenState, kind: ActionType) -> str:
    what = _PHASE_CHOICES[state.phase]
    if state.phase is _PAY and state.pay_for is _CARD:
        what += " or go back"
    return f"You cannot {kind} now: {what}."


# --- draw phase -----------------------------------------------------------------------------

_NUMBER = cards.NUMBER
_NOTATION = cards.NOTATION
_CURRENCY_VALUE = cards.CURRENCY_VALUE
_IS_WILD = cards.IS_WILD
_IS_NUMBER: tuple[bool, ...] = tuple(kind == Kind.NUMBER for kind in cards.KIND)
_IS_CURRENCY: tuple[bool, ...] = tuple(kind == Kind.CURRENCY for kind in cards.KIND)


def _draw(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    pile = state.pile
    if not may_draw(bool(pile), bool(state.tableau)):
        raise IllegalAction("The draw pile is empty: you must stop.")
    card = pile.pop()
    note = _NOTATION[card]
    left = len(pile)
    if not left:
        state.final = True
    if _IS_WILD[card]:
        flip = Event(_FLIP_EVENT, player, {"card": note, "left": left})
        return [flip, _start_auction(state, card)]
    tableau = state.tableau
    tableau.append(card)
    currency = 0
    total = 0
    for c in tableau:
        currency += _CURRENCY_VALUE[c]
        total += _NUMBER[c]
    total -= currency
    flip = Event(
        _FLIP_EVENT,
        player,
        {"card": note, "total": total, "currency": currency, "left": left},
    )
    if _IS_NUMBER[card]:
        if total >= data.NUMBER_BUST_AT:
            return [flip, *_bust(state, seat, player, _NUMBER_BUST)]
    elif currency >= data.CURRENCY_BUST_AT and _IS_CURRENCY[card]:
        return [flip, *_bust(state, seat, player, _CURRENCY_BUST)]
    return [flip]


def _split_tableau(state: TenState) -> tuple[list[int], int]:
    """Empties the tableau: returns its number cards; currency cards go to the discard."""
    tableau = state.tableau
    is_number = _IS_NUMBER
    numbers = [c for c in tableau if is_number[c]]
    currency = 0
    if len(numbers) != len(tableau):
        state.discard.extend(c for c in tableau if _IS_CURRENCY[c])
        currency = tableau_currency(tableau)
    tableau.clear()
    return numbers, currency


def _gains_for_others(state: TenState, seat: int, currency: int) -> dict[str, int]:
    players = state.players
    tokens = state.currency
    cap = data.CURRENCY_CAP
    gains: dict[str, int] = {}
    for other in range(len(players)):
        if other != seat:
            before = tokens[other]
            after = before + currency
            if after > cap:
                after = cap
            tokens[other] = after
            gains[players[other]] = after - before
    return gains


def _bust(state: TenState, seat: int, player: PlayerId, kind: BustKind) -> list[Event]:
    state.bust[seat] += 1
    state.stats_busts += 1
    numbers, currency = _split_tableau(state)
    state.market.extend(numbers)
    gains: dict[str, int] = {}
    if kind is _NUMBER_BUST and currency:
        gains = _gains_for_others(state, seat, currency)
    event = Event(
        _BUST_EVENT,
        player,
        {
            "bust": kind,
            "to_market": [_NOTATION[c] for c in numbers],
            "currency": currency if kind is _NUMBER_BUST else 0,
            "gains": gains,
        },
    )
    return [event, *_end_turn(state)]


def _stop(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    assert isinstance(action, Stop)
    if not may_stop(bool(state.pile), bool(state.tableau)):
        raise IllegalAction("You must flip a card first: the row is empty.")
    numbers, currency = _split_tableau(state)
    notes = [_NOTATION[c] for c in numbers]
    if action.take is _NUMBERS:
        state.collections[seat].extend(numbers)
        gains = _gains_for_others(state, seat, currency)
        state.took_numbers = True
        state.phase = _BUY
        state.buyer = seat
        event = Event(
            _STOP_EVENT,
            player,
            {"take": _NUMBERS, "cards": notes, "currency": currency, "gains": gains},
        )
        return [event]
    gains = {player: gain(state, seat, currency)}
    state.market.extend(numbers)
    event = Event(
        _STOP_EVENT,
        player,
        {"take": _CURRENCY, "cards": notes, "currency": currency, "gains": gains},
    )
    return [event, *_end_turn(state)]


_NEXT_TURN_FIELDS = ("active", "turn", "took_numbers", "phase")


def _end_turn(state: TenState) -> list[Event]:
    players = state.players
    count = len(players)
    if state.final:
        active = state.active
        state.final_buys = True
        state.after_buy = [(active + i) % count for i in range(1, count + 1)]
        return _next_final_buy(state)
    active = state.active = (state.active + 1) % count
    turn = state.turn = state.turn + 1
    state.took_numbers = False
    state.phase = _DRAW_PHASE
    return [Event(_TURN_EVENT, players[active], {"turn": turn})]


# --- auction --------------------------------------------------------------------------------


def _start_auction(state: TenState, card: int) -> Event:
    count = len(state.players)
    active = state.active
    state.phase = _AUCTION
    state.auction_card = card
    state.bidders = [(active + i) % count for i in range(1, count + 1)]
    state.bid_index = 0
    state.high_bid = 0
    state.high_bidder = None
    state.stats_auctions += 1
    return Event(EventKind.AUCTION, None, {"card": _NOTATION[card]})


def _bid(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    assert isinstance(action, Bid)
    low, most = bid_range(state, seat)
    amount = action.amount
    if amount < low:
        raise IllegalAction(f"Bid at least {low}.")
    if amount > most:
        raise IllegalAction(f"You can bid at most {most} (your wealth).")
    state.high_bid = amount
    state.high_bidder = seat
    event = Event(_BID_EVENT, player, {"amount": amount})
    return _next_bidder(state, [event])


def _pass(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    return _next_bidder(state, [Event(_PASS_EVENT, player)])


def _next_bidder(state: TenState, events: list[Event]) -> list[Event]:
    """Moves the auction on after a bid or pass (``events``) and returns all events."""
    index = state.bid_index = state.bid_index + 1
    if index < len(state.bidders):
        return events
    card = state.auction_card
    assert card is not None
    note = _NOTATION[card]
    winner = state.high_bidder
    if winner is None:
        state.removed.append(card)
        events.append(Event(EventKind.UNSOLD, None, {"card": note}))
        _back_to_draw(state)
        return events
    price = state.high_bid
    events.append(Event(EventKind.WON, state.players[winner], {"card": note, "price": price}))
    options = legal_payments(state, winner, price, cards_allowed=False)
    state.phase = _PAY
    state.pay_for = _WILD
    state.pay_price = price
    if len(options) == 1:
        events.extend(_finish_wild(state, winner, options[0]))
    return events


def _finish_wild(state: TenState, seat: int, pay: Pay) -> list[Event]:
    card = state.auction_card
    assert card is not None
    execute_payment(state, seat, pay)
    state.collections[seat].append(card)
    event = Event(
        EventKind.PAID,
        state.players[seat],
        {"card": _NOTATION[card], "c": pay.c, "b": pay.b, "cards": ""},
    )
    _back_to_draw(state)
    return [event]


def _back_to_draw(state: TenState) -> None:
    state.phase = _DRAW_PHASE
    state.auction_card = None
    state.bidders = []
    state.bid_index = 0
    state.high_bid = 0
    state.high_bidder = None
    state.pay_for = None
    state.pay_price = 0


# --- payments and buying --------------------------------------------------------------------


def _pay(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    assert isinstance(action, Pay)
    by_cards = state.pay_for is _CARD
    price = state.pay_price
    if not is_listed_payment(
        state, seat, price, action, cards_allowed=by_cards
    ) and not is_valid_payment(state, seat, price, action, cards_allowed=by_cards):
        raise IllegalAction(payment_refusal(state, seat, price, action, cards_allowed=by_cards))
    if not by_cards:
        return _finish_wild(state, seat, action)
    card = state.pay_card
    assert card is not None
    spent = execute_payment(state, seat, action)
    state.market.remove(card)
    state.collections[seat].append(card)
    event = Event(
        EventKind.BOUGHT,
        player,
        {"card": _NOTATION[card], "c": action.c, "b": action.b, "cards": spent},
    )
    return [event, *_close_buy(state)]


def _open_buy(state: TenState, seat: int) -> list[Event]:
    """One of the final buy phases (spec section 4)."""
    state.phase = _BUY
    state.buyer = seat
    return [Event(EventKind.FINAL_BUY, state.players[seat])]


def _buy(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    assert isinstance(action, Buy)
    note = action.card
    buy = _BUYS.get(note)
    for option in buy_options(state, seat):
        if option is buy:
            break
    else:
        raise IllegalAction(_buy_refusal(state, seat, note))
    for card in state.market:  # the first market card of that notation
        if _NOTATION[card] == note:
            break
    state.phase = _PAY
    state.pay_for = _CARD
    state.pay_card = card
    state.pay_price = _NUMBER[card]
    return [Event(EventKind.CHOOSE, player, {"card": note})]


def _back(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    if not may_go_back(state):
        raise IllegalAction("You won the auction and must pay for the wild.")
    state.phase = _BUY
    state.pay_for = None
    state.pay_card = None
    state.pay_price = 0
    return [Event(EventKind.BACK, player)]


def _skip(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    return [Event(EventKind.SKIP, player), *_close_buy(state)]


def _close_buy(state: TenState) -> list[Event]:
    state.phase = _DRAW_PHASE
    state.buyer = None
    state.pay_for = None
    state.pay_card = None
    state.pay_price = 0
    if state.final_buys:
        return _next_final_buy(state)
    return _end_turn(state)


def _next_final_buy(state: TenState) -> list[Event]:
    if state.after_buy:
        return _open_buy(state, state.after_buy.pop(0))
    state.phase = _OVER
    state.final_buys = False
    return [Event(EventKind.OVER)]


# phase -> action class -> handler
_HANDLERS: dict[Phase, dict[type, _Handler]] = {
    Phase.DRAW: {Draw: _draw, Stop: _stop},
    Phase.AUCTION: {Bid: _bid, Pass: _pass},
    Phase.PAY: {Pay: _pay, Back: _back},
    Phase.BUY: {Buy: _buy, Skip: _skip},
    Phase.OVER: {},
}
_ACTION_CLASSES = frozenset(cls for handlers in _HANDLERS.values() for cls in handlers)
