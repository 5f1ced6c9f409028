"""The golden renders: which images, from which seeded states.

Goldens are stored downscaled (``SCALE``) so they stay small in the repository; a render is
compared after the same downscaling, by mean absolute pixel difference (see
``test_goldens.py``). Regenerate them after an intended visual change with::

    python -m tests.images.regenerate
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cogs.split.hand_image import render_hand as split_hand
from cogs.split.score_image import render_scores as split_scores
from cogs.split.table_image import render_table as split_table
from cogs.ten.final_image import render_final as ten_final
from cogs.ten.hand_image import render_hand as ten_hand
from cogs.ten.table_image import render_table as ten_table
from game.split import SplitEngine
from game.ten import TenEngine
from tests.images import samples

GOLDEN_DIR = Path(__file__).with_name("golden")
SCALE = 4  # goldens are a quarter of the render's width and height

_SPLIT = SplitEngine()
_TEN = TenEngine()


def _split_table() -> bytes:
    state = samples.split_state(4, 7, 61)
    return split_table(_SPLIT.view(state, None), samples.names(4))


def _split_hand() -> bytes:
    state = samples.split_state(4, 7, 61)
    player = _SPLIT.awaiting(state)[0]
    return split_hand(_SPLIT.view(state, player), samples.names(4))


def _split_scores() -> bytes:
    state = samples.split_state(3, 5, None)
    return split_scores(_SPLIT.view(state, None), _SPLIT.results(state), samples.names(3))


def _ten_table() -> bytes:
    state = samples.ten_state(5, 2, 73)
    return ten_table(_TEN.view(state, None), samples.names(5))


def _ten_hand() -> bytes:
    state = samples.ten_state(2, 3, 81)
    player = _TEN.view(state, None).awaiting
    return ten_hand(_TEN.view(state, player), samples.names(2))


def _ten_final() -> bytes:
    state = samples.ten_state(3, 2, None)
    return ten_final(_TEN.view(state, None), _TEN.results(state), samples.names(3))


CASES: dict[str, Callable[[], bytes]] = {
    "split_table_4p": _split_table,
    "split_hand_4p": _split_hand,
    "split_scores_3p": _split_scores,
    "ten_table_5p_auction": _ten_table,
    "ten_hand_2p_auction": _ten_hand,
    "ten_final_3p": _ten_final,
}


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.png"
