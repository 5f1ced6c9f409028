"""The games' views are built without pydantic's validation, and a viewer's view is made
from another viewer's (``Engine.view_for``, issue 42): both must give exactly what the
validated build gave. The oracle below is the validated build as it was before (a copy of
``game/ten/view.py`` and ``game/split/view.py``, pydantic constructors and all); every
position of seeded games of both games, for every seat, a spectator and a stranger, and
``view_for`` from every one of those views to every other, is compared with it: equal models,
the same JSON, the same types and the same fields marked as set, all the way down."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from game.base import PlayerId
from game.registry import engines
from game.split.cards import CARD_NAMES, FACE_OF, LEVEL_NAMES, RANKS, face_level
from game.split.scoring import negative_value, rank_row_value
from game.split.state import ROUNDS, SplitState
from game.split.view import BONUS_OF_STEP, MatchView, SheetView, SplitView
from game.split.vocabulary import Step
from game.ten import cards, data, rules
from game.ten import view as ten_view
from game.ten.odds import running_total, tableau_currency
from game.ten.scoring import score_notes
from game.ten.state import TenState
from game.ten.view import AuctionView, MarketCard, PaymentView, PlayerView, RunView, TenView
from game.ten.vocabulary import PayFor, Phase

# ---- the oracle: the validated builds as they were ----


def validated_bust_chance(state: TenState) -> float:
    unseen = Counter(cards.deck_counts(len(state.players)))
    seen = [*state.tableau, *state.market, *state.discard, *state.removed]
    for collection in state.collections:
        seen.extend(collection)
    if state.auction_card is not None:
        seen.append(state.auction_card)
    unseen.subtract(cards.NOTATION[card] for card in seen)
    unseen = +unseen
    remaining = sum(unseen.values())
    if not remaining:
        return 0.0
    total = running_total(state.tableau)
    currency = tableau_currency(state.tableau)
    busting = 0
    for note, count in unseen.items():
        if note[0] == "$":
            if currency + int(note[1]) >= data.CURRENCY_BUST_AT:
                busting += count
        elif note[1] != "#" and note[0] != "W" and total + int(note[1]) >= data.NUMBER_BUST_AT:
            busting += count
    return busting / remaining


def _ten_market(state: TenState) -> dict[str, list[MarketCard]]:
    grouped: dict[str, dict[str, int]] = {colour: {} for colour in data.COLOURS}
    for card in state.market:
        note = cards.NOTATION[card]
        grouped[note[0]][note] = grouped[note[0]].get(note, 0) + 1
    return {
        colour: [
            MarketCard(card=note, price=int(note[1]), copies=n)
            for note, n in sorted(notes.items(), key=lambda item: cards.sort_key(item[0]))
        ]
        for colour, notes in grouped.items()
    }


def _ten_player(state: TenState, seat: int) -> PlayerView:
    notes = [cards.NOTATION[card] for card in state.collections[seat]]
    score = score_notes(notes)
    return PlayerView(
        player=state.players[seat],
        currency=state.currency[seat],
        bust_tokens=state.bust[seat],
        collection=sorted(notes, key=cards.sort_key),
        runs=[
            RunView(colour=r.colour, start=r.start, end=r.end, points=r.points, cards=list(r.cards))
            for r in score.runs
        ],
        wild_assignment=list(score.assignment),
        score=score.total,
    )


def validated_ten_view(state: TenState, viewer: PlayerId | None, waiting: int | None) -> TenView:
    auction = None
    if state.auction_card is not None:
        to_bid = state.bidders[state.bid_index] if state.phase == Phase.AUCTION else None
        auction = AuctionView(
            wild=cards.NOTATION[state.auction_card],
            high_bid=state.high_bid,
            high_bidder=None if state.high_bidder is None else state.players[state.high_bidder],
            to_bid=None if to_bid is None else state.players[to_bid],
            still_to_bid=[state.players[s] for s in state.bidders[state.bid_index :]]
            if state.phase == Phase.AUCTION
            else [],
        )
    payment = None
    if state.phase == Phase.PAY:
        payer = state.high_bidder if state.pay_for == PayFor.WILD else state.buyer
        card = state.auction_card if state.pay_for == PayFor.WILD else state.pay_card
        assert payer is not None and card is not None and state.pay_for is not None
        payment = PaymentView(
            payer=state.players[payer],
            paying_for=state.pay_for,
            card=cards.NOTATION[card],
            price=state.pay_price,
        )
    return TenView(
        viewer=viewer,
        phase=ten_view.phase_name(state),
        turn=state.turn,
        active=state.players[state.active],
        awaiting=None if waiting is None else state.players[waiting],
        pile_size=len(state.pile),
        last_card_flipped=state.final,
        tableau=[cards.NOTATION[card] for card in state.tableau],
        running_total=running_total(state.tableau),
        tableau_currency=tableau_currency(state.tableau),
        bust_chance=validated_bust_chance(state),
        market=_ten_market(state),
        players=[_ten_player(state, seat) for seat in range(len(state.players))],
        auction=auction,
        payment=payment,
        buyer=None if state.buyer is None else state.players[state.buyer],
        final_buys_left=[state.players[s] for s in state.after_buy],
        discard_count=len(state.discard),
        removed_count=len(state.removed),
    )


def _split_sheet(state: SplitState, seat: int) -> SheetView:
    boxes = state.boxes[seat]
    values = {RANKS[r]: rank_row_value(count) for r, count in enumerate(boxes)}
    rank_total = sum(values.values())
    negative = negative_value(state.negatives[seat])
    return SheetView(
        player=state.players[seat],
        boxes={RANKS[r]: count for r, count in enumerate(boxes)},
        row_values=values,
        rank_total=rank_total,
        negatives=state.negatives[seat],
        negative_value=negative,
        total=rank_total - negative,
    )


def _split_match_level(state: SplitState, match_id: int) -> int:
    halves = state.matches[match_id].halves
    return face_level(FACE_OF[halves[0]], FACE_OF[halves[1]])


def validated_split_view(state: SplitState, viewer: str | None) -> SplitView:
    players = state.players
    seat = players.index(viewer) if viewer in players else None
    hand = None
    if seat is not None:
        hand = [CARD_NAMES[card] for card in sorted(state.hands[seat])]
    in_turn = state.step not in (Step.LAYDOWN, Step.GAME_OVER)
    if state.step == Step.GAME_OVER:
        waiting: list[str] = []
    elif state.step == Step.LAYDOWN:
        waiting = [players[s] for s in state.laydown_waiting]
    else:
        waiting = [players[state.turn]]
    return SplitView(
        viewer=viewer if seat is not None else None,
        players=list(players),
        round=state.round,
        rounds=ROUNDS,
        step=state.step,
        dealer=players[state.dealer],
        turn=players[state.turn] if in_turn else None,
        awaiting=waiting,
        hand=hand,
        hand_counts={p: len(state.hands[s]) for s, p in enumerate(players)},
        pile_count=len(state.pile),
        row=[CARD_NAMES[card] for card in state.row],
        matches=[
            MatchView(
                id=i,
                owner=players[m.owner],
                level=LEVEL_NAMES[_split_match_level(state, i)],
                halves=[CARD_NAMES[c] for c in m.halves],
                covered=[CARD_NAMES[c] for c in m.covered],
            )
            for i, m in enumerate(state.matches)
        ],
        picked=None if state.picked is None else CARD_NAMES[state.picked],
        bonus=BONUS_OF_STEP[state.step],
        bonus_match=state.bonus_match,
        laydown_waiting=[players[s] for s in state.laydown_waiting],
        went_out=None if state.went_out is None else players[state.went_out],
        sheets=[_split_sheet(state, s) for s in range(len(players))],
        history=list(state.history),
    )


# ---- the comparison ----


def same(made: Any, oracle: Any, where: str = "view") -> None:
    """Equal, of the same types, with the same fields set, all the way down."""
    assert type(made) is type(oracle), where
    if isinstance(oracle, BaseModel):
        assert made.model_fields_set == oracle.model_fields_set, where
        assert made.__pydantic_extra__ == oracle.__pydantic_extra__, where
        assert list(made.__dict__) == list(oracle.__dict__), where
        for name, value in oracle.__dict__.items():
            same(made.__dict__[name], value, f"{where}.{name}")
    elif isinstance(oracle, dict):
        assert list(made) == list(oracle), where
        for key, value in oracle.items():
            same(made[key], value, f"{where}[{key!r}]")
    elif isinstance(oracle, list | tuple):
        assert len(made) == len(oracle), where
        for index, (mine, theirs) in enumerate(zip(made, oracle, strict=True)):
            same(mine, theirs, f"{where}[{index}]")
    else:
        assert made == oracle, where


def positions(key: str, players: int, seed: int) -> Iterator[Any]:
    """The state before every action of one seeded bot game, and its end."""
    engine = engines()[key]
    ids = [f"p{seat}" for seat in range(players)]
    state, _ = engine.new_game(ids, seed)
    rng = random.Random(seed)
    while not engine.is_over(state):
        yield engine.copy_state(state)
        player = engine.awaiting(state)[0]
        engine.apply(state, player, engine.bot_action(state, player, "normal", rng))
    yield state


ORACLES = {
    "ten": lambda state, viewer: validated_ten_view(state, viewer, rules.waiting_seat(state)),
    "split": validated_split_view,
}


@pytest.mark.parametrize(("key", "players", "seed"), [
    ("ten", 2, 1), ("ten", 3, 2), ("ten", 4, 3), ("ten", 5, 4),
    ("split", 2, 1), ("split", 3, 2), ("split", 4, 3),
])
def test_every_view_is_the_validated_one(key: str, players: int, seed: int) -> None:
    engine = engines()[key]
    viewers: list[PlayerId | None] = [None, "stranger", *(f"p{s}" for s in range(players))]
    count = 0
    for state in positions(key, players, seed):
        expected = {viewer: ORACLES[key](state, viewer) for viewer in viewers}
        built = {viewer: engine.view(state, viewer) for viewer in viewers}
        for viewer in viewers:
            same(built[viewer], expected[viewer], f"{key} view of {viewer}")
            assert built[viewer].model_dump_json() == expected[viewer].model_dump_json()
            for other in viewers:
                made = engine.view_for(state, built[other], viewer)
                same(made, expected[viewer], f"{key} view of {viewer} made from {other}'s")
        count += 1
    assert count > 20  # a whole game was compared
