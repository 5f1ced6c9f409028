"""An interaction's outcome, counted once when its handling ends.

A handler's run is "answered" unless it was refused (``cogs.client_services.refuse``: an
ephemeral "no", nothing changed) or failed (an unexpected error, ``cogs.kit.unexpected_errors``;
an error wins over a refusal). The marks live in the interaction's own ``extras`` dict
(discord.py's), so this module needs no Discord type.
"""

from __future__ import annotations

from collections.abc import MutableMapping

from bot.ops.metrics import ANSWERED, FAILED, METRICS, REFUSED, Metrics, add

_OUTCOME = "tablebot.outcome"
_COUNTED = "tablebot.counted"


def mark(extras: MutableMapping[str, object], outcome: str) -> None:
    """Record ``outcome`` (REFUSED or FAILED) for the interaction these extras belong to."""
    if extras.get(_OUTCOME) != FAILED:
        extras[_OUTCOME] = outcome


def finish(extras: MutableMapping[str, object], kind: str, metrics: Metrics = METRICS) -> str:
    """Count the interaction under ``kind`` and its outcome (once); returns the outcome."""
    outcome = str(extras.get(_OUTCOME, ANSWERED))
    if not extras.get(_COUNTED):
        extras[_COUNTED] = True
        add(metrics.child(metrics.interactions, kind=kind, outcome=outcome))
    return outcome


__all__ = ["ANSWERED", "FAILED", "REFUSED", "finish", "mark"]
