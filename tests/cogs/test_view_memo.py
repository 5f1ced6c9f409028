"""The views of a stored version are built once and handed only to renders of that very
``Session`` and viewer (``cogs.kit.view_memo``, issue 42)."""

from __future__ import annotations

from dataclasses import replace

from bench.table_size import sessions
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.view_memo import ViewMemo
from cogs.ten import TenUI
from game.registry import engines


def test_one_build_per_session_and_viewer_and_none_across_viewers() -> None:
    engine = engines()["ten"]
    memo = ViewMemo(engine)
    session = next(iter(sessions("ten", 3, 0)))
    players = [seat.player_id for seat in session.seats]
    assert memo.of(session, None) is memo.of(session, None)
    mine = memo.of(session, players[0])
    assert memo.of(session, players[0]) is mine
    theirs = memo.of(session, players[1])
    assert theirs is not mine
    assert memo.of(session, None) is not mine
    assert (memo.built, memo.derived) == (1, 2)  # the others made from the first
    assert mine == engine.view(session.state, players[0])
    assert memo.of(session, None) == engine.view(session.state, None)


def test_views_made_from_the_first_equal_fresh_builds() -> None:
    """Every viewer's view of every position of seeded games of both games, whichever viewer
    came first, is the engine's fresh build (a SPLIT hand never reaches another viewer)."""
    for key in ("ten", "split"):
        engine = engines()[key]
        for number, session in enumerate(sessions(key, 3, 5)):
            players = [seat.player_id for seat in session.seats]
            viewers = [*players, None] if number % 2 else [None, *reversed(players)]
            memo = ViewMemo(engine)
            for viewer in viewers:
                assert memo.of(session, viewer) == engine.view(session.state, viewer)
            assert (memo.built, memo.derived) == (1, len(viewers) - 1)


def test_a_new_session_of_the_same_version_is_built_anew() -> None:
    """A bench or a replay step may reuse the version (and even step one state in place):
    only the very Session object a view was built for reads it."""
    memo = ViewMemo(engines()["ten"])
    steps = sessions("ten", 3, 0)
    first = next(steps)
    before = memo.of(first, None)
    later = next(steps)  # the same version, the same state object stepped in place
    assert later.version == first.version
    assert memo.of(later, None) is not before
    assert memo.of(replace(later), None) is not memo.of(later, None)


def test_bounded() -> None:
    memo = ViewMemo(engines()["split"], kept=4)
    for number, session in enumerate(list(sessions("split", 3, 0))[:10]):
        kept = replace(session, id=number)
        for viewer in (None, *(seat.player_id for seat in session.seats)):
            memo.of(kept, viewer)
            assert len(memo) <= 4
    assert len(memo) == 4


def test_the_table_of_each_step_is_the_one_of_its_state() -> None:
    """Rendering through the memo shows every step's own table (the memo never serves a
    stale one when a state is stepped in place)."""
    ui = TenUI(engines()["ten"])
    plain = TenUI(engines()["ten"])
    words = words_for(Language.EN)
    for session in list(sessions("ten", 3, 1))[:25]:
        shown = ui.table_in(session, words).embeds[0].to_dict()
        plain.views = ViewMemo(plain.engine)  # a fresh memo: nothing to reuse
        assert shown == plain.table_in(session, words).embeds[0].to_dict()


def test_the_memo_keeps_no_session_alive() -> None:
    import gc
    import weakref

    memo = ViewMemo(engines()["ten"])
    session = replace(next(iter(sessions("ten", 3, 0))))
    memo.of(session, None)
    gone = weakref.ref(session)
    del session
    gc.collect()
    assert gone() is None


def test_a_game_ui_pickles_with_an_empty_memo() -> None:
    """A picture job carries its game UI to the workers (``cogs.render_workers``)."""
    import pickle

    ui = TenUI(engines()["ten"])
    session = next(iter(sessions("ten", 3, 0)))
    ui.views.of(session, None)
    copied = pickle.loads(pickle.dumps(ui))
    assert len(copied.views) == 0 and len(ui.views) == 2  # its entry and its version's first
    assert copied.views.of(session, None) == ui.views.of(session, None)
