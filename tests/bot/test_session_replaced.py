"""``bot.records.session.replaced`` makes what ``dataclasses.replace`` made (issue 42: the
session manager makes two new versions of a session per stored change with it)."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.records.session import Seat, Session, Status, replaced


def _session() -> Session:
    seats = (Seat(player_id="1", display_name="Ann"), Seat(player_id="2", display_name="Bo"))
    return Session(id=7, guild_id=1, channel_id=2, game="ten", status=Status.ACTIVE,
                   host_id="1", seats=seats, options={"hints": True}, state={"x": 1},
                   version=4, log=())


@pytest.mark.parametrize("changes", [
    {},
    {"version": 5, "updated_at": datetime(2026, 1, 2, tzinfo=UTC)},
    {"deadlines": (), "state": None, "status": Status.FINISHED},
    {"ping_message_id": 99, "table_message_id": 98},
])
def test_replaced_is_replace(changes: dict[str, Any]) -> None:
    session = _session()
    before = dict(session.__dict__)
    made, expected = replaced(session, **changes), replace(session, **changes)
    assert made == expected and type(made) is Session and made is not session
    for item in fields(Session):
        assert getattr(made, item.name) is getattr(expected, item.name)
    assert session.__dict__ == before  # the old version is untouched


def test_an_unknown_field_is_refused_as_replace_refuses_it() -> None:
    with pytest.raises(TypeError):
        replaced(_session(), versoin=5)
    with pytest.raises(TypeError):
        replace(_session(), versoin=5)  # type: ignore[call-arg]


def test_a_replaced_session_stays_frozen() -> None:
    from dataclasses import FrozenInstanceError

    with pytest.raises(FrozenInstanceError):
        replaced(_session(), version=5).version = 6  # type: ignore[misc]
