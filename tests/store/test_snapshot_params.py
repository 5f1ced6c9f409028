"""A stored change's parameters (``bot.store.sql.snapshot_params``, issue 42's fifth pass):
written out column by column and with each log event's JSON kept, they are what the row
(``session_values``, picked by column) and ``json.dumps`` of the whole log gave."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bench.table_size import sessions
from bot.records.session import Session
from bot.store import sql
from bot.store.sql import log_entry, log_json, session_values, snapshot_params


def _picked(session: Session, *expected: int) -> tuple[Any, ...]:
    """The parameters as they were made before: the whole row, picked by column."""
    values = session_values(session)
    return (*(values[column] for column in sql._UPDATED_COLUMNS), session.id, *expected)


@pytest.mark.parametrize("key", ["ten", "split"])
def test_the_parameters_of_every_step_of_a_game_are_the_row_picked_by_column(key: str) -> None:
    from game.base import Event

    count = 0
    made: dict[str, Event] = {}  # the bench's log holds lines: one event each, kept as a log is
    for session in sessions(key, 3, 7):
        log = tuple(made.setdefault(line, Event("line", "1" if count % 2 else None,
                                                {"text": line, "step": count}))
                    for line in session.log)
        session = replace(session, log=log)
        assert snapshot_params(session, 4) == _picked(session, 4)
        assert snapshot_params(session, 4, 5) == _picked(session, 4, 5)
        expected = json.dumps([log_entry(event) for event in session.log], ensure_ascii=False)
        assert log_json(session.log) == expected  # kept events
        assert session_values(session)["log"] == expected
        count += 1
    assert count > 20


def test_log_json_is_bounded_and_never_serves_another_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from collections import OrderedDict

    from game.base import Event

    monkeypatch.setattr(sql, "_LOG_JSON", OrderedDict())
    monkeypatch.setattr(sql, "LOG_JSON_KEPT", 5)
    for number in range(40):
        events = [Event("draw", "1", {"n": number, "note": "ñ"}), Event("pass", None)]
        expected = json.dumps([log_entry(event) for event in events], ensure_ascii=False)
        assert log_json(events) == expected
        assert log_json(events) == expected
        assert len(sql._LOG_JSON) <= 5
    assert log_json([]) == "[]"


def test_a_log_keyed_by_its_session_takes_its_tail_from_the_last_one_only_when_it_is_that(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each version's log (the last 12 events, ``extend_log``) written with the session's key
    is what ``json.dumps`` of it gives: a tail of the previous log (taken from its JSON), a log
    that shares no event with it, an equal event that is another object (written again), an
    emptied log; the memo of logs stays bounded."""
    from collections import OrderedDict

    from game.base import Event

    monkeypatch.setattr(sql, "_LAST_LOGS", OrderedDict())
    monkeypatch.setattr(sql, "LAST_LOGS_KEPT", 3)

    def dumped(log: tuple[Event, ...]) -> str:
        return json.dumps([log_entry(event) for event in log], ensure_ascii=False)

    log: tuple[Event, ...] = ()
    for number in range(40):
        new = tuple(Event("draw", str(number % 3), {"n": number, "k": "ñ"})
                    for _ in range(number % 3 + 1))
        log = (*log, *new)[-12:]
        assert log_json(log, 7) == dumped(log)
        assert log_json(log, 7) == dumped(log)  # the same log again
        other = (Event("pass", None), *log[1:])  # its first event another one
        assert log_json(other, 7) == dumped(other)
        again = tuple(Event(event.kind, event.actor, dict(reversed(event.data.items())))
                      for event in log)  # equal events, other objects, keys in another order
        assert log_json(again, 7) == dumped(again) != dumped(log)
        assert log_json(log, number) == dumped(log)
        assert len(sql._LAST_LOGS) <= 3
    assert log_json((), 7) == "[]"
    assert log_json(log, 7) == dumped(log)
