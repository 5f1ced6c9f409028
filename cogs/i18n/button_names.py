"""Button names inside texts, filled from the buttons' own labels.

A text that tells the reader to press a button never spells the button's name: it holds a
field named after the button (``"use {leave_button} to give up your seat"``) and the code
fills every such field with :func:`button_names`, the labels in the reader's language. So an
instruction and the button it names always agree, in every catalog; ``tests/i18n`` checks that
no catalog quotes a button name that is not one of its labels.
"""

from __future__ import annotations

from cogs.i18n import common_words as cw
from cogs.i18n.messages import Message
from cogs.i18n.words import Words

# field -> the label of the button it names
BUTTON_FIELDS: dict[str, Message] = {
    "join_button": cw.JOIN,
    "leave_button": cw.LEAVE,
    "start_button": cw.START,
    "rematch_button": cw.REMATCH,
    "table_button": cw.TABLE,
    "rules_button": cw.RULES,
    "scores_button": cw.SCORES,
    "log_button": cw.LOG,
    "my_hand_button": cw.MY_HAND,
    "my_view_button": cw.MY_VIEW,
    "im_back_button": cw.IM_BACK,
    "replay_button": cw.REPLAY,
    "hint_button": cw.HINT,
    "my_review_button": cw.MY_REVIEW,
    "done_button": cw.DONE_LAYING_DOWN,
    "flip_button": cw.FLIP,
}


def button_names(words: Words) -> dict[str, str]:
    """Every button field of :data:`BUTTON_FIELDS` with its label in ``words``' language (a
    new dict each time: a caller may add to it)."""
    found = words.derived.get(button_names)
    if found is None:  # the labels of one Words never change: made once (issue 42)
        found = words.derived[button_names] = {
            field: words.text(label) for field, label in BUTTON_FIELDS.items()}
    return dict(found)  # type: ignore[call-overload]
