"""The operations endpoint (``HTTP_PORT``, bound to ``HTTP_HOST``; off by default):
``GET /healthz`` (``bot.ops.health``) and ``GET /metrics`` (Prometheus' text format,
``bot.ops.metrics``)."""

from __future__ import annotations

import logging

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.ops.health import Health
from bot.ops.metrics import Metrics

log = logging.getLogger(__name__)


def make_app(health: Health, metrics: Metrics) -> web.Application:
    async def healthz(_request: web.Request) -> web.Response:
        status, body = await health.check()
        return web.json_response(body, status=status, headers={"Cache-Control": "no-store"})

    async def metrics_page(_request: web.Request) -> web.Response:
        return web.Response(body=metrics.render(),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_page)
    return app


async def serve(health: Health, metrics: Metrics, host: str, port: int) -> web.AppRunner:
    """Start serving; ``await runner.cleanup()`` stops it. OSError when the port is taken."""
    runner = web.AppRunner(make_app(health, metrics), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except BaseException:  # cleaned up, then re-raised (cancellation too)
        await runner.cleanup()
        raise
    for address in runner.addresses:  # the port really bound (HTTP_PORT=0: a free one)
        if isinstance(address, tuple) and len(address) >= 2:
            log.info("operations endpoint on http://%s:%d (/healthz, /metrics)",
                     address[0], address[1])
    return runner
