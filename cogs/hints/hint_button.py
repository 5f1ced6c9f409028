"""The Hint button of a private view (``tb:hint:{session}:{version}``).

:func:`hint_buttons` is the hints feature's turn items (``cogs.features.Feature.turn_items``):
the table hands them to the game's UI, which lays them out after the viewer's controls on
their turn; the list is empty unless the game has hints and the viewer is a person seated in
it. The click is
``cogs.hints.hint_click``; the lobby's hints toggle shows the same emoji (``HINT_EMOJI``).
"""

from __future__ import annotations

from bot.records.session import Session, Status
from cogs.i18n.common_words import HINT
from cogs.i18n.words import Words
from cogs.kit.control_payloads import Shown
from cogs.kit.custom_ids import HINT_EMOJI, HintButton
from game.base import PlayerId


def hint_buttons(session: Session, viewer: PlayerId, words: Words) -> list[Shown]:
    """``viewer``'s Hint button at the session's version (call it on their turn): none
    unless the game runs with hints and ``viewer`` is a person seated in it."""
    seat = session.seat_of(viewer)
    if not session.hints or session.status is not Status.ACTIVE or seat is None or seat.is_bot:
        return []
    return [HintButton.payload(session.id, session.version, label=words.text(HINT),
                               emoji=HINT_EMOJI)]

