"""The Swiss pairing and standings (bot.events.swiss), against hand-computed figures."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from bot.events.swiss import (
    Bye,
    Round,
    TableResult,
    game_points,
    pair_round,
    repeated_pairs,
    standings,
    table_sizes,
)


def test_two_players_score_as_chess() -> None:
    assert game_points({"a": 1, "b": 2}) == {"a": 1, "b": 0}
    assert game_points({"a": 1, "b": 1}) == {"a": Fraction(1, 2), "b": Fraction(1, 2)}


def test_three_players_share_one_point_each_pair() -> None:
    assert game_points({"a": 1, "b": 2, "c": 3}) == {
        "a": 1, "b": Fraction(1, 2), "c": 0}
    assert game_points({"a": 1, "b": 1, "c": 3}) == {
        "a": Fraction(3, 4), "b": Fraction(3, 4), "c": 0}


@pytest.mark.parametrize(("count", "per_table", "sizes"), [
    (6, 3, [3, 3]), (7, 3, [3, 2, 2]), (5, 2, [2, 2, 1]), (8, 4, [4, 4]), (9, 4, [3, 3, 3]),
    (1, 3, [1]), (0, 2, []),
])
def test_table_sizes(count: int, per_table: int, sizes: list[int]) -> None:
    assert table_sizes(count, per_table) == sizes


def test_tables_hold_two_to_four() -> None:
    with pytest.raises(ValueError):
        table_sizes(6, 5)


def test_first_round_seats_by_rank() -> None:
    pairing = pair_round(list("abcdef"), [], 3)
    assert pairing.tables == (("a", "b", "c"), ("d", "e", "f"))
    assert pairing.bye is None


def test_no_repeat_where_avoidable() -> None:
    first = [TableResult({"a": 1, "b": 2, "c": 3}), TableResult({"d": 1, "e": 2, "f": 3})]
    ranked = [line.player for line in standings(list("abcdef"), [first])]
    pairing = pair_round(ranked, [first], 3)
    # six players at tables of three can never avoid a repeat pair in round 2: each table of
    # three holds players from the two old tables, so two of them met (the fewest: 1 per table)
    assert repeated_pairs(pairing, [first]) == 2
    two = [TableResult({"a": 1, "b": 2}), TableResult({"c": 1, "d": 2})]
    pairing = pair_round(["a", "c", "b", "d"], [two], 2)
    assert repeated_pairs(pairing, [two]) == 0
    assert pairing.tables == (("a", "c"), ("b", "d"))


def test_bye_to_lowest_without_one() -> None:
    pairing = pair_round(list("abcde"), [], 2)
    assert pairing.bye == "e"
    assert sorted(itertools.chain(*pairing.tables)) == list("abcd")
    rounds: list[Round] = [
        [TableResult({"a": 1, "b": 2}), TableResult({"c": 1, "d": 2}), Bye("e")]]
    later = pair_round(list("acebd"), rounds, 2)
    assert later.bye == "d"


def test_bots_fill_instead_of_a_bye() -> None:
    pairing = pair_round(list("abcde"), [], 2, fill_with_bots=True)
    assert pairing.bye is None
    assert [len(table) for table in pairing.tables] == [2, 2, 1]


def test_standings_tie_breaks() -> None:
    # round 1: a beats b, c beats d; round 2: a beats c, b beats d
    rounds = [
        [TableResult({"a": 1, "b": 2}), TableResult({"c": 1, "d": 2})],
        [TableResult({"a": 1, "c": 2}), TableResult({"b": 1, "d": 2})],
    ]
    lines = standings(list("dcba"), rounds)
    assert [line.player for line in lines] == ["a", "c", "b", "d"]
    by = {line.player: line for line in lines}
    assert by["a"].points == 2 and by["a"].buchholz == 2  # b 1 + c 1
    # c and b have 1 point each; c met a (2) and d (0): Buchholz 2; b met a (2) and d (0): 2;
    # Sonneborn-Berger: c beat d (0) -> 0; b beat d (0) -> 0; wins 1 each: registration order
    assert by["c"].buchholz == by["b"].buchholz == 2
    assert [line.rank for line in lines] == [1, 2, 3, 4]
    assert by["d"].points == 0 and by["d"].played == 2


def test_bye_scores_a_win() -> None:
    lines = standings(["a", "b", "c"], [[TableResult({"a": 1, "b": 2}), Bye("c")]])
    by = {line.player: line for line in lines}
    assert by["c"].points == 1 and by["c"].byes == 1 and by["c"].played == 0


def test_a_large_event_avoids_rematches() -> None:
    """Forty players at tables of two over five rounds: never the same pair twice."""
    players = [str(n) for n in range(40)]
    rounds: list[Round] = []
    for number in range(5):
        ranked = [line.player for line in standings(players, rounds)]
        pairing = pair_round(ranked, rounds, 2)
        assert repeated_pairs(pairing, rounds) == 0
        assert sorted(itertools.chain(*pairing.tables)) == sorted(players)
        rounds.append([TableResult({a: 1 + (int(a) + number) % 2, b: 2 - (int(a) + number) % 2})
                       for a, b in pairing.tables])
