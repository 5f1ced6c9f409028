"""Arena scoring and seating (bot.events.arena), against lichess's worked example."""

from __future__ import annotations

from bot.events.arena import arena_standings, game_outcome, seat_waiting


def test_two_wins_then_a_draw_scores_six() -> None:
    # lichess: "two wins followed by a draw will be worth 6 points: 2 + 2 + (2 x 1)"
    games = [{"a": 1, "b": 2}, {"a": 1, "c": 2}, {"a": 1, "b": 1}]
    [a, *_] = arena_standings(["a", "b", "c"], games)
    assert (a.player, a.points, a.games, a.wins, a.on_fire) == ("a", 6, 3, 2, False)


def test_on_fire_doubles_wins_until_a_game_is_not_won() -> None:
    games = [{"a": 1, "b": 2}, {"a": 1, "b": 2}, {"a": 1, "b": 2}, {"a": 2, "b": 1},
             {"a": 1, "b": 2}]
    lines = {line.player: line for line in arena_standings(["a", "b"], games)}
    assert lines["a"].points == 2 + 2 + 4 + 0 + 2
    assert lines["b"].points == 2 and not lines["a"].on_fire


def test_multi_player_win_draw_and_loss() -> None:
    assert game_outcome({"a": 1, "b": 2, "c": 3}, "a") == 2
    assert game_outcome({"a": 1, "b": 1, "c": 3}, "b") == 1
    assert game_outcome({"a": 1, "b": 2, "c": 3}, "b") == 0


def test_ties_by_wins_then_fewer_games() -> None:
    games = [{"a": 1, "b": 1}, {"a": 1, "b": 1}, {"c": 1, "d": 2}]
    ranked = [line.player for line in arena_standings(["a", "b", "c", "d"], games)]
    assert ranked == ["c", "a", "b", "d"]  # 2 points each: c won once, in one game


def test_seating_groups_neighbours_and_avoids_the_last_table() -> None:
    last = {"a": frozenset({"b"}), "b": frozenset({"a"})}
    assert seat_waiting(["a", "b", "c", "d"], 2, last_table=last, others_playing=True) == [
        ("a", "c"), ("b", "d")]
    assert seat_waiting(["a", "b", "c"], 3, last_table={}, others_playing=True) == [
        ("a", "b", "c")]
    assert seat_waiting(["a", "b"], 3, last_table={}, others_playing=True) == []
    assert seat_waiting(["a", "b"], 3, last_table={}, others_playing=False) == [("a", "b")]
    assert seat_waiting(["a"], 2, last_table={}, others_playing=False) == []
