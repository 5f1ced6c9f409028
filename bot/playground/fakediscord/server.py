"""The aiohttp application: gateway websocket and REST routes on 127.0.0.1 at a free port."""

from __future__ import annotations

from aiohttp import web

from bot.playground.fakediscord.gateway import Gateway
from bot.playground.fakediscord.rest import RestApi
from bot.playground.fakediscord.world import World


def build_app(world: World, gateway: Gateway, rest: RestApi) -> web.Application:
    app = web.Application(middlewares=[rest.middleware], client_max_size=64 * 1024 * 1024)
    # discord.py connects to whatever /gateway/bot names (we answer the bare origin) and, after
    # an invalidated session, to DEFAULT_GATEWAY, which bot.process.api_base sets to the same
    # origin.
    app.router.add_get("/", gateway.handle)
    app.router.add_get("/gateway", gateway.handle)
    app.router.add_routes(rest.routes())
    return app


class StandInServer:
    def __init__(self, world: World, gateway: Gateway, rest: RestApi) -> None:
        self.world = world
        self.gateway = gateway
        self.rest = rest
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        # A fresh application each time: an aiohttp app cannot be set up again after cleanup.
        app = build_app(self.world, self.gateway, self.rest)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        bound = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self.base_url = f"http://{host}:{bound}"
        self.world.base_url = self.base_url
        return self.base_url

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
