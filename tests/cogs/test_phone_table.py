"""The running tables fit a phone: for 4 players at most 15 lines of at most 60 characters at
every step of seeded games (5–6 players: a line or two more), in every language; whoever must
act now is marked; the table text comes from the public view only."""

from __future__ import annotations

import pytest

from bench.table_size import measure, sessions
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.rendering.phone_text import render_lines, short, shown_length, wrap
from cogs.ten import TenUI
from game.registry import engines

LIMITS = {2: 15, 3: 15, 4: 15, 5: 17, 6: 17, 1: 15}


@pytest.mark.parametrize("language", list(Language))
@pytest.mark.parametrize(("key", "count"), [("split", 4), ("split", 6), ("ten", 4), ("ten", 5)])
def test_tables_fit_a_phone_at_every_step(key: str, count: int, language: Language) -> None:
    size = measure(key, count, 1, words_for(language))
    assert size.lines <= LIMITS[count], "\n".join(size.worst or [])
    assert size.width <= 60


def test_ten_marks_the_bidder_not_the_active_player_in_an_auction() -> None:
    ui = TenUI(engines()["ten"])
    words = words_for(Language.EN)
    auctions = 0
    for session in sessions("ten", 3, 0):
        view = ui.engine.view(session.state, None)
        if view.phase != "auction" or view.auction is None or view.auction.to_bid == view.active:
            continue
        auctions += 1
        lines = render_lines(ui.table_in(session, words))
        marked = [line for line in lines if line.startswith("▶ **")]
        bidder = short(session.names[view.auction.to_bid])
        active = short(session.names[view.active])
        assert any(line.startswith(f"▶ **{bidder}** ·") for line in marked), lines
        assert not any(line.startswith(f"▶ **{active}** ·") for line in marked), lines
    assert auctions > 0


def test_wrap_never_cuts_a_piece_and_short_names_do_not_break() -> None:
    lines = wrap(["a" * 30, "b" * 30, "c" * 10], first="> ", indent="  ", sep=" · ")
    assert lines == ["> " + "a" * 30, "  " + "b" * 30 + " · " + "c" * 10]
    assert all(shown_length(line) <= 60 for line in lines)
    name = short("**Benjamin Franklin Junior**")
    assert "*" not in name and " " not in name and len(name) == 16 and name.endswith("…")


def test_option_lists_are_sorted_and_say_the_turn_ending_once() -> None:
    """A SPLIT discard select lists the hand in rank and suit order with no per-option
    suffix (its placeholder says the discard ends the turn); TEN's market by colour, price."""
    from cogs.split import SplitUI
    from cogs.split.hand import _face
    from game.ten import sort_key

    split = SplitUI(engines()["split"])
    seen = 0
    for session in sessions("split", 3, 0):
        player = split.engine.awaiting(session.state)[0]
        render = split.private(session, player)
        for item in render.view.children if render.view else []:
            if ":s:disc:" not in str(getattr(item, "custom_id", "")):
                continue
            cards = [option.label.removeprefix("Discard ") for option in item.options]
            assert [_face(card) for card in cards] == sorted(_face(card) for card in cards)
            assert all(option.description is None for option in item.options)
            assert "ends your turn" in item.placeholder
            seen += 1
    assert seen > 10
    ten = TenUI(engines()["ten"])
    bought = 0
    for session in sessions("ten", 3, 0):
        player = ten.engine.awaiting(session.state)[0]
        render = ten.private(session, player)
        for item in render.view.children if render.view else []:
            if ":s:buy:" not in str(getattr(item, "custom_id", "")):
                continue
            notes = [o.value.removeprefix("buy:") for o in item.options]  # buy:{card}
            assert notes == sorted(notes, key=sort_key)
            bought += 1
    assert bought > 0


def test_a_table_in_the_servers_language() -> None:
    from cogs.split import SplitUI

    split = SplitUI(engines()["split"])
    session = next(iter(sessions("split", 3, 0)))
    spanish = split.table_in(session, words_for(Language.ES))
    text = "\n".join(render_lines(spanish))
    assert "SPLIT · ronda 1/3 · pila de robo" in text and "Fila de descarte (1):" in text
    labels = [getattr(item, "label", None) for item in spanish.view.children] \
        if spanish.view else []
    assert labels == ["Mi mano", "Reglas", "Puntuaciones", "Registro"]
    assert split.table(session).embeds[0].title.startswith("SPLIT · round 1/3")  # English


def test_wrap_breaks_lines_where_it_measured_every_line_before() -> None:
    """``wrap`` measures a line's shown characters only when it is longer than the width
    (issue 42, round 2): the lines are those of measuring every candidate, markers or not."""
    import random

    def measured(pieces: list[str], first: str, indent: str, sep: str, width: int) -> list[str]:
        lines: list[str] = []
        current, fresh = first, True
        for piece in pieces:
            candidate = current + ("" if fresh else sep) + piece
            if not fresh and shown_length(candidate) > width:
                lines.append(current)
                current, fresh = indent + piece, False
                continue
            current, fresh = candidate, False
        if not fresh or current:
            lines.append(current)
        return lines

    rng = random.Random(42)
    alphabet = ["a", "b", "**", "`", " ", "é", "🟥"]
    for _ in range(2000):
        pieces = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9)))
                  for _ in range(rng.randint(0, 8))]
        first = rng.choice(["", "**Ana** · ", "Market: "])
        width = rng.randint(4, 30)
        assert wrap(pieces, first=first, indent="   ", sep=" · ", width=width) == measured(
            pieces, first, "   ", " · ", width)
