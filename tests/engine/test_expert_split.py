"""The expert SPLIT seat: the event-free fast path, the hidden-part sampler, no peeking."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from game.search import Iterations
from game.split import SplitEngine, rules
from game.split.actions import Discard, Draw, MakeMatch, Pick
from game.split.cards import FACE_OF, parse_face
from game.split.expert import MARGIN_WEIGHT, expert_action, outcome_value
from game.split.greedy import greedy_action
from game.split.hidden import known_faces, sample_hidden, visible_cards
from game.split.invariants import check_invariants
from game.split.rollout import step, to_move
from game.split.state import SplitState, copy_state
from game.split.vocabulary import Step
from tests.engine.split_helpers import make_state

ENGINE = SplitEngine()


def _dump(state: SplitState) -> dict[str, object]:
    return state.model_dump(mode="json")


def _mid_game_states(games: int, players: int, every: int = 9) -> list[SplitState]:
    """States met in greedy/random games, every ``every`` moves, a turn player to decide."""
    found = []
    for seed in range(games):
        state, _ = rules.new_game([f"p{i}" for i in range(players)], seed)
        rng = random.Random(seed)
        moves = 0
        while state.step != Step.GAME_OVER:
            seat = to_move(state)
            if moves % every == every - 1:
                found.append(copy_state(state))
            legal = rules.legal_actions(state, seat)
            action = rng.choice(legal) if rng.random() < 0.3 else greedy_action(state, seat)
            rules.apply(state, seat, action)
            moves += 1
    return found


@pytest.mark.parametrize("players", [2, 3, 5])
def test_fast_step_leaves_the_state_rules_apply_leaves(players: int) -> None:
    fast_moves = 0
    for seed in range(12):
        slow, _ = rules.new_game([f"p{i}" for i in range(players)], seed)
        fast = copy_state(slow)
        rng = random.Random(seed)
        while slow.step != Step.GAME_OVER:
            seat = to_move(slow)
            legal = rules.legal_actions(slow, seat)
            action = rng.choice(legal) if rng.random() < 0.5 else greedy_action(slow, seat)
            fast_moves += isinstance(action, Draw | Discard)
            rules.apply(slow, seat, action)
            step(fast, seat, action)
            assert _dump(fast) == _dump(slow)
    assert fast_moves > 500  # the fast branches were taken, not only the fallback


def test_a_pick_makes_the_taken_faces_known_until_played() -> None:
    state = make_state(["9♣ 4♦ 4♣ J♥ Q♠", "2♠ 3♠ 5♠ 6♠ 8♠"], row="3♣ K♦ 9♠ 2♥", step="take", turn=0)
    state.known = [[], []]
    rules.apply(state, 0, Pick(card="9♠"))
    assert sorted(known_faces(state, 0)) == sorted([parse_face("9♠"), parse_face("2♥")])
    rules.apply(state, 0, MakeMatch(a="9♣", b="9♠"))
    assert known_faces(state, 0) == [parse_face("2♥")]


def test_a_new_deal_forgets_what_was_known() -> None:
    state, _ = rules.new_game(["a", "b"], 3)
    state.known[1] = [5]
    rules.deal(state)
    assert state.known == [[], []]


@pytest.mark.parametrize("players", [2, 4])
def test_sampled_worlds_keep_everything_the_seat_sees(players: int) -> None:
    for state in _mid_game_states(6, players):
        seat = to_move(state)
        world = sample_hidden(state, seat, random.Random(7))
        check_invariants(world)
        assert world.hands[seat] == state.hands[seat]
        assert world.row == state.row and world.matches == state.matches
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert len(world.pile) == len(state.pile)
        assert visible_cards(world, seat) == visible_cards(state, seat)
        for other in range(players):
            held = Counter(FACE_OF[card] for card in world.hands[other])
            assert not Counter(known_faces(state, other)) - held


def test_sampled_worlds_vary_the_hidden_part() -> None:
    state, _ = rules.new_game(["a", "b", "c"], 5)
    worlds = [sample_hidden(state, 0, random.Random(k)) for k in range(5)]
    assert len({tuple(w.pile) for w in worlds}) == 5
    assert len({tuple(w.hands[1]) for w in worlds}) == 5
    assert all(w.seed != state.seed for w in worlds)


def _redeal(state: SplitState, seat: int, rng: random.Random) -> SplitState:
    """The real hidden part dealt afresh: known faces stay with their holder; the rest of the
    other hands and the pile are shuffled among themselves. A new seed too."""
    other = copy_state(state)
    pool = list(state.pile)
    kept: dict[int, list[int]] = {}
    for s in range(len(state.players)):
        if s == seat:
            continue
        hand = list(state.hands[s])
        kept[s] = []
        for face in known_faces(state, s):
            card = next(c for c in hand if FACE_OF[c] == face)
            hand.remove(card)
            kept[s].append(card)
        pool += hand
    rng.shuffle(pool)
    for s, cards in kept.items():
        free = len(state.hands[s]) - len(cards)
        other.hands[s] = cards + pool[:free]
        rng.shuffle(other.hands[s])
        del pool[:free]
    other.pile = pool
    other.seed = rng.getrandbits(60)
    check_invariants(other)
    return other


@pytest.mark.parametrize("players", [2, 3])
def test_the_expert_does_not_peek(players: int) -> None:
    states = _mid_game_states(4, players, every=5)
    decisions = 0
    for index, state in enumerate(states):
        seat = to_move(state)
        if len(rules.legal_actions(state, seat)) < 2:
            continue
        decisions += 1
        budget = Iterations(16)
        choice = expert_action(state, seat, random.Random(index), budget)
        for k in range(2):
            redealt = _redeal(state, seat, random.Random(1000 * index + k))
            assert redealt.hands != state.hands or redealt.pile != state.pile
            assert expert_action(redealt, seat, random.Random(index), budget) == choice
    assert decisions > 20


def test_expert_level_plays_legal_moves_through_the_engine() -> None:
    state, _ = ENGINE.new_game(["a", "b"], 9)
    for move in range(60):
        player = ENGINE.awaiting(state)[0]
        action = ENGINE.bot_action(state, player, "expert", random.Random(move))
        assert action in ENGINE.legal_actions(state, player)
        ENGINE.apply(state, player, action)
        if ENGINE.is_over(state):
            break


def test_expert_is_reproducible_from_its_rng() -> None:
    state = _mid_game_states(1, 2, every=4)[3]
    seat = to_move(state)
    first = expert_action(state, seat, random.Random(5), Iterations(30))
    assert expert_action(copy_state(state), seat, random.Random(5), Iterations(30)) == first


def _sheets(state: SplitState, tops: Sequence[int]) -> SplitState:
    """``state`` where seat i has ``tops[i]`` boxes in the ace row (worth 0, 1, 3, 6, 10 ...
    points) and nothing else on its sheet."""
    for seat, boxes in enumerate(tops):
        state.boxes[seat] = [boxes] + [0] * 12
        state.negatives[seat] = 0
    return state


@pytest.mark.parametrize(
    ("tops", "expected"),
    [
        ((4, 3), 1.0 + MARGIN_WEIGHT * (10 - 6)),  # a win
        ((3, 4), 0.0 + MARGIN_WEIGHT * (6 - 10)),  # a loss
        ((3, 3), 0.5),  # a two-way tie for first shares the win
        ((3, 3, 3, 1), 1 / 3),  # a three-way tie: a third of it
        ((3, 4, 4, 1), 0.0 + MARGIN_WEIGHT * (6 - 10)),  # others tie above: no share
    ],
)
def test_expert_values_the_last_round_by_its_share_of_the_win(
    tops: tuple[int, ...], expected: float
) -> None:
    state = _sheets(make_state(["" for _ in tops], round=3), tops)
    state.step = Step.GAME_OVER
    assert outcome_value(state, 0) == pytest.approx(expected)


def test_expert_values_an_earlier_round_by_its_margin() -> None:
    state = _sheets(make_state(["", "", ""], round=1), (4, 3, 2))
    state.step = Step.TAKE  # the next round is dealt: the game goes on
    assert outcome_value(state, 0) == 10 - 6
    assert outcome_value(state, 2) == 3 - 10
