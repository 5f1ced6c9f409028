"""SPLIT rules, one group per spec section (shared/rules/SPLIT.md sections 1-8)."""

from __future__ import annotations

import random

import pytest

from game.base import IllegalAction
from game.split import SplitEngine, Step
from game.split.actions import (
    BonusDraw,
    Discard,
    Done,
    Draw,
    LayMatch,
    MakeMatch,
    Pick,
    Skip,
    Swap,
    Target,
    Upgrade,
)
from game.split.cards import DECK_SIZE, FACE_NAMES, canonical, level, name, parse_face
from game.split.invariants import check_invariants
from game.split.scoring import negative_value, rank_row_value, sheet_score
from tests.engine.split_helpers import make_state, names

E = SplitEngine()


def refused(state, player, action, text: str) -> None:
    with pytest.raises(IllegalAction, match=text):
        E.apply(state, player, action)


# ---------------------------------------------------------------- 1. Cards


def test_s1_deck_has_104_halves_two_of_each_card() -> None:
    faces = [name(card) for card in range(DECK_SIZE)]
    assert len(faces) == 104
    assert len(set(faces)) == 52
    assert all(faces.count(face) == 2 for face in set(faces))


def test_s1_notation_and_ascii_input() -> None:
    assert [FACE_NAMES[parse_face(t)] for t in ("7H", "10S", "QD", "ac", "T♣")] == [
        "7♥",
        "10♠",
        "Q♦",
        "A♣",
        "10♣",
    ]
    assert canonical("K♦") == "K♦"
    with pytest.raises(ValueError, match="not a card"):
        parse_face("11H")


def test_s1_colours_black_spades_clubs_red_hearts_diamonds() -> None:
    spade, club, heart, diamond = (parse_face(t) * 2 for t in ("5S", "5C", "5H", "5D"))
    assert level(spade, club) == 2 and level(heart, diamond) == 2
    assert level(spade, heart) == 1 and level(club, diamond) == 1


# ---------------------------------------------------------------- 2. Matches


def test_s2_match_levels_perfect_strong_weak() -> None:
    state = make_state(["7H 7H 7D 7S 8H 2C 3C", "4C"])
    events = E.apply(state, "ana", MakeMatch(a="7♥", b="7♥"))
    assert events[0].data["level"] == "perfect"


def test_s2_different_ranks_never_match() -> None:
    state = make_state(["7H 8H 2C", "4C"])
    refused(state, "ana", MakeMatch(a="7H", b="8H"), "7♥ and 8♥ are different ranks")


def test_s2_need_both_halves_in_hand() -> None:
    state = make_state(["7H 2C 3C", "4C"])
    refused(state, "ana", MakeMatch(a="7H", b="7H"), "You hold only one 7♥")
    refused(state, "ana", MakeMatch(a="7H", b="7D"), "You do not hold 7♦")


# ---------------------------------------------------------------- 3. Setup


def test_s3_deal_nine_each_one_card_in_row_rest_in_pile() -> None:
    for count in range(2, 7):
        state, _ = E.new_game([f"p{i}" for i in range(count)], seed=count)
        assert [len(hand) for hand in state.hands] == [9] * count
        assert len(state.row) == 1
        assert len(state.pile) == 104 - 9 * count - 1
        check_invariants(state)


def test_s3_player_left_of_dealer_goes_first_and_dealer_is_random() -> None:
    dealers = set()
    for seed in range(30):
        state, _ = E.new_game(["a", "b", "c", "d"], seed=seed)
        assert state.turn == (state.dealer + 1) % 4
        assert state.step == "take"
        dealers.add(state.dealer)
    assert dealers == {0, 1, 2, 3}


def test_s3_same_seed_same_deal() -> None:
    assert E.new_game(["a", "b"], seed=5) == E.new_game(["a", "b"], seed=5)
    assert E.new_game(["a", "b"], seed=5)[0].hands != E.new_game(["a", "b"], seed=6)[0].hands


