"""What a feature hands the table: its seal on the stored games of its kind
(``Feature.sealed``), its items on a person's turn (``Feature.turn_items``) and its lines in
``/stats`` (``Feature.stats``)."""

from __future__ import annotations

import pytest

from bot.records.session import Seat, Session, SessionKind, Status
from cogs.features import Feature, StatsField, TableFeatures, TakenPlace
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
    assert await features.stats_fields("1", {"ten": "TEN"}, words) == []

    async def games(player: PlayerId, titles: object, _: object) -> StatsField:
        return StatsField("Games", f"{player}: {titles}")

    async def nothing(player: PlayerId, titles: object, _: object) -> None:
        return None

    async def last(player: PlayerId, titles: object, _: object) -> StatsField:
        return StatsField("Last", "-")

    for name, lines in (("first", games), ("quiet", nothing), ("second", last)):
        features.register(Feature(name, stats=lines))
    assert await features.stats_fields("7", {"ten": "TEN"}, words) == [
        StatsField("Games", "7: {'ten': 'TEN'}"), StatsField("Last", "-")]
