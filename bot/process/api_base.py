"""Point discord.py at another Discord API base URL (a REST proxy, or the local test stand-in)."""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def apply_api_base(base_url: str | None) -> None:
    """Send REST calls to ``{base_url}/api/v10``; ``None`` keeps discord.com.

    The gateway address is whatever ``GET /gateway/bot`` answers, so only the REST base and the
    gateway fallback used after a failed resume need changing.
    """
    if not base_url:
        return
    base = base_url.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    gateway = yarl.URL(base).with_scheme("wss" if base.startswith("https") else "ws")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