def test_s3_new_game_returns_round_one_start() -> None:
    state, events = E.new_game(["a", "b", "c"], seed=7)
    assert [event.kind for event in events] == ["round_start"]
    (start,) = events
    assert start.data == {
        "round": 1,
        "dealer": state.players[state.dealer],
        "first": state.players[state.turn],
        "row": [name(state.row[0])],
        "pile": len(state.pile),
    }
    words = E.describe(start, None, {"a": "Ana", "b": "Ben", "c": "Cy"})
    assert words.startswith("Round 1: ") and name(state.row[0]) in words


# ---------------------------------------------------------------- 4. A turn


def test_s4_draw_takes_top_card_into_hand() -> None:
    state = make_state(["2C 3C", "4C"], step="take", pile="9D 5H")
    events = E.apply(state, "ana", Draw())
    assert names(state.hands[0]) == ["2♣", "3♣", "5♥"]
    assert state.step == "main"
    assert events[0].visible_to("ana")["card"] == "5♥"
    assert "card" not in events[0].visible_to("ben")


def test_s4_pick_takes_the_card_and_every_newer_card() -> None:
    state = make_state(["9C 4D", "4C"], step="take", row="3C KD 9S 2H")
    E.apply(state, "ana", Pick(card="9S"))
    assert names(state.row) == ["3♣", "K♦"]
    assert names(state.hands[0]) == ["2♥", "4♦", "9♠", "9♣"]
    assert state.picked is not None and name(state.picked) == "9♠"


def test_s4_pick_refused_when_picked_card_unusable() -> None:
    state = make_state(["9C 4D", "4C"], step="take", row="3C KD 9S 2H")
    refused(state, "ana", Pick(card="KD"), "You may not pick K♦")
    assert [a.pos for a in E.legal_actions(state, "ana") if isinstance(a, Pick)] == [2]


def test_s4_pick_refused_when_no_card_would_be_left_to_discard() -> None:
    # Matching 9♠ with 9♣ would leave nothing to discard.
    state = make_state(["9C", "4C"], step="take", row="3C 9S")
    refused(state, "ana", Pick(card="9S"), "leaves you a card to discard")
    # Taking one more card along leaves a card to discard: the older 9 is allowed.
    state = make_state(["9C", "4C"], step="take", row="9S 3C")
    E.apply(state, "ana", Pick(card="9S"))


def test_s4_pick_without_position_takes_the_newest_copy_that_may_be_picked() -> None:
    # Newest 9♠ alone leaves no card to discard after 9♠+9♣; the older copy takes 4♣ along.
    state = make_state(["9C", "4C"], step="take", row="9S 4C 9S")
    E.apply(state, "ana", Pick(card="9S"))
    assert names(state.row) == []
    assert sorted(names(state.hands[0])) == ["4♣", "9♠", "9♠", "9♣"]


def test_s4_pick_allowed_for_an_upgrade() -> None:
    state = make_state(["2C", "4C"], step="take", row="9S", matches=[(1, "9H 9C", "")])
    E.apply(state, "ana", Pick(card="9S"))
    E.apply(state, "ana", Upgrade(match=0, card="9S", replace="9H"))
    assert state.picked is None
    assert state.matches[0].owner == 0


def test_s4_discard_refused_until_picked_card_used() -> None:
    state = make_state(["9C 4D 4C", "4H"], step="take", row="9S")
    E.apply(state, "ana", Pick(card="9S"))
    refused(state, "ana", Discard(card="4D"), "You must use the 9♠ you picked before discarding")
    assert not any(isinstance(a, Discard) for a in E.legal_actions(state, "ana"))


def test_s4_play_leaving_picked_card_unusable_refused() -> None:
    state = make_state(["9D 5C 5S", "4H"], step="take", row="9H")
    E.apply(state, "ana", Pick(card="9H"))
    refused(state, "ana", MakeMatch(a="5C", b="5S"), "leave the 9♥ you picked unusable")
    assert MakeMatch(a="5♣", b="5♠") not in E.legal_actions(state, "ana")


