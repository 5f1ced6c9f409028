"""``bench.clicks`` plays a seeded game of each kind through the UI's controls, and
``bench.table_size`` measures the running tables; both print their tables."""

from __future__ import annotations

import sys

import pytest

from bench import clicks, table_size


@pytest.mark.parametrize("key", ["split", "ten"])
def test_every_move_is_made_through_a_control(key: str) -> None:
    followed = clicks.play(key, 7, follow=True)
    unfollowed = clicks.play(key, 7, follow=False)
    assert followed.turns > 10 and followed.moves >= followed.turns
    assert followed.clicks >= followed.moves  # at least one interaction per move
    # A followed view is current when the turn comes: a player opens it about once a game
    # (again only after moving from the table alone), instead of about once a turn.
    assert followed.opens * 2 < unfollowed.opens


def test_both_scripts_print_their_tables(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["clicks"])
    clicks.main()
    monkeypatch.setattr(sys, "argv", ["table_size", "--seeds", "1", "--language", "en"])
    table_size.main()
    out = capsys.readouterr().out
    assert "interactions/turn" in out and "views follow the game: yes" in out
    assert "split 4p en" in out and "ten 4p en" in out and "max line length" in out
