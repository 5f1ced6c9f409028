"""The process's Prometheus metrics, on a registry of their own (:data:`METRICS`).

The hooks where things happen (interactions, the store, the pictures, the expert, the REST
trace, the lease) count into :data:`METRICS`; what is a state rather than an event (live
sessions, gateway latency) is read at scrape time from the sources the client registers
(:meth:`Metrics.watch`). ``docs/operations.md`` says what each one means.

The click path's counts go through :func:`add` and :func:`observed` (issue 42): they write a
counter's or a histogram's values as ``inc()`` and ``observe()`` write them (the same series,
the same values), without prometheus_client's checks that the metric is not a labelled parent
(every caller passes an unlabelled metric or a child, made once). They read
prometheus_client's ``_value``, ``_sum``, ``_buckets`` and ``_upper_bounds``:
``tests/bot/test_metrics_writes.py`` fails if that shape changes.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.registry import Collector

# Interaction kinds and outcomes (labels of ``tablebot_interactions_total``).
KINDS = ("command", "component", "autocomplete")
ANSWERED, REFUSED, FAILED = "answered", "refused", "failed"
OUTCOMES = (ANSWERED, REFUSED, FAILED)

# Seconds; Discord allows 3 s for the first answer to an interaction.
ACK_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
WORK_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.0, 5.0)

LiveCounts = Callable[[], Mapping[tuple[str, str], int]]  # (game, status) -> sessions
ShardLatencies = Callable[[], Mapping[int, float]]  # shard id -> seconds (nan: unknown)
Depth = Callable[[], int]
_Labelled = TypeVar("_Labelled", bound=MetricWrapperBase)
# Labelled children held (:meth:`Metrics.child`): every label set the process uses is a few
# dozen (kinds, outcomes, games, routes); past this many, children are looked up each time.
CHILDREN_KEPT = 1024


@dataclass
class _Sources:
    """What the scrape reads from the running client (nothing before it registered)."""

    live: LiveCounts | None = None
    latencies: ShardLatencies | None = None
    publish_queue: Depth | None = None


class _StateCollector(Collector):
    def __init__(self, sources: _Sources) -> None:
        self._sources = sources

    def collect(self) -> Iterator[Metric]:
        live = GaugeMetricFamily(
            "tablebot_live_sessions", "Sessions held by this process, by game and status",
            labels=["game", "status"],
        )
        if self._sources.live is not None:
            for (game, status), count in sorted(self._sources.live().items()):
                live.add_metric([game, status], count)
        yield live
        latency = GaugeMetricFamily(
            "tablebot_gateway_latency_seconds",
            "Time between a gateway heartbeat and its acknowledgement, per shard",
            labels=["shard"],
        )
        if self._sources.latencies is not None:
            for shard, seconds in sorted(self._sources.latencies().items()):
                latency.add_metric([str(shard)], seconds)
        yield latency
        queue = GaugeMetricFamily(
            "tablebot_publish_queue", "Stored changes waiting for their channel posts",
        )
        queue.add_metric([], self._sources.publish_queue() if self._sources.publish_queue else 0)
        yield queue


class Metrics:
    """Every metric of the process; ``render()`` is the ``/metrics`` body."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.started = time.time()
        self._sources = _Sources()
        self._children: dict[tuple[Any, ...], Any] = {}  # (metric, labels...) -> child
        r = self.registry
        self.interactions = Counter(
            "tablebot_interactions", "Interactions handled, by kind and outcome",
            ["kind", "outcome"], registry=r,
        )
        self.ack_latency = Histogram(
            "tablebot_interaction_ack_seconds",
            "From the interaction's creation (its id's time) to the bot's first answer",
            buckets=ACK_BUCKETS, registry=r,
        )
        self.actions_stored = Counter(
            "tablebot_actions_stored", "Game actions written to the action log", ["game"],
            registry=r,
        )
        self.games_finished = Counter(
            "tablebot_games_finished", "Games played to their end", ["game"], registry=r,
        )
        self.store_write = Histogram(
            "tablebot_store_write_seconds",
            "Session writes (an action with its snapshot, or a session row), until committed",
            buckets=FAST_BUCKETS, registry=r,
        )
        self.rest_calls = Counter(
            "tablebot_rest_calls",
            "HTTP requests to Discord's REST API (each attempt), by route and whether"
            " Discord's global rate limit counts them",
            ["route", "global_limit"], registry=r,
        )
        self.rate_limited = Counter(
            "tablebot_rest_429", "429 answers from Discord, by scope (user, global, shared)",
            ["scope"], registry=r,
        )
        self.global_calls = Counter(
            "tablebot_global_calls",
            "Requests Discord's global rate limit counts (every route but the interaction"
            " endpoints; each attempt, retries included)", registry=r,
        )
        self.global_budgeted = Counter(
            "tablebot_global_budget_started",
            "Globally-limited requests started through the process's budget"
            " (GLOBAL_RATE_SHARE)", registry=r,
        )
        self.global_waited = Counter(
            "tablebot_global_budget_waited",
            "Globally-limited requests that waited for a slot of the budget", registry=r,
        )
        self.global_merged = Counter(
            "tablebot_global_budget_merged",
            "Waiting edits of a message that a newer edit of it replaced (requests saved)",
            registry=r,
        )
        self.picture_render = Histogram(
            "tablebot_picture_render_seconds", "Drawing one table or hand picture",
            buckets=WORK_BUCKETS, registry=r,
        )
        self.expert_decision = Histogram(
            "tablebot_expert_decision_seconds", "One machine move of a pooled level, awaited",
            ["game"], buckets=WORK_BUCKETS, registry=r,
        )
        self.expert_in_progress = Gauge(
            "tablebot_expert_decisions_in_progress", "Expert searches (moves, hints) in the pool",
            registry=r,
        )
        self.pictures_drawn = Counter(
            "tablebot_pictures_drawn", "Pictures a worker drew, by kind (table, hand, final)",
            ["kind"], registry=r,
        )
        self.pictures_skipped = Counter(
            "tablebot_pictures_skipped",
            "Pictures not drawn: the game had left their version when a worker was free",
            ["kind"], registry=r,
        )
        self.pictures_in_progress = Gauge(
            "tablebot_pictures_in_progress", "Pictures being drawn (or waiting for a worker)",
            registry=r,
        )
        self.failovers = Counter(
            "tablebot_failovers", "Leases taken after standing by (this process took over)",
            registry=r,
        )
        self.lease_losses = Counter(
            "tablebot_lease_losses", "Leases of this process's shard set lost", registry=r,
        )
        self.registry.register(_StateCollector(self._sources))
        # process_resident_memory_bytes, process_cpu_seconds_total, open fds, start time.
        ProcessCollector(registry=r)

    def watch(self, *, live: LiveCounts | None = None, latencies: ShardLatencies | None = None,
              publish_queue: Depth | None = None) -> None:
        """Register where the scrape reads live sessions, gateway latencies, the queue."""
        if live is not None:
            self._sources.live = live
        if latencies is not None:
            self._sources.latencies = latencies
        if publish_queue is not None:
            self._sources.publish_queue = publish_queue

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def value(self, name: str, labels: Mapping[str, str] | None = None) -> float:
        """A sample's current value (0 when absent), e.g. ``value("tablebot_rest_429_total")``."""
        found = self.registry.get_sample_value(name, dict(labels or {}))
        return 0.0 if found is None else found

    def total(self, name: str) -> float:
        """The sum of a sample over all its labels (e.g. every route's REST calls)."""
        return sum(
            sample.value
            for metric in self.registry.collect()
            for sample in metric.samples
            if sample.name == name
        )

    def timed(self, histogram: Histogram, **labels: str) -> _Timed:
        """Observe the seconds the block took (also when it raised)."""
        return _Timed(self.child(histogram, **labels) if labels else histogram)

    def child(self, metric: _Labelled, **labels: str) -> _Labelled:
        """``metric.labels(**labels)``, looked up once per label set (prometheus_client checks
        and joins the labels on every call: issue 42 holds the child)."""
        key = (metric, *labels.items())
        found = self._children.get(key)
        if found is None:
            found = metric.labels(**labels)
            if len(self._children) < CHILDREN_KEPT:
                self._children[key] = found
        return found


def add(counter: Counter) -> None:
    """``counter.inc()`` for an unlabelled counter or a labelled one's child (see the module's
    doc)."""
    counter._value.inc(1)


def observed(histogram: Histogram, amount: float) -> None:
    """``histogram.observe(amount)`` for an unlabelled histogram or a labelled one's child:
    the sum, then the first bucket whose bound is at least ``amount`` (none for a NaN)."""
    histogram._sum.inc(amount)
    bounds = histogram._upper_bounds
    i = bisect_left(bounds, amount)
    if i < len(bounds) and amount <= bounds[i]:
        histogram._buckets[i].inc(1)


class _Timed:
    """:meth:`Metrics.timed`'s block: a class, not a generator (every stored change has one)."""

    __slots__ = ("_started", "_target")

    def __init__(self, target: Histogram) -> None:
        self._target = target
        self._started = 0.0

    def __enter__(self) -> None:
        self._started = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        observed(self._target, time.perf_counter() - self._started)


METRICS = Metrics()