def test_s4_identical_copy_counts_as_using_picked_card() -> None:
    state = make_state(["9H 9D 9S 2C", "4H"], step="take", row="9H")
    E.apply(state, "ana", Pick(card="9H"))
    E.apply(state, "ana", MakeMatch(a="9H", b="9D"))
    assert state.picked is None


def test_s4_last_card_drawn_ends_round_at_once() -> None:
    state = make_state(["2C 3C", "4C 5C"], step="take", pile="9D", dealer=1)
    events = E.apply(state, "ana", Draw())
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["draw", "round_end", "round_start"]
    assert state.history[0].ended_by == "pile"
    assert state.negatives == [3, 2]


def test_s4_upgrade_takes_ownership_and_covers_replaced_half() -> None:
    state = make_state(["7D 2C", "4C"], matches=[(1, "7H 7S", "")])
    E.apply(state, "ana", Upgrade(match=0, card="7D", replace="7S"))
    match = state.matches[0]
    assert match.owner == 0
    assert names(match.halves) == ["7♥", "7♦"]
    assert names(match.covered) == ["7♠"]
    assert state.step == "bonus_strong"


def test_s4_upgrader_chooses_which_half_is_replaced() -> None:
    # Weak 7♥|7♠: 7♦ for 7♠ makes 7♥|7♦ strong; 7♣ for 7♥ makes 7♣|7♠ strong.
    for card, replace, kept in (("7D", "7S", "7♥"), ("7C", "7H", "7♠")):
        state = make_state(["7D 7C 2C", "4C"], matches=[(1, "7H 7S", "")])
        upgrade = Upgrade(match=0, card=card, replace=replace)
        assert upgrade in E.legal_actions(state, "ana")
        E.apply(state, "ana", upgrade)
        match = state.matches[0]
        assert names(match.covered) == [canonical(replace)]
        assert sorted(names(match.halves)) == sorted([kept, canonical(card)])
        assert match.owner == 0
        check_invariants(state)
    state = make_state(["7D 7C 2C", "4C"], matches=[(1, "7H 7S", "")])
    refused(state, "ana", Upgrade(match=0, card="7D", replace="7H"), "would not make")
    refused(state, "ana", Upgrade(match=0, card="7C", replace="7S"), "would not make")


def test_s4_upgrade_must_be_strictly_stronger() -> None:
    state = make_state(["7C 7D 2C 3C", "4C"], matches=[(1, "7H 7S", ""), (1, "7D 7H", "")])
    refused(state, "ana", Upgrade(match=0, card="7C", replace="7S"), "would not make")
    refused(state, "ana", Upgrade(match=1, card="7C", replace="7H"), "would not make")
    refused(state, "ana", Upgrade(match=0, card="8C", replace="7S"), "different ranks")
    refused(state, "ana", Upgrade(match=0, card="7C", replace="7D"), "not a half")
    E.apply(state, "ana", Upgrade(match=0, card="7C", replace="7H"))  # 7♣|7♠ strong
    assert names(state.matches[0].halves) == ["7♠", "7♣"]


def test_s4_upgrade_own_match_allowed() -> None:
    state = make_state(["7H 2C 3C", "4C"], matches=[(0, "7H 7D", "")], pile="2D 3D")
    E.apply(state, "ana", Upgrade(match=0, card="7H", replace="7D"))
    assert state.step == "bonus_perfect" or state.negatives[1] == 1


def test_s4_keep_a_card_for_the_discard() -> None:
    state = make_state(["5C 5S", "4C"])
    refused(state, "ana", MakeMatch(a="5C", b="5S"), "keep a card to discard")
    state = make_state(["7D", "4C"], matches=[(1, "7H 7S", "")])
    refused(state, "ana", Upgrade(match=0, card="7D", replace="7S"), "keep a card")
    assert E.legal_actions(state, "ana") == [Discard(card="7♦")]


