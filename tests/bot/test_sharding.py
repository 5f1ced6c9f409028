"""Shard arithmetic, the ownership predicate, and the shard settings."""

from __future__ import annotations

import pytest

from bot.process.env_settings import load_settings
from bot.records.errors import ConfigError
from bot.records.shards import ShardSet, parse_shard_ids, shard_of

# A guild id whose timestamp part (id >> 22) is 1000: shard 1000 % count.
GUILD = 1000 << 22 | 12345


def test_shard_of_is_discords_formula() -> None:
    assert shard_of(GUILD, 1) == 0
    assert shard_of(GUILD, 3) == 1000 % 3 == 1
    assert shard_of(GUILD, 16) == 1000 % 16 == 8
    # Only the timestamp part counts, not the low 22 bits.
    assert shard_of((1000 << 22) | ((1 << 22) - 1), 16) == 8
    with pytest.raises(ValueError):
        shard_of(GUILD, 0)


def test_ownership_predicate_splits_guilds_between_sets() -> None:
    guilds = [(n << 22) | 7 for n in range(40)]
    first, second = ShardSet.of(4, {0, 1}), ShardSet.of(4, {2, 3})
    for guild in guilds:
        assert first.owns(guild) != second.owns(guild)
    assert [g for g in guilds if first.owns(g)] == [g for g in guilds if (g >> 22) % 4 < 2]
    assert all(ShardSet.whole().owns(g) for g in guilds)
    assert all(ShardSet.of(4).owns(g) for g in guilds)


def test_shard_set_properties() -> None:
    assert not ShardSet.whole().is_partial and not ShardSet.whole().sharded
    assert ShardSet.whole().client_options() == {}
    assert ShardSet.of(2).client_options() == {"shard_count": 2, "shard_ids": None}
    part = ShardSet.of(4, {3, 1})
    assert part.is_partial and part.label == "1,3/4"
    assert part.client_options() == {"shard_count": 4, "shard_ids": [1, 3]}
    assert not part.syncs_commands and ShardSet.of(4, {0}).syncs_commands
    assert part.meta_key("clean_stop") == "clean_stop:1,3/4"
    assert ShardSet.of(4).meta_key("clean_stop") == "clean_stop"
    assert part.sql_filter() == ("((guild_id >> 22) % ?) IN (?, ?)", (4, 1, 3))
    assert ShardSet.of(4).sql_filter() == ("1 = 1", ())


def test_bad_shard_sets_are_refused() -> None:
    with pytest.raises(ValueError, match="below the shard count"):
        ShardSet.of(2, {2})
    with pytest.raises(ValueError):
        ShardSet.of(0)
    with pytest.raises(ValueError):
        ShardSet.of(2, set())


def test_parse_shard_ids() -> None:
    assert parse_shard_ids(None) is None and parse_shard_ids(" ") is None
    assert parse_shard_ids("0,1") == {0, 1}
    assert parse_shard_ids("0-2, 5") == {0, 1, 2, 5}
    for bad in ("a", "3-1", "1-x"):
        with pytest.raises(ValueError, match="not a shard id"):
            parse_shard_ids(bad)


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "aaa.bbb.ccc")
    return monkeypatch


def test_settings_without_shards_own_everything(env: pytest.MonkeyPatch) -> None:
    assert load_settings(None).shards == ShardSet.whole()


def test_settings_with_shards(env: pytest.MonkeyPatch) -> None:
    env.setenv("SHARD_COUNT", "2")
    assert load_settings(None).shards == ShardSet.of(2)  # every shard: fine on SQLite
    env.setenv("SHARD_IDS", "1")
    env.setenv("DATABASE_URL", "postgresql://tablebot@db/tablebot")
    assert load_settings(None).shards == ShardSet.of(2, {1})


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "cannot share a SQLite file"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2", "DATABASE_URL": "postgresql://a@b/c"},
         "not below the shard count"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "not a shard id"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT is invalid"),
    ],
)
def test_bad_shard_settings(env: pytest.MonkeyPatch, values: dict[str, str], reason: str) -> None:
    for name, value in values.items():
        env.setenv(name, value)
    with pytest.raises(ConfigError, match=reason) as caught:
        load_settings(None)
    assert "\n" not in str(caught.value)
