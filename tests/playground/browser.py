"""Driving ``python -m bot.playground`` from a real browser: Debian's Chromium through
Playwright (never a downloaded browser), one page per player, each acting by clicking what
its page shows."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.players import ACT_ID, HAND_ID, Choice

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # One tab per player: the tabs behind must keep drawing (Playwright waits for animation
    # frames before a click, and Chromium all but stops them in a background tab).
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
]
OPEN_LINE = re.compile(r"open (http://127\.0\.0\.1:\d+/)")
PING_MARK = "your turn in"
CLICK_MS = 1000  # then a control still moving gets a DOM click, one gone is looked for again
STEP_SECONDS = 15.0  # how long the page may take to show what a click changed
IDLE_SECONDS = 30.0  # longest a game may show nobody anything to do

TRACE = bool(os.environ.get("PLAYGROUND_TRACE"))  # print each step of a game

Rank = Callable[[Choice], int | None]


@contextmanager
def playground(data: Path, *args: str) -> Iterator[str]:
    """``python -m bot.playground --port 0`` running; its page's address."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.playground", "--port", "0", "--data", str(data), *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=data,
    )
    assert proc.stdout is not None
    seen: list[str] = []
    try:
        for line in proc.stdout:
            seen.append(line)
            found = OPEN_LINE.search(line)
            if found:
                assert "127.0.0.1 only" in line, line  # it says it binds to loopback alone
                yield found[1]
                break
        else:
            raise AssertionError(f"the playground did not start:\n{''.join(seen)}")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def browser() -> Iterator[BrowserContext]:
    with sync_playwright() as driver, tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1100, "height": 860},
        )
        try:
            yield context
        finally:
            context.close()


def open_as(context: BrowserContext, url: str, name: str) -> Page:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{url}?as={name}")
    page.wait_for_selector("#channels li")
    page.errors = errors  # type: ignore[attr-defined]
    return page


def slash(page: Page, command: str, **options: str) -> None:
    """Type ``/command``, pick it from the suggestions, fill its options, send."""
    page.fill("#entry", f"/{command[:-1]}")
    page.click(f"#suggestions div[data-path='{command}']")
    for name, value in options.items():
        field = page.locator(f"label[data-option='{name}']").locator("input, select")
        if field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.click("#send")


def click_button(page: Page, label: str) -> None:
    page.locator(".msg .btn", has_text=label).last.click()


# One look at a tab, in one round trip: what the game loop needs.
LOOK = """(mark) => {
  const msgs = [...document.querySelectorAll('#messages .msg')];
  const pings = msgs.filter((m) => m.textContent.includes(mark));
  const ping = pings.length ? pings[pings.length - 1] : null;
  const controls = msgs.flatMap((msg) => {
    const out = [];
    for (const b of msg.querySelectorAll('button.btn[data-custom-id]:not(:disabled)'))
      out.push({id: b.dataset.customId, label: b.dataset.label, values: null, ph: ''});
    for (const s of msg.querySelectorAll('select.sel[data-custom-id]:not(:disabled)'))
      for (const o of s.options) if (o.value)
        out.push({id: s.dataset.customId, label: o.textContent, values: [o.value],
                  ph: s.options[0].textContent});
    for (const m of msg.querySelectorAll('.multi[data-custom-id]')) {
      const picked = [...m.querySelectorAll('input:checked')];
      out.push({id: m.dataset.customId, label: picked.map(i => i.parentNode.textContent.trim())
        .join(' '), values: picked.map(i => i.value),
        ph: m.querySelector('.placeholder').textContent});
    }
    return out.map((c) => ({...c, message: msg.dataset.id}));
  });
  return {
    over: msgs.some((m) => [...m.querySelectorAll('button.btn')]
      .some((b) => b.dataset.label === 'Rematch')),
    awaited: !!ping && ping.classList.contains('mentioned'),
    ping: ping ? ping.dataset.id : '0',
    controls,
    text: document.getElementById('messages').innerText,
  };
}"""


@dataclass(frozen=True)
class Look:
    over: bool  # a final post (Rematch) shows
    awaited: bool  # the newest turn ping mentions this tab's member
    ping: int  # the newest turn ping's message id (0: none)
    controls: list[Choice]  # every enabled control, as the e2e tests' Choice (their ranks)
    text: str