def test_s4_discard_is_mandatory_and_ends_the_turn() -> None:
    state = make_state(["5C 6S", "4C"])
    refused(state, "ana", Draw(), "already taken a card")
    E.apply(state, "ana", Discard(card="6S"))
    assert state.turn == 1 and state.step == "take"
    assert names(state.row) == ["6♠"]


def test_s4_going_out_by_the_discard_ends_the_round() -> None:
    state = make_state(["5C", "4C 4D 9H"], turns_started=[2, 1], dealer=1)
    E.apply(state, "ana", Discard(card="5C"))
    assert state.history[0].ended_by == "out"
    assert state.history[0].out == "ana"
    assert state.round == 2 and state.dealer == 0


def test_s4_take_step_is_required_first() -> None:
    state = make_state(["5C 6S", "4C"], step="take")
    refused(state, "ana", Discard(card="5C"), "Take a card first")
    refused(state, "ben", Draw(), "not your turn")


# ---------------------------------------------------------------- 5. Bonus actions


def test_s5_perfect_bonus_target_choice_with_three_players() -> None:
    state = make_state(["7H 7H 2C", "4C", "5C"])
    E.apply(state, "ana", MakeMatch(a="7H", b="7H"))
    assert state.step == "bonus_perfect"
    assert E.legal_actions(state, "ana") == [Target(player="ben"), Target(player="cy")]
    refused(state, "ana", Target(player="ana"), "another player")
    refused(state, "ana", MakeMatch(a="2C", b="2C"), "perfect bonus first")
    E.apply(state, "ana", Target(player="cy"))
    assert state.negatives == [0, 0, 1]
    assert state.step == "main"


def test_s5_perfect_bonus_automatic_with_two_players() -> None:
    state = make_state(["7H 7H 2C", "4C"])
    events = E.apply(state, "ana", MakeMatch(a="7H", b="7H"))
    assert state.negatives == [0, 1]
    assert state.step == "main"
    assert events[-1].kind == "mark" and events[-1].data["automatic"]


def test_s5_strong_bonus_draw_is_optional() -> None:
    state = make_state(["7H 7D 2C", "4C"], pile="3D 9S")
    E.apply(state, "ana", MakeMatch(a="7H", b="7D"))
    assert E.legal_actions(state, "ana") == [BonusDraw(), Skip()]
    E.apply(state, "ana", Skip())
    assert state.step == "main" and len(state.pile) == 2
    state = make_state(["7H 7D 2C", "4C"], pile="3D 9S")
    E.apply(state, "ana", MakeMatch(a="7H", b="7D"))
    E.apply(state, "ana", BonusDraw())
    assert names(state.hands[0]) == ["2♣", "9♠"]


def test_s5_strong_bonus_drawing_last_card_ends_round() -> None:
    state = make_state(["7H 7D 2C", "4C"], pile="9S")
    E.apply(state, "ana", MakeMatch(a="7H", b="7D"))
    E.apply(state, "ana", BonusDraw())
    assert state.history[0].ended_by == "pile"
    assert state.history[0].players[0].hand_marks == 2


def test_s5_weak_bonus_swaps_same_level_matches_with_covered_halves() -> None:
    state = make_state(
        ["7H 7S 2C", "4C"],
        matches=[(1, "KH KC", ""), (1, "QH QD", "QS"), (1, "JH JS", "JD")],
    )
    E.apply(state, "ana", MakeMatch(a="7H", b="7S"))
    assert state.step == "bonus_weak"
    assert E.legal_actions(state, "ana") == [Swap(mine=3, theirs=0), Swap(mine=3, theirs=2), Skip()]
    refused(state, "ana", Swap(mine=3, theirs=1), "weak match swaps only for another weak")
    refused(state, "ana", Swap(mine=0, theirs=3), "not your match")
    E.apply(state, "ana", Swap(mine=3, theirs=2))
    assert state.matches[2].owner == 0 and state.matches[3].owner == 1
    assert names(state.matches[2].covered) == ["J♦"]  # covered half moves with the match


