"""A feature seals the stored games of its kind (``Feature.sealed``); the table asks it."""

from __future__ import annotations

import pytest

from bot.records.session import Seat, Session, SessionKind, Status
from cogs.features import Feature, TableFeatures, TakenPlace

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
