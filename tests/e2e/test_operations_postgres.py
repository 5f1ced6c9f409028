"""Issue 30 on PostgreSQL (``TEST_DATABASE_URL``; skips without a server, fails in CI): a
standby's ``/healthz`` answers 200 with ``"role": "standby"``; once the owner is killed it takes
the lease, answers as the owner, and counts the failover."""

from __future__ import annotations

from pathlib import Path

from bot.playground.botproc import BotProcess
from bot.playground.fakediscord import FakeDiscord
from tests.e2e.ops_support import OPS_ENV, endpoint_of, healthz, scrape, until, value
from tests.e2e.test_shards_failover import pg_url, wait_log

__all__ = ["pg_url"]  # the fixture


async def test_a_standby_is_healthy_and_takes_over_as_the_owner(
    guild: FakeDiscord, pg_url: str, tmp_path: Path
) -> None:
    env = {**OPS_ENV, "DATABASE_URL": pg_url}
    owner = BotProcess(guild, tmp_path / "owner", extra_env=env)
    standby = BotProcess(guild, tmp_path / "standby", extra_env=env)
    try:
        await owner.start()
        owner_base = await endpoint_of(owner)
        _, body = await until(lambda: healthz(owner_base), lambda a: a[0] == 200, 10.0,
                                   "the owner healthy", owner)
        assert body["role"] == "owner" and body["database"] == "ok", body

        await standby.start(wait_ready=False)
        await wait_log(standby, "standing by", 20.0, "the standby")
        base = await endpoint_of(standby)
        assert await healthz(base) == (200, {"role": "standby", "status": "ok"})
        assert value(await scrape(base), "tablebot_failovers_total") == 0

        await owner.kill()
        await standby.wait_until(standby.connected, 20.0, "the standby to connect")
        _, body = await until(lambda: healthz(base), lambda a: a[0] == 200
                                   and a[1]["role"] == "owner", 20.0, "the new owner", standby)
        assert body == {"role": "owner", "shards": {"0": "connected"}, "database": "ok",
                        "status": "ok"}
        samples = await scrape(base)
        assert value(samples, "tablebot_failovers_total") == 1
        assert value(samples, "tablebot_lease_losses_total") == 0
    finally:
        await owner.close()
        await standby.close()
