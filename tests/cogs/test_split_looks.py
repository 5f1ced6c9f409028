"""SPLIT's looks (and codes) of the shared actions are kept per Words by the action's identity
(``cogs.split.hand.looks``, issue 42's sixth pass): every legal action's look and option order
in every position of seeded games, in every language, is what a fresh computation gives."""

from __future__ import annotations

import pytest

from bench.table_size import sessions
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.split import hand
from cogs.split.hand import looks, option_order
from game.action_codes import action_codes
from game.registry import engines


@pytest.mark.parametrize("language", list(Language))
def test_kept_looks_are_fresh_looks(language: Language) -> None:
    engine = engines()["split"]
    words = words_for(language)
    kept_before = 0
    for session in sessions("split", 3, 3):
        for seat in session.seats:
            actions = engine.legal_actions(session.state, seat.player_id)
            view = engine.view(session.state, seat.player_id)
            shown, order, codes = looks(session, view, actions, words)
            kept = dict(words.derived[hand._KEPT_LOOKS])  # type: ignore[call-overload]
            del words.derived[hand._KEPT_LOOKS]  # nothing kept: each look made now
            fresh, fresh_order, fresh_codes = looks(session, view, actions, words)
            words.derived[hand._KEPT_LOOKS] = kept
            assert shown == fresh
            assert codes == fresh_codes == action_codes(actions)
            assert order == fresh_order == [option_order(action) for action in actions]
            kept_before = max(kept_before, len(kept))
    assert 0 < kept_before <= hand.KEPT_LOOKS