def test_s5_weak_bonus_skipped_without_a_pair() -> None:
    state = make_state(["7H 7S 2C", "4C"], matches=[(1, "KH KD", "")])
    events = E.apply(state, "ana", MakeMatch(a="7H", b="7S"))
    assert state.step == "main"
    assert events[-1].kind == "no_swap"


def test_s5_upgrade_resolves_bonus_of_new_level() -> None:
    state = make_state(["7H 2C", "4C", "5C"], matches=[(1, "7H 7D", "")])
    events = E.apply(state, "ana", Upgrade(match=0, card="7H", replace="7D"))
    assert state.matches[0].owner == 0 and events[0].data["from_owner"] == "ben"
    assert state.step == "bonus_perfect" and state.bonus_match == 0
    assert E.legal_actions(state, "ana") == [Target(player="ben"), Target(player="cy")]
    events = E.apply(state, "ana", Target(player="ben"))  # the former owner may be chosen
    assert events[-1].kind == "mark" and events[-1].data["target"] == "ben"
    assert state.negatives == [0, 1, 0] and state.round_marks == [0, 1, 0]
    assert state.step == "main" and state.bonus_match is None


def test_s5_marks_and_boxes_carry_into_next_round() -> None:
    state = make_state(["7H 7H 5C", "4C 9H", "3C"], turns_started=[2, 1, 1], dealer=2)
    state.boxes[1][12] = 2  # two K boxes and
    state.negatives = [1, 2, 0]  # some negatives from earlier play
    E.apply(state, "ana", MakeMatch(a="7H", b="7H"))
    E.apply(state, "ana", Target(player="cy"))
    E.apply(state, "ana", Discard(card="5C"))
    assert state.round == 2 and state.step == "take" and state.matches == []
    assert state.boxes[0][6] == 1 and state.boxes[1][12] == 2
    assert state.negatives == [1, 4, 2]  # earlier + hand cards + the perfect-bonus mark
    assert state.round_marks == [0, 0, 0]  # the per-round record restarts ...
    assert state.history[0].players[2].bonus_marks == 1  # ... the mark itself stays
    assert E.view(state, None).sheets[1].negatives == 4
    sheets = ([list(b) for b in state.boxes], list(state.negatives))
    rng = random.Random(3)
    while state.round == 2:
        player = E.awaiting(state)[0]
        E.apply(state, player, E.bot_action(state, player, "normal", rng))
    for seat in range(3):  # a further round only adds boxes and marks
        assert all(n >= m for n, m in zip(state.boxes[seat], sheets[0][seat], strict=True))
        assert state.negatives[seat] >= sheets[1][seat]
    added = sum(p.hand_marks + p.bonus_marks for p in state.history[1].players)
    assert sum(state.negatives) == sum(sheets[1]) + added


# ---------------------------------------------------------------- 6. End of a round


def test_s6_round_scoring_boxes_for_matches_and_negatives_for_hand() -> None:
    state = make_state(
        ["5C", "4C 4D 9H"],
        matches=[(0, "7H 7S", ""), (0, "7C 7D", ""), (1, "KH KD", "KS")],
        turns_started=[2, 1],
    )
    E.apply(state, "ana", Discard(card="5C"))
    assert state.boxes[0][6] == 2 and state.boxes[1][12] == 1
    assert state.negatives == [0, 3]
    summary = state.history[0]
    assert summary.players[0].boxes == {"7": 2} and summary.players[0].gained == 3
    assert summary.players[1].hand_marks == 3 and summary.players[1].gained == 1 - 3


