"""The operations endpoint of a ``BotProcess`` started with ``HTTP_PORT=0``: its address (from
the bot's log line), ``/healthz`` and ``/metrics`` read over HTTP."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.playground.botproc import BotProcess

ENDPOINT = re.compile(r"operations endpoint on (http://[0-9.]+:[0-9]+)")
OPS_ENV = {"HTTP_PORT": "0"}
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def endpoint_of(bot: BotProcess, timeout: float = 20.0) -> str:
    await bot.wait_until(lambda: ENDPOINT.search(bot.log_text()), timeout,
                         "the operations endpoint's log line")
    found = ENDPOINT.search(bot.log_text())
    assert found is not None
    return found[1]


async def healthz(base: str) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(f"{base}/healthz") as answer:
        return answer.status, await answer.json()


async def scrape(base: str) -> Samples:
    async with aiohttp.ClientSession() as http, http.get(f"{base}/metrics") as answer:
        assert answer.status == 200
        text = await answer.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum over every sample of ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, found), v in samples.items() if n == name and wanted <= set(found))


async def until(probe: Callable[[], Any], accept: Callable[[Any], bool], timeout: float,
                what: str, bot: BotProcess) -> Any:
    """Ask ``probe()`` (a coroutine function) again until ``accept`` takes its answer."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        if not bot.running:
            raise AssertionError(f"bot exited while waiting for {what}\n{bot.log_text()}")
        last = await probe()
        if accept(last):
            return last
        await asyncio.sleep(0.2)
    raise TimeoutError(f"no {what} within {timeout} s (last answer {last})\n{bot.log_text()}")
