"""``bot.ops.metrics.add`` and ``observed`` write what prometheus_client's ``inc()`` and
``observe()`` write: the same series with the same values, on a registry of each. Fails if
prometheus_client changes the shape they rely on (``_value``, ``_sum``, ``_buckets``,
``_upper_bounds``)."""

from __future__ import annotations

import math

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from bot.ops.metrics import FAST_BUCKETS, add, observed

AMOUNTS = (0.0, 0.0005, 0.001, 0.0010001, 0.0025, 0.07, 1.0, 2.5, 2.6, 1e9, math.inf, math.nan,
           -1.0)


def _metrics(registry: CollectorRegistry) -> tuple[Counter, Counter, Histogram, Histogram]:
    return (Counter("plain", "a counter", registry=registry),
            Counter("labelled", "a labelled counter", ["route"], registry=registry),
            Histogram("timed", "a histogram", buckets=FAST_BUCKETS, registry=registry),
            Histogram("timed_by", "a labelled histogram", ["game"], buckets=FAST_BUCKETS,
                      registry=registry))


def _without_created(text: bytes) -> list[str]:
    return [line for line in text.decode().splitlines() if "_created" not in line]


def test_add_and_observed_write_what_inc_and_observe_write() -> None:
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    plain, labelled, timed, timed_by = _metrics(ours)
    plain_, labelled_, timed_, timed_by_ = _metrics(theirs)
    for n in range(3):
        add(plain)
        plain_.inc()
        add(labelled.labels(route=f"r{n % 2}"))
        labelled_.labels(route=f"r{n % 2}").inc()
    for amount in AMOUNTS:
        observed(timed, amount)
        timed_.observe(amount)
        observed(timed_by.labels(game="ten"), amount)
        timed_by_.labels(game="ten").observe(amount)
    assert _without_created(generate_latest(ours)) == _without_created(generate_latest(theirs))
    assert ours.get_sample_value("timed_bucket", {"le": "0.001"}) == 4.0  # -1, 0, 0.0005, 0.001
    assert ours.get_sample_value("plain_total") == 3.0