def test_s6_goer_out_deals_next_round_pile_out_passes_left() -> None:
    state = make_state(["5C", "4C", "9H"], turn=1, turns_started=[1, 2, 1], dealer=2)
    E.apply(state, "ben", Discard(card="4C"))
    assert state.dealer == 1 and state.turn == 2
    state = make_state(["2C 3C", "4C", "5C"], step="take", pile="9D", dealer=2)
    E.apply(state, "ana", Draw())
    assert state.dealer == 0


def test_s6_next_round_deals_all_cards_again_and_clears_table() -> None:
    state = make_state(["5C", "4C"], matches=[(0, "7H 7S", "")], turns_started=[2, 1])
    E.apply(state, "ana", Discard(card="5C"))
    assert state.matches == [] and state.picked is None
    assert [len(h) for h in state.hands] == [9, 9] and len(state.row) == 1
    check_invariants(state)


def test_s6_first_turn_out_lets_players_without_a_turn_lay_down() -> None:
    # Four players: di deals, ana went first, ben goes out on his first turn.
    state = make_state(
        ["2C", "5C", "7H 7S 7D 8C", "9H 9S"], turn=1, turns_started=[1, 1, 0, 0], dealer=3
    )
    E.apply(state, "ben", Discard(card="5C"))
    assert state.step == "laydown"
    assert E.awaiting(state) == ["cy", "di"]
    assert E.legal_actions(state, "ana") == []
    E.apply(state, "di", LayMatch(a="9H", b="9S"))  # may lay every card
    assert state.hands[3] == []
    E.apply(state, "di", Done())
    assert E.awaiting(state) == ["cy"]
    events = E.apply(state, "cy", LayMatch(a="7H", b="7D"))
    assert state.step == "laydown" and events[-1].kind == "lay"  # no bonus
    refused(state, "cy", Upgrade(match=1, card="7S", replace="7H"), "lay-down")
    E.apply(state, "cy", Done())
    summary = state.history[0]
    assert summary.first_turn_out
    assert [p.hand_marks for p in summary.players] == [1, 0, 2, 0]
    assert [p.matches for p in summary.players] == [0, 0, 1, 1]


def test_s8_laydown_in_any_order_each_saying_done() -> None:
    # The reverse order of test_s6_first_turn_out_lets_players_without_a_turn_lay_down.
    state = make_state(
        ["2C", "5C", "7H 7S 7D 8C", "9H 9S"], turn=1, turns_started=[1, 1, 0, 0], dealer=3
    )
    E.apply(state, "ben", Discard(card="5C"))
    assert E.awaiting(state) == ["cy", "di"]
    refused(state, "ana", Done(), "not had a turn")  # had a turn
    refused(state, "ben", Done(), "not had a turn")  # went out
    E.apply(state, "cy", LayMatch(a="7S", b="7D"))
    events = E.apply(state, "cy", Done())
    assert [e.kind for e in events] == ["done"] and not state.history
    assert E.awaiting(state) == ["di"]
    refused(state, "cy", Done(), "not had a turn")  # already done
    refused(state, "cy", LayMatch(a="7H", b="7H"), "not had a turn")
    events = E.apply(state, "di", Done())  # di lays nothing
    assert [e.kind for e in events][:2] == ["done", "round_end"]
    summary = state.history[0]
    assert [p.hand_marks for p in summary.players] == [1, 0, 2, 2]
    assert [p.matches for p in summary.players] == [0, 0, 1, 0]
    assert state.round == 2 and state.dealer == 1


def test_s6_no_laydown_when_goer_out_was_not_on_first_turn() -> None:
    state = make_state(["5C", "4C", "9H"], turns_started=[2, 1, 0])
    E.apply(state, "ana", Discard(card="5C"))
    assert state.round == 2


