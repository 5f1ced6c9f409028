from __future__ import annotations

import pytest

from bot.records.ratings import RatingBook, replay


def test_new_players_start_equal_and_the_winner_rises() -> None:
    book = RatingBook()
    book.record([("a", 1), ("b", 2), ("c", 3)])
    a, b, c = book.get("a"), book.get("b"), book.get("c")
    assert a and b and c
    assert a.ordinal > b.ordinal > c.ordinal
    assert a.mu > 25 > c.mu
    assert a.ordinal == pytest.approx(a.mu - 3 * a.sigma)
    assert book.get("nobody") is None


def test_shared_placement_is_a_tie() -> None:
    book = RatingBook()
    book.record([("a", 1), ("b", 1), ("c", 3)])
    a, b, c = book.get("a"), book.get("b"), book.get("c")
    assert a and b and c
    assert a == b
    assert c.ordinal < a.ordinal


def test_order_of_players_within_a_game_does_not_matter() -> None:
    one = replay([[("a", 1), ("b", 2), ("c", 2)], [("c", 1), ("a", 2), ("b", 3)]])
    two = replay([[("c", 2), ("b", 2), ("a", 1)], [("b", 3), ("c", 1), ("a", 2)]])
    for player in "abc":
        assert one.get(player) == pytest.approx(two.get(player))


def test_replay_order_matters_and_is_deterministic() -> None:
    games = [[("a", 1), ("b", 2)], [("a", 1), ("b", 2)], [("b", 1), ("a", 2)]]
    assert replay(games).all() == replay(games).all()
    assert replay(games).all() != replay(list(reversed(games))).all()


def test_a_one_player_game_changes_nothing() -> None:
    book = RatingBook()
    book.record([("a", 1)])
    assert len(book) == 0