def look(page: Page) -> Look:
    data = page.evaluate(LOOK, PING_MARK)
    return Look(data["over"], data["awaited"], int(data["ping"]), [
        Choice(int(c["message"]), c["id"], c["label"], c["ph"],
               None if c["values"] is None else tuple(c["values"]))
        for c in data["controls"]], data["text"])


def use(page: Page, choice: Choice) -> bool:
    """Click or choose it; False when the message went meanwhile (the bot moved the ping).

    A control whose message is still moving (a new picture loading above it) after
    ``CLICK_MS`` gets its click as a DOM event instead of a mouse click."""
    message = page.locator(f".msg[data-id='{choice.message_id}']")
    select = message.locator(f"select[data-custom-id='{choice.custom_id}']")
    if choice.values is not None and select.count():
        target = select
    elif choice.values is None:
        target = message.locator(f"button[data-custom-id='{choice.custom_id}']")
    else:
        target = message.locator(f".multi[data-custom-id='{choice.custom_id}'] button")
    try:
        if target is select:
            assert choice.values is not None
            target.select_option(choice.values[0], timeout=CLICK_MS)
        else:
            target.click(timeout=CLICK_MS)
        return True
    except PlaywrightTimeout:
        pass
    try:
        if target is select:
            assert choice.values is not None
            target.select_option(choice.values[0], timeout=CLICK_MS, force=True)
        else:
            target.dispatch_event("click", timeout=CLICK_MS)
    except PlaywrightTimeout as err:
        if TRACE:
            print(str(err)[-600:])
        return False
    return True


def snapshot(page: Page) -> str:
    return page.locator("#messages").inner_text()


def wait_change(page: Page, before: str) -> bool:
    """Whether the tab shows something new within ``STEP_SECONDS`` (a view opened again may
    look just as before)."""
    deadline = time.monotonic() + STEP_SECONDS
    while time.monotonic() < deadline:
        if snapshot(page) != before:
            return True
        page.wait_for_timeout(50)
    return False


def version_of(choice: Choice) -> int:
    found = ACT_ID.fullmatch(choice.custom_id)
    return int(found["version"]) if found else -1


def play_to_the_end(pages: dict[str, Page], rank: Rank, *, max_steps: int = 400,
                    on_step: Callable[[], None] | None = None) -> int:
    """Until a final post (Rematch) shows: the player whose turn the live ping names acts on
    the newest controls in their tab (the ping's, the table's or their private view's; opening
    it from the ping when none is a move). Returns the number of clicks."""
    clicks = 0
    idle_since = time.monotonic()
    while True:
        looks = {name: look(page) for name, page in pages.items()}
        if any(seen.over for seen in looks.values()):
            return clicks
        assert clicks < max_steps, "the game did not end"
        assert time.monotonic() - idle_since < IDLE_SECONDS, (
            f"nothing to do for {IDLE_SECONDS}s:\n{next(iter(looks.values())).text[-1500:]}")
        name = next((name for name, seen in looks.items() if seen.awaited), None)
        if name is None:
            next(iter(pages.values())).wait_for_timeout(100)
            continue
        actor, seen = pages[name], looks[name]
        newest = max((version_of(c) for c in seen.controls), default=-1)
        usable = [c for c in seen.controls if version_of(c) == newest and rank(c) is not None]
        if usable:
            best = min(rank(c) or 0 for c in usable)
            chosen = next(c for c in usable if rank(c) == best)
        else:
            openers = [c for c in seen.controls if c.message_id == seen.ping
                       and (c.payload == "panel" or HAND_ID.fullmatch(c.custom_id))]
            if not openers:  # the ping moved while we looked
                actor.wait_for_timeout(100)
                continue
            chosen = openers[0]
        started = time.monotonic()
        used = use(actor, chosen)
        clicks += 1
        changed = used and wait_change(actor, seen.text)
        if TRACE:
            print(f"step {clicks}: {chosen.label!r} {chosen.custom_id} used={used} "
                  f"changed={changed} {time.monotonic() - started:.2f}s", flush=True)
        if on_step is not None:
            on_step()
        idle_since = time.monotonic()