def test_s6_three_rounds_then_game_over() -> None:
    state = make_state(["5C", "4C"], turns_started=[2, 1], round=3)
    from game.split.state import PlayerRoundScore, RoundSummary

    blank = [
        PlayerRoundScore(
            player=p,
            boxes={},
            matches=0,
            hand_marks=0,
            bonus_marks=0,
            score_before=0,
            score_after=0,
            gained=0,
        )
        for p in ("ana", "ben")
    ]
    state.history = [
        RoundSummary(round=r, dealer="ana", ended_by="out", players=blank) for r in (1, 2)
    ]
    E.apply(state, "ana", Discard(card="5C"))
    assert E.is_over(state) and E.awaiting(state) == []
    results = E.results(state)
    assert [(r.player, r.placement, r.score) for r in results] == [("ana", 1, 0), ("ben", 2, -1)]


# ---------------------------------------------------------------- 7. Score sheet


def test_s7_rank_row_values_triangular() -> None:
    assert [rank_row_value(n) for n in range(13)] == [
        0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78,
    ]  # fmt: skip


def test_s7_negative_row_kth_mark_costs_ceil_k_over_3() -> None:
    assert [negative_value(k) for k in range(13)] == [0, 1, 2, 3, 5, 7, 9, 12, 15, 18, 22, 26, 30]
    assert negative_value(15) == 30 + 5 * 3


def test_s7_final_score_sum_of_rows_minus_negative_row() -> None:
    boxes = [0] * 13
    boxes[0], boxes[12] = 12, 2
    assert sheet_score(boxes, 4) == 78 + 3 - 5


def test_s7_tied_scores_share_the_placement() -> None:
    state = make_state(["5C", "4C", "3C"], step="game_over")
    state.step = Step.GAME_OVER
    results = E.results(state)
    assert [r.placement for r in results] == [1, 1, 1]


# ---------------------------------------------------------------- 8. Edge cases


def test_s8_empty_discard_row_take_is_a_draw() -> None:
    state = make_state(["5C 6C", "4C"], step="take")
    assert E.legal_actions(state, "ana") == [Draw()]
    refused(state, "ana", Pick(card="5C"), "discard row is empty")


def test_s8_unusable_pick_refused_with_reason() -> None:
    state = make_state(["5C 6C", "4C"], step="take", row="9D")
    refused(state, "ana", Pick(card="9D"), "could not use it in a match or an upgrade")


def test_s8_strong_bonus_draw_never_empties_the_hand() -> None:
    state = make_state(["7H 7D 2C", "4C"], pile="3D 9S")
    E.apply(state, "ana", MakeMatch(a="7H", b="7D"))
    E.apply(state, "ana", BonusDraw())
    assert len(state.hands[0]) == 2 and state.step == "main"


def test_s8_perfect_bonus_mark_applies_even_if_round_ends_soon_after() -> None:
    state = make_state(["7H 7H 2C", "4C", "5C"], turns_started=[2, 1, 1])
    E.apply(state, "ana", MakeMatch(a="7H", b="7H"))
    E.apply(state, "ana", Target(player="ben"))
    E.apply(state, "ana", Discard(card="2C"))
    assert state.history[0].players[1].bonus_marks == 1
    assert state.negatives[1] == 2  # the mark plus one card left in hand


def test_s8_turn_counts_from_take_step() -> None:
    # Ana goes out on her first turn; ben has started a turn, cy has not: only cy lays down.
    state = make_state(["5C", "4C", "9H 9S"], turns_started=[1, 1, 0])
    E.apply(state, "ana", Discard(card="5C"))
    assert E.awaiting(state) == ["cy"]
    state = make_state(["5C 6C", "4C"], step="take", pile="2D 3D")
    E.apply(state, "ana", Draw())
    assert state.turns_started == [1, 0]


def test_s8_covered_match_counts_once() -> None:
    state = make_state(["5C", "4C"], matches=[(0, "7H 7D", "7S 7C")], turns_started=[2, 1])
    E.apply(state, "ana", Discard(card="5C"))
    assert state.boxes[0][6] == 1
