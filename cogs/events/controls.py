"""The event post's buttons: ``tb:ev:{join|leave|cancel}:{event}``."""

from __future__ import annotations

from enum import StrEnum

from cogs.i18n.messages import N_
from cogs.kit.custom_ids import MAX_STORED, ControlKind, button_control, number, one_of

EVENT_GONE = N_("That button belongs to no event of this server.")


class EventAction(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    CANCEL = "cancel"


EVENT: ControlKind[EventAction, int] = ControlKind(
    "ev", (one_of("action", EventAction), number("event", MAX_STORED)), EVENT_GONE)
EventButton = button_control("EventButton", EVENT)
