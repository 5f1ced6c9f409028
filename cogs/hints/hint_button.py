"""The Hint button of a private view (``tb:hint:{session}:{version}``), and its place there.

A game UI that words hints (``cogs.game_ui.WordsHints``) puts :func:`hint_buttons` among the
controls of the viewer's private view when it is their turn; the list is empty unless the
game has hints and the viewer is a person seated in it. The click is
``cogs.hints.hint_click``; the lobby's hints toggle shows the same emoji (``HINT_EMOJI``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.records.session import Session, Status
from cogs.i18n.common_words import HINT
from cogs.i18n.words import Words
from cogs.kit.control_menus import MAX_BUTTONS_PER_ROW, MAX_ROWS
from cogs.kit.custom_ids import HINT_EMOJI, HintButton, Item
from game.base import PlayerId


def hint_buttons(session: Session, viewer: PlayerId, words: Words) -> list[Item]:
    """``viewer``'s Hint button at the session's version (call it on their turn): none
    unless the game runs with hints and ``viewer`` is a person seated in it."""
    seat = session.seat_of(viewer)
    if not session.hints or session.status is not Status.ACTIVE or seat is None or seat.is_bot:
        return []
    return [HintButton(session.id, session.version, label=words.text(HINT), emoji=HINT_EMOJI)]


def with_buttons(items: Sequence[Item], extra: Sequence[Item]) -> list[Item]:
    """``items`` (their rows set, as ``Controls.items`` sets them) and the buttons ``extra``
    in a row of their own after them, or in the last row of buttons with room for them.
    ValueError when no row has room (the controls' layout must leave it)."""
    if not extra:
        return list(items)
    widths: Counter[int] = Counter()
    for item in items:
        # A DynamicItem reads its row from the wrapped component's private field, which a
        # select does not keep: ask the component itself.
        row = getattr(item, "item", item).row or 0
        widths[row] += item.width
    used = max(widths, default=-1) + 1
    if used < MAX_ROWS:
        row = used
    else:
        free = [r for r in range(MAX_ROWS) if widths[r] + len(extra) <= MAX_BUTTONS_PER_ROW]
        if not free:
            raise ValueError("no row has room for the extra buttons")
        row = free[-1]
    for button in extra:
        button.row = row
    return [*items, *extra]
