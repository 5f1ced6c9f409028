"""Discord's REST rate limits: per-route buckets and the global limit, answered with 429.

Modelled on Discord's documentation (topics/rate-limits) and on what discord.py 2.x reads:

* Every limited answer carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch
  seconds), ``-Reset-After`` (seconds) and ``-Bucket`` (an opaque hash shared by routes that
  share a limit). discord.py keys its buckets by that hash and the route's major parameter
  (channel, guild, webhook) and waits before sending once ``Remaining`` reaches 0.
* A 429 carries ``Retry-After`` and ``X-RateLimit-Scope`` (``user`` for a route's bucket,
  ``global`` for the global limit, plus ``X-RateLimit-Global: true``) and the JSON body
  ``{"message", "retry_after", "global", "code"}``. discord.py sleeps ``retry_after`` and
  retries (up to 5 tries); it treats a 429 without a ``Via`` header as a Cloudflare ban and
  raises, so the stand-in sends ``Via`` as Discord's edge does.
* Message posts and edits in one channel share one bucket (5 per 5 s by default); deletes have
  their own (5 per 1 s); any other route has a roomy bucket of its own (50 per 1 s) per major
  parameter. All of them together are under the global limit (50 per 1 s).
* Interaction callbacks and the interaction webhooks (follow-ups, ``@original`` edits) are not
  bound to the global limit (Discord: "interaction endpoints are not bound to the bot's global
  rate limit") and not to the channel's message bucket. Their per-route limits (Discord
  limits routes one by one, these included) are off unless ``Limits.token_writes`` is set: then
  the writes of one interaction token (follow-ups, edits and deletions of its messages) share
  a bucket of that many requests per ``token_window`` (a test of the bot's 429 handling on
  those routes; by default they are not limited at all).

Windows are fixed, as Discord's are: a bucket's window starts with its first request and
``Remaining`` is refilled when it ends.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

UNLIMITED = re.compile(r"/api/v10/(interactions|webhooks)/")
TOKEN_WRITE = re.compile(r"/api/v10/webhooks/\d+/(?P<token>[^/]+)(/messages/[^/]+)?")
CHANNEL_MESSAGE_WRITE = re.compile(r"/api/v10/channels/(?P<major>\d+)/messages(/\d+)?")


def counts_globally(path: str) -> bool:
    """Whether Discord's global limit counts a request to ``path`` (an API route that is not
    an interaction endpoint)."""
    return path.startswith("/api/") and not UNLIMITED.match(path)


@dataclass(frozen=True)
class Limits:
    """Requests per window (seconds) of each kind of bucket."""

    channel_writes: int = 5
    channel_window: float = 5.0
    deletes: int = 5
    delete_window: float = 1.0
    other: int = 50
    other_window: float = 1.0
    global_limit: int = 50
    global_window: float = 1.0
    token_writes: int = 0  # requests per token_window on one interaction token (0: unlimited)
    token_window: float = 1.0


@dataclass
class Window:
    limit: int
    period: float
    remaining: int = 0
    resets_at: float = 0.0

    def take(self, now: float) -> float:
        """Use one request; 0.0 when allowed, else the seconds until the window ends."""
        if now >= self.resets_at:
            self.remaining = self.limit
            self.resets_at = now + self.period
        if self.remaining <= 0:
            return self.resets_at - now
        self.remaining -= 1
        return 0.0


@dataclass(frozen=True)
class Verdict:
    """What the limiter says about one request: the headers to send, and 429 or not."""

    headers: dict[str, str]
    retry_after: float = 0.0
    scope: str = ""  # "user" or "global" when limited
    bucket: str = ""

    @property
    def limited(self) -> bool:
        return self.retry_after > 0

    def body(self) -> dict[str, object]:
        return {
            "message": "You are being rate limited.",
            "retry_after": round(self.retry_after, 3),
            "global": self.scope == "global",
            "code": 0,
        }


@dataclass
class RateLimiter:
    limits: Limits = field(default_factory=Limits)
    enabled: bool = True
    windows: dict[tuple[str, str], Window] = field(default_factory=dict)
    global_window: Window | None = None
    # 429s answered, per bucket name ("global" for the global limit).
    limited: Counter[str] = field(default_factory=Counter)
    clock: Callable[[], float] = time.monotonic  # replaced in tests of the limiter

    def bucket_of(self, method: str, path: str, template: str) -> tuple[str, str, int, float]:
        """(bucket name, major parameter, limit, window) of a limited route."""
        limits = self.limits
        found = CHANNEL_MESSAGE_WRITE.fullmatch(path)
        if found and method in ("POST", "PATCH") and (method == "PATCH") == bool(found[2]):
            return "channel-messages", found["major"], limits.channel_writes, limits.channel_window
        if found and method == "DELETE" and found[2]:
            return "message-delete", found["major"], limits.deletes, limits.delete_window
        major = re.search(r"/(channels|guilds)/(\d+)", path)
        name = f"{method} {template}"
        return name, major[2] if major else "", limits.other, limits.other_window

    def check(self, method: str, path: str, template: str) -> Verdict | None:
        """The verdict for one bot request, or None for routes Discord does not limit."""
        if not self.enabled:
            return None
        if not counts_globally(path):
            return self._token_check(path)
        now = self.clock()
        if self.global_window is None:
            self.global_window = Window(self.limits.global_limit, self.limits.global_window)
        name, major, limit, period = self.bucket_of(method, path, template)
        window = self.windows.setdefault((name, major), Window(limit, period))
        # A request refused by its route's bucket does not use up the global limit.
        wait = window.take(now)
        if not wait:
            global_wait = self.global_window.take(now)
            if global_wait:
                window.remaining += 1  # it was not served
                self.limited["global"] += 1
                return Verdict(self._global_headers(global_wait), global_wait, "global", "global")
        headers = self._bucket_headers(name, window, now)
        if wait:
            self.limited[name] += 1
            headers.update(
                {
                    "Retry-After": str(math.ceil(wait)),
                    "X-RateLimit-Scope": "user",
                    "Via": "1.1 google",
                }
            )
            return Verdict(headers, wait, "user", name)
        return Verdict(headers, bucket=name)

    def _token_check(self, path: str) -> Verdict | None:
        """The verdict for a write with an interaction token, when those are limited
        (``Limits.token_writes``); not under the global limit."""
        limits = self.limits
        found = TOKEN_WRITE.fullmatch(path)
        if limits.token_writes <= 0 or found is None:
            return None
        now = self.clock()
        name = "token-writes"
        window = self.windows.setdefault((name, found["token"]),
                                         Window(limits.token_writes, limits.token_window))
        wait = window.take(now)
        headers = self._bucket_headers(name, window, now)
        if not wait:
            return Verdict(headers, bucket=name)
        self.limited[name] += 1
        headers.update({"Retry-After": str(math.ceil(wait)), "X-RateLimit-Scope": "user",
                        "Via": "1.1 google"})
        return Verdict(headers, wait, "user", name)

    @property
    def total_limited(self) -> int:
        return sum(self.limited.values())

    def reset(self) -> None:
        self.windows.clear()
        self.global_window = None
        self.limited.clear()

    @staticmethod
    def _bucket_headers(name: str, window: Window, now: float) -> dict[str, str]:
        reset_after = max(0.0, window.resets_at - now)
        return {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(max(0, window.remaining)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(name.encode()).hexdigest()[:16],
        }

    @staticmethod
    def _global_headers(wait: float) -> dict[str, str]:
        return {
            "Retry-After": str(math.ceil(wait)),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
            "Via": "1.1 google",
        }
