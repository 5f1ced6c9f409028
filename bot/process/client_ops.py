"""The client's side of operations (``bot.ops``): what only discord.py objects can tell.

:class:`TrackedTree` (the client's command tree) and :func:`handling` (also around every
table control, ``cogs.kit.custom_ids.Control``) set the log context of an interaction and count its
outcome; :func:`shard_states` and :func:`shard_latencies` read the gateway for ``/healthz``
and ``/metrics``.
"""

from __future__ import annotations

import math
from types import TracebackType
from typing import Any

import discord
from discord import app_commands

from bot.ops import log_context, outcomes
from bot.ops.health import Health
from bot.ops.metrics import METRICS, Metrics

_KINDS = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.autocomplete: "autocomplete",
    discord.InteractionType.modal_submit: "modal",
}


def interaction_kind(interaction: discord.Interaction[Any]) -> str:
    return _KINDS.get(interaction.type, "other")


class handling:
    """``with handling(interaction):`` around an interaction's handler: its guild, channel and
    shard go into the log context; at the end its outcome is counted (an exception that
    escapes counts as failed, cancellation too). A class, not a generator: every click enters
    one (issue 42)."""

    __slots__ = ("_bound", "_interaction")

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self._interaction = interaction
        guild = interaction.guild
        self._bound = log_context.bound(
            guild=interaction.guild_id, channel=interaction.channel_id,
            shard=guild.shard_id if guild is not None else None)

    def __enter__(self) -> None:
        self._bound.__enter__()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        interaction = self._interaction
        try:
            self._bound.__exit__(kind, error, trace)
        finally:
            if kind is not None:  # marked failed, then re-raised (cancellation too)
                outcomes.mark(interaction.extras, outcomes.FAILED)
            outcomes.finish(interaction.extras, interaction_kind(interaction))


class TrackedTree(app_commands.CommandTree[Any]):
    """The command tree, with every command and autocomplete run inside :func:`handling`."""

    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        with handling(interaction):
            await super()._call(interaction)


def shard_states(client: discord.Client) -> dict[int, bool]:
    """Shard id -> its gateway socket is open (shard 0 for an unsharded client)."""
    if isinstance(client, discord.AutoShardedClient):
        return {shard_id: not info.is_closed() for shard_id, info in client.shards.items()}
    ws = client.ws
    return {0: ws is not None and ws.open and not client.is_closed()}


def shard_latencies(client: discord.Client) -> dict[int, float]:
    """Shard id -> heartbeat latency in seconds (shards without a measure yet left out)."""
    if isinstance(client, discord.AutoShardedClient):
        pairs = list(client.latencies)
    else:
        pairs = [(0, client.latency)]
    return {shard: latency for shard, latency in pairs if math.isfinite(latency)}


def live_counts(client: Any) -> dict[tuple[str, str], int]:
    """(game, status) -> live sessions of this process (none before the manager exists)."""
    try:
        sessions = client.manager.live_sessions()
    except RuntimeError:
        return {}
    counts: dict[tuple[str, str], int] = {}
    for session in sessions:
        key = (session.game, str(session.status))
        counts[key] = counts.get(key, 0) + 1
    return counts


def publish_queue(client: Any) -> int:
    try:
        return int(client.manager.pending_changes())
    except RuntimeError:
        return 0


def attach(health: Health, client: Any, metrics: Metrics = METRICS) -> None:
    """Point ``/healthz`` and the scrape at ``client`` (a ``bot.process.client.TableBot``)."""

    async def database() -> None:
        store = client.store
        if store is None:
            raise RuntimeError("the store is not open")
        await store.query("SELECT 1")

    health.shards = lambda: shard_states(client)
    health.database = database
    metrics.watch(live=lambda: live_counts(client), latencies=lambda: shard_latencies(client),
                  publish_queue=lambda: publish_queue(client))
