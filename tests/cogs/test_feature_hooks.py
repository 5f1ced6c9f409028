"""What a feature hands the table: its seal on the stored games of its kind
(``Feature.sealed``), its items on a person's turn (``Feature.turn_items``) and its lines in
``/stats`` (``Feature.stats``)."""

from __future__ import annotations

import pytest

from bot.records.change import Change, ChangeKind
from bot.records.session import Seat, Session, SessionKind, Status
from bot.sessions.manager import Listener
from cogs.features import Feature, Place, StatsField, TableFeatures, TakenPlace
from cogs.i18n.catalogs import words_for
from cogs.i18n.language import Language
from cogs.kit.custom_ids import BackButton, HandButton, Item
from game.base import PlayerId

SEALED = "Not yet."


def session(kind: SessionKind) -> Session:
    return Session(id=1, guild_id=1, channel_id=1, game="ten", status=Status.FINISHED,
                   host_id="1", seats=(Seat(player_id="1", display_name="Ana"),), kind=kind)


async def seal(_: Session) -> str | None:
    return SEALED


async def test_only_the_kind_a_feature_seals_is_refused() -> None:
    features = TableFeatures()
    features.register(Feature("daily", sealed={SessionKind.DAILY: seal}))
    assert await features.seal_of(session(SessionKind.DAILY)) == SEALED
    assert await features.seal_of(session(SessionKind.TABLE)) is None
    assert await features.seal_of(session(SessionKind.LEARN)) is None


def test_a_kind_takes_one_seal() -> None:
    features = TableFeatures()
    features.register(Feature("daily", sealed={SessionKind.DAILY: seal}))
    with pytest.raises(TakenPlace):
        features.register(Feature("another", sealed={SessionKind.DAILY: seal}))
    assert features.names == ["daily"]


def test_turn_items_come_from_the_features_in_their_order() -> None:
    features = TableFeatures()
    words = words_for(Language.EN)
    table = session(SessionKind.TABLE)
    assert features.turn_items(table, "1", words) == []

    def hand(s: Session, viewer: PlayerId, _: object) -> list[Item]:
        return [HandButton(s.id, label=f"hand of {viewer}")]

    def back(s: Session, viewer: PlayerId, _: object) -> list[Item]:
        return [BackButton(s.id, label="back")]

    features.register(Feature("first", turn_items=hand))
    features.register(Feature("second", turn_items=back))
    assert [item.label for item in features.turn_items(table, "1", words)] == ["hand of 1", "back"]


async def test_stats_fields_come_from_the_features_in_their_order_and_only_when_said() -> None:
    features = TableFeatures()
    words = words_for(Language.EN)
    assert await features.stats_fields(3, "1", {"ten": "TEN"}, words) == []

    async def games(guild: int, player: PlayerId, titles: object, _: object) -> StatsField:
        return StatsField("Games", f"{guild}/{player}: {titles}")

    async def nothing(guild: int, player: PlayerId, titles: object, _: object) -> None:
        return None

    async def last(guild: int, player: PlayerId, titles: object, _: object) -> StatsField:
        return StatsField("Last", "-")

    for name, lines in (("first", games), ("quiet", nothing), ("second", last)):
        features.register(Feature(name, stats=lines))
    assert await features.stats_fields(3, "7", {"ten": "TEN"}, words) == [
        StatsField("Games", "3/7: {'ten': 'TEN'}"), StatsField("Last", "-")]


async def test_history_fields_come_from_the_features_that_say_something() -> None:
    features = TableFeatures()
    words = words_for(Language.EN)
    assert await features.history_fields(3, 4, words) == []

    async def events(guild: int, channel: int, _: object) -> StatsField | None:
        return StatsField("Events", f"{guild}/{channel}") if channel == 4 else None

    features.register(Feature("events", history=events))
    assert await features.history_fields(3, 4, words) == [StatsField("Events", "3/4")]
    assert await features.history_fields(3, 5, words) == []


class _Manager:
    """What ``TableFeatures.subscribe`` uses of the session manager."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)


async def test_the_places_hear_a_change_in_their_order_once_each(
        caplog: pytest.LogCaptureFixture) -> None:
    """One subscribed listener calls each filled place in the places' order (registered before
    or after the subscription), skips the public places for a private table's change, and
    goes on past a place that fails, logging it."""
    features = TableFeatures()
    manager = _Manager()
    heard: list[tuple[str, int]] = []
    made: dict[Place, Listener] = {}

    def at(place: Place) -> Listener:
        async def listener(change: Change) -> None:
            heard.append((place.value[0], change.session.id))
            if place is Place.PING:
                raise RuntimeError("a broken ping")
        made[place] = listener
        return listener

    features.register(Feature("late places", listeners={
        place: at(place) for place in (Place.EVENTS, Place.CLOCK)}))
    features.subscribe(manager)  # type: ignore[arg-type]
    features.register(Feature("early places", listeners={
        place: at(place) for place in (Place.PING, Place.TABLE, Place.MACHINES)}))
    assert len(manager.listeners) == 1
    [places] = manager.listeners

    await places(Change(ChangeKind.ACTION, session(SessionKind.TABLE)))
    assert heard == [("table", 1), ("ping", 1), ("machines", 1), ("clock", 1), ("events", 1)]
    assert "a broken ping" in caplog.text and "ping" in caplog.text
    heard.clear()
    await places(Change(ChangeKind.ACTION, session(SessionKind.LEARN)))
    assert heard == [("machines", 1), ("clock", 1)]
    assert [place.public for place in (Place.MACHINES, Place.CLOCK)] == [False, False]
    assert features.ordered() == tuple(made[place] for place in (
        Place.TABLE, Place.PING, Place.MACHINES, Place.CLOCK, Place.EVENTS))
