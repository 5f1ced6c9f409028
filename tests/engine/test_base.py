import copy
import pickle

import pytest

from game.base import Event, placements, rng_for


def test_rng_for_is_deterministic_and_salted() -> None:
    assert rng_for(7, "deal", 1).random() == rng_for(7, "deal", 1).random()
    assert rng_for(7, "deal", 1).random() != rng_for(7, "deal", 2).random()


def test_placements_share_ties() -> None:
    assert placements({"a": [5], "b": [9], "c": [5], "d": [1]}) == {"b": 1, "a": 2, "c": 2, "d": 4}


def test_event_private_part_only_for_its_owner() -> None:
    event = Event(kind="draw", actor="1", data={"count": 1}, private={"card": "7♥"}, private_to="1")
    assert event.visible_to("1") == {"count": 1, "card": "7♥"}
    assert event.visible_to("2") == {"count": 1}
    assert event.visible_to(None) == {"count": 1}


def test_event_is_immutable_and_its_default_data_read_only() -> None:
    event = Event(kind="pass", actor="1")
    with pytest.raises(AttributeError):
        event.kind = "bid"  # type: ignore[misc]
    with pytest.raises(TypeError):
        event.data["amount"] = 3  # type: ignore[index]
    with pytest.raises(TypeError):
        event.data.update(amount=3)  # type: ignore[attr-defined]
    shown = event.visible_to(None)
    shown["note"] = "mine"
    assert event.visible_to(None) == {} and Event(kind="pass").data == {}
    assert pickle.loads(pickle.dumps(event)) == event == copy.deepcopy(event)
