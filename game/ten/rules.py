"""The TEN rules as transitions on ``TenState`` (spec sections 2-4). Seats are ints."""

from __future__ import annotations

from collections.abc import Sequence

from game.base import Event, IllegalAction, PlayerId, rng_for
from game.ten import cards, data
from game.ten.cards import Kind
from game.ten.odds import running_total, tableau_currency
from game.ten.payments import (
    execute_payment,
    payment_error,
    payment_options,
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

SOLO_NEEDS_BOT = (
    "TEN needs at least 2 seats: a solo game is played against a bot seat (spec section 6), "
    "so add a bot player id before starting."
)


def new_state(players: Sequence[PlayerId], seed: int) -> TenState:
    count = len(players)
    if count < data.MIN_SEATS:
        raise ValueError(SOLO_NEEDS_BOT)
    if count > data.MAX_SEATS:
        raise ValueError(f"TEN is for at most {data.MAX_SEATS} players.")
    if len(set(players)) != count:
        raise ValueError("Every player may sit only once.")
    pile = cards.deck_for(count)
    rng_for(seed, "ten", "deck").shuffle(pile)
    return TenState(
        players=list(players),
        seed=seed,
        pile=pile,
        collections=[[] for _ in players],
        currency=[data.START_CURRENCY] * count,
        bust=[0] * count,
        active=rng_for(seed, "ten", "first").randrange(count),
    )


def waiting_seat(state: TenState) -> int | None:
    phase = state.phase
    if phase == "draw":
        return state.active
    if phase == "auction":
        return state.bidders[state.bid_index]
    if phase == "pay":
        return state.high_bidder if state.pay_for == "wild" else state.buyer
    if phase == "buy":
        return state.buyer
    return None


def gain(state: TenState, seat: int, amount: int) -> int:
    """Add currency tokens up to the cap (spec 3.6); returns what was actually gained."""
    before = state.currency[seat]
    state.currency[seat] = min(data.CURRENCY_CAP, before + amount)
    return state.currency[seat] - before


def can_stop(state: TenState) -> bool:
    return not state.pile or bool(state.tableau)


def buy_error(state: TenState, seat: int, note: str) -> str | None:
    if note not in {cards.NOTATION[card] for card in state.market}:
        return f"There is no {note} in the market."
    return _buy_refusal(state, seat, note, {cards.NOTATION[c] for c in state.collections[seat]})


def _buy_refusal(state: TenState, seat: int, note: str, owned: set[str]) -> str | None:
    if note in owned:
        return f"You already own a {note}, so you cannot buy another."
    price = int(note[1])
    if wealth(state, seat) + len(state.collections[seat]) < price:
        return f"You cannot pay {price} for {note}."
    return None


# Actions are frozen models, so the legal lists share these instances.
_DRAW = Draw()
_STOPS: list[TenAction] = [Stop(take="numbers"), Stop(take="currency")]
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


def _bid_action(amount: int) -> Bid:
    action = _BIDS.get(amount)
    if action is None:
        action = _BIDS[amount] = Bid(amount=amount)
    return action


def legal(state: TenState, seat: int) -> list[TenAction]:
    if waiting_seat(state) != seat:
        return []
    phase = state.phase
    if phase == "draw":
        if not state.pile:
            return list(_STOPS)
        return [_DRAW, *_STOPS] if state.tableau else [_DRAW]
    if phase == "auction":
        low = max(state.high_bid + 1, data.MIN_FIRST_BID)
        return [_PASS, *(_bid_action(a) for a in range(low, wealth(state, seat) + 1))]
    if phase == "pay":
        options = payment_options(
            state,
            state.players[seat],
            state.pay_price,
            cards_allowed=state.pay_for == "card",
        )
        actions: list[TenAction] = [option.action() for option in options]
        return [*actions, _BACK] if state.pay_for == "card" else actions
    if phase == "buy":
        # The same filter as _buy_refusal, with the wealth counted once.
        notation = cards.NOTATION
        collection = state.collections[seat]
        owned = {notation[card] for card in collection}
        offered = {notation[card] for card in state.market}
        limit = wealth(state, seat) + len(collection)
        buys: list[TenAction] = [
            _BUYS[n]
            for n in _BUY_ORDER
            if n in offered and n not in owned and _BUY_PRICE[n] <= limit
        ]
        return [*buys, _SKIP]
    return []


def apply_action(state: TenState, seat: int, action: TenAction) -> list[Event]:
    waiting = waiting_seat(state)
    if waiting is None:
        raise IllegalAction("The game is over.")
    if waiting != seat:
        who = state.players[waiting]
        raise IllegalAction(f"It is not your move: the game waits for {who}.")
    player = state.players[seat]
    handler = _HANDLERS.get((state.phase, action.type))
    if handler is None:
        raise IllegalAction(_wrong_phase_text(state, action.type))
    return handler(state, seat, player, action)


def _wrong_phase_text(state: TenState, kind: str) -> str:
    what = {
        "draw": "draw or stop",
        "auction": "bid or pass",
        "pay": "choose a payment" + (" or go back" if state.pay_for == "card" else ""),
        "buy": "buy a market card or skip",
    }[state.phase]
    return f"You cannot {kind} now: {what}."


# --- draw phase -----------------------------------------------------------------------------


def _draw(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    if not state.pile:
        raise IllegalAction("The draw pile is empty: you must stop.")
    card = state.pile.pop()
    note = cards.NOTATION[card]
    if not state.pile:
        state.final = True
    if cards.IS_WILD[card]:
        events = [Event(kind="flip", actor=player, data={"card": note, "left": len(state.pile)})]
        return events + _start_auction(state, card)
    state.tableau.append(card)
    total = running_total(state.tableau)
    currency = tableau_currency(state.tableau)
    events = [
        Event(
            kind="flip",
            actor=player,
            data={"card": note, "total": total, "currency": currency, "left": len(state.pile)},
        )
    ]
    if cards.KIND[card] == Kind.NUMBER and total >= data.NUMBER_BUST_AT:
        return events + _bust(state, seat, player, "number")
    if cards.KIND[card] == Kind.CURRENCY and currency >= data.CURRENCY_BUST_AT:
        return events + _bust(state, seat, player, "currency")
    return events


def _split_tableau(state: TenState) -> tuple[list[int], int]:
    """Empties the tableau: returns its number cards; currency cards go to the discard."""
    numbers = [c for c in state.tableau if cards.KIND[c] == Kind.NUMBER]
    currency = tableau_currency(state.tableau)
    state.discard.extend(c for c in state.tableau if cards.KIND[c] == Kind.CURRENCY)
    state.tableau.clear()
    return numbers, currency


def _bust(state: TenState, seat: int, player: PlayerId, kind: str) -> list[Event]:
    state.bust[seat] += 1
    state.stats_busts += 1
    numbers, currency = _split_tableau(state)
    state.market.extend(numbers)
    gains: dict[str, int] = {}
    if kind == "number" and currency:
        for other in range(len(state.players)):
            if other != seat:
                gains[state.players[other]] = gain(state, other, currency)
    event = Event(
        kind="bust",
        actor=player,
        data={
            "bust": kind,
            "to_market": [cards.NOTATION[c] for c in numbers],
            "currency": currency if kind == "number" else 0,
            "gains": gains,
        },
    )
    return [event, *_end_turn(state)]


def _stop(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    assert isinstance(action, Stop)
    if not can_stop(state):
        raise IllegalAction("You must flip a card first: the row is empty.")
    numbers, currency = _split_tableau(state)
    notes = [cards.NOTATION[c] for c in numbers]
    gains: dict[str, int] = {}
    if action.take == "numbers":
        state.collections[seat].extend(numbers)
        for other in range(len(state.players)):
            if other != seat:
                gains[state.players[other]] = gain(state, other, currency)
        state.took_numbers = True
        event = Event(
            kind="stop",
            actor=player,
            data={"take": "numbers", "cards": notes, "currency": currency, "gains": gains},
        )
        return [event, *_open_buy(state, seat, extra=False)]
    gains[player] = gain(state, seat, currency)
    state.market.extend(numbers)
    event = Event(
        kind="stop",
        actor=player,
        data={"take": "currency", "cards": notes, "currency": currency, "gains": gains},
    )
    return [event, *_end_turn(state)]


def _end_turn(state: TenState) -> list[Event]:
    count = len(state.players)
    if state.final:
        state.final_buys = True
        state.after_buy = [(state.active + i) % count for i in range(1, count + 1)]
        return _next_final_buy(state)
    state.active = (state.active + 1) % count
    state.turn += 1
    state.took_numbers = False
    state.phase = "draw"
    return [Event(kind="turn", actor=state.players[state.active], data={"turn": state.turn})]


# --- auction --------------------------------------------------------------------------------


def _start_auction(state: TenState, card: int) -> list[Event]:
    count = len(state.players)
    state.phase = "auction"
    state.auction_card = card
    state.bidders = [(state.active + i) % count for i in range(1, count + 1)]
    state.bid_index = 0
    state.high_bid = 0
    state.high_bidder = None
    state.stats_auctions += 1
    return [Event(kind="auction", data={"card": cards.NOTATION[card]})]


def _bid(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    assert isinstance(action, Bid)
    low = max(state.high_bid + 1, data.MIN_FIRST_BID)
    if action.amount < low:
        raise IllegalAction(f"Bid at least {low}.")
    if action.amount > wealth(state, seat):
        raise IllegalAction(f"You can bid at most {wealth(state, seat)} (your wealth).")
    state.high_bid = action.amount
    state.high_bidder = seat
    events = [Event(kind="bid", actor=player, data={"amount": action.amount})]
    return events + _next_bidder(state)


def _pass(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    return [Event(kind="pass", actor=player), *_next_bidder(state)]


def _next_bidder(state: TenState) -> list[Event]:
    state.bid_index += 1
    if state.bid_index < len(state.bidders):
        return []
    card = state.auction_card
    assert card is not None
    note = cards.NOTATION[card]
    winner = state.high_bidder
    if winner is None:
        state.removed.append(card)
        return [Event(kind="unsold", data={"card": note}), *_back_to_draw(state)]
    events = [
        Event(kind="won", actor=state.players[winner], data={"card": note, "price": state.high_bid})
    ]
    options = payment_options(state, state.players[winner], state.high_bid, cards_allowed=False)
    state.phase = "pay"
    state.pay_for = "wild"
    state.pay_price = state.high_bid
    if len(options) == 1:
        return events + _finish_wild(state, winner, options[0].action())
    return events


def _finish_wild(state: TenState, seat: int, pay: Pay) -> list[Event]:
    card = state.auction_card
    assert card is not None
    execute_payment(state, seat, pay)
    state.collections[seat].append(card)
    event = Event(
        kind="paid",
        actor=state.players[seat],
        data={"card": cards.NOTATION[card], "c": pay.c, "b": pay.b, "cards": ""},
    )
    return [event, *_back_to_draw(state)]


def _back_to_draw(state: TenState) -> list[Event]:
    state.phase = "draw"
    state.auction_card = None
    state.bidders = []
    state.bid_index = 0
    state.high_bid = 0
    state.high_bidder = None
    state.pay_for = None
    state.pay_price = 0
    return []


# --- payments and buying --------------------------------------------------------------------


def _pay(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    assert isinstance(action, Pay)
    by_cards = state.pay_for == "card"
    error = payment_error(state, seat, state.pay_price, action, cards_allowed=by_cards)
    if error:
        raise IllegalAction(error)
    if not by_cards:
        return _finish_wild(state, seat, action)
    card = state.pay_card
    assert card is not None
    spent = execute_payment(state, seat, action)
    state.market.remove(card)
    state.collections[seat].append(card)
    event = Event(
        kind="bought",
        actor=player,
        data={"card": cards.NOTATION[card], "c": action.c, "b": action.b, "cards": spent},
    )
    return [event, *_close_buy(state)]


def _open_buy(state: TenState, seat: int, *, extra: bool) -> list[Event]:
    state.phase = "buy"
    state.buyer = seat
    if extra:
        return [Event(kind="final_buy", actor=state.players[seat])]
    return []


def _buy(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    assert isinstance(action, Buy)
    error = buy_error(state, seat, action.card)
    if error:
        raise IllegalAction(error)
    state.phase = "pay"
    state.pay_for = "card"
    state.pay_card = next(c for c in state.market if cards.NOTATION[c] == action.card)
    state.pay_price = cards.NUMBER[state.pay_card]
    return [Event(kind="choose", actor=player, data={"card": action.card})]


def _back(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    if state.pay_for != "card":
        raise IllegalAction("You won the auction and must pay for the wild.")
    state.phase = "buy"
    state.pay_for = None
    state.pay_card = None
    state.pay_price = 0
    return [Event(kind="back", actor=player)]


def _skip(state: TenState, seat: int, player: PlayerId, action: TenAction) -> list[Event]:
    return [Event(kind="skip", actor=player), *_close_buy(state)]


def _close_buy(state: TenState) -> list[Event]:
    state.phase = "draw"
    state.buyer = None
    state.pay_for = None
    state.pay_card = None
    state.pay_price = 0
    if state.final_buys:
        return _next_final_buy(state)
    return _end_turn(state)


def _next_final_buy(state: TenState) -> list[Event]:
    if state.after_buy:
        return _open_buy(state, state.after_buy.pop(0), extra=True)
    state.phase = "over"
    state.final_buys = False
    return [Event(kind="over")]


_HANDLERS = {
    ("draw", "draw"): _draw,
    ("draw", "stop"): _stop,
    ("auction", "bid"): _bid,
    ("auction", "pass"): _pass,
    ("pay", "pay"): _pay,
    ("pay", "back"): _back,
    ("buy", "buy"): _buy,
    ("buy", "skip"): _skip,
}
