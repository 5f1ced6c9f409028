"""What one click costs in calls: a SPLIT discard and a TEN buy (choosing the card, then paying
for it), each clicked in a player's private view, in process (the real manager and store, the
game UIs, the table's listeners; Discord faked by ``tests.fakes``).

A profiler hook (``sys.setprofile``) counts, from the component's callback to its return (the
clicker's answer), every call of a function of ``game/``, ``bot/`` or ``cogs/`` made for the
click (comprehensions left out; a coroutine counted once, not at each resume), and
how many of those calls cross a layer boundary (the nearest calling project function is in
another of the three layers). The manager's listeners run afterwards in the session's publish
worker; their calls are counted apart, until every change is delivered.

Also counted, in both parts: the gate (``bot.sessions.transitions.check_move``: status, seat,
version and turn, one check each), the manager's pre-gate (``SessionManager.check_move``, gone
since issue 28), ``engine.awaiting`` and ``engine.legal_actions`` (asked from outside
``game/``), ``Session.seat_of``, and the database writes (store calls that write).

    python -m bench.click_path

Prints figures only: nothing is asserted (``tests/`` checks behaviour).
"""

from __future__ import annotations

import asyncio
import dis
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from bench._common import machine_line, table

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {str(ROOT / name) + "/": name for name in ("game", "bot", "cogs")}
COMPREHENSIONS = {"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>"}
COROUTINE = 0x80 | 0x20 | 0x200  # CO_COROUTINE | CO_GENERATOR | CO_ASYNC_GENERATOR
# (function name, file's layer) -> the column it is counted in
WATCHED = {
    ("check_move", "bot"): "gate",
    ("awaiting", "game"): "awaiting",
    ("legal_actions", "game"): "legal_actions",
    ("legal_for", "game"): "legal_actions",
    ("seat_of", "bot"): "seat_of",
    ("record_action", "bot"): "db writes",
    ("save_session", "bot"): "db writes",
}
WRITES = {"record_action", "save_session"}


def _layer(code: CodeType) -> str | None:
    name = code.co_filename
    for prefix, layer in LAYERS.items():
        if name.startswith(prefix):
            return layer
    return None


_FIRST: dict[CodeType, int] = {}


def _first_resume(code: CodeType) -> int:
    found = _FIRST.get(code)
    if found is None:
        found = next((i.offset for i in dis.get_instructions(code) if i.opname == "RESUME"), 0)
        _FIRST[code] = found
    return found


@dataclass
class Tally:
    calls: int = 0
    crossings: int = 0
    files: set[str] = field(default_factory=set)
    watched: Counter[str] = field(default_factory=Counter)


LISTENING = ("publish-", "autoplay-")  # the tasks of the manager's listeners


_PARENTS: dict[asyncio.Task[Any], asyncio.Task[Any] | None] = {}


def _task_factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
    """Tasks as usual, each remembering the task that created it (a store write started by
    a listener counts as the listener's)."""
    task = asyncio.Task(coro, loop=loop, **kwargs)
    _PARENTS[task] = asyncio.current_task(loop)
    return task


def _listening() -> bool:
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return False
    while task is not None:
        if task.get_name().startswith(LISTENING):
            return True
        task = _PARENTS.get(task)
    return False


class Counting:
    """The profiler hook: one tally for the click (its task, and the store's task that writes
    its change), one for the listeners (the session's publish worker, the machine seats)."""

    def __init__(self) -> None:
        self.click = Tally()
        self.listeners = Tally()

    def __call__(self, frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        code = frame.f_code
        layer = _layer(code)
        if layer is None or code.co_name in COMPREHENSIONS:
            return
        if code.co_flags & COROUTINE and frame.f_lasti > _first_resume(code):
            return  # a coroutine resumed, not called
        tally = self.listeners if _listening() else self.click
        tally.calls += 1
        tally.files.add(code.co_filename)
        caller = frame.f_back
        while caller is not None and _layer(caller.f_code) is None:
            caller = caller.f_back
        if caller is not None and _layer(caller.f_code) != layer:
            tally.crossings += 1
        column = WATCHED.get((code.co_name, layer))
        if layer == "game" and caller is not None and _layer(caller.f_code) == "game":
            column = None  # an engine's own inner call: counted once, where the game is asked
        if column == "gate" and "transitions" not in code.co_filename:
            column = "pre-gate"
        if column is not None:
            tally.watched[column] += 1


COLUMNS = ("gate", "pre-gate", "awaiting", "legal_actions", "seat_of", "db writes")


async def measure(press: Callable[[], Awaitable[None]], manager: Any) -> Counting:
    """Count one click (``press``), then its listeners until every change is delivered."""
    counting = Counting()
    asyncio.get_running_loop().set_task_factory(_task_factory)
    sys.setprofile(counting)
    try:
        await press()
        await manager.settle()
    finally:
        sys.setprofile(None)
        asyncio.get_running_loop().set_task_factory(None)
        _PARENTS.clear()
    return counting


# --- the games ----------------------------------------------------------------------------------


async def _setup(directory: Path, game: str) -> tuple[Any, Any, Any, Any]:
    from bot.automation.autoplay import Autoplay
    from bot.automation.turn_clock import TurnClock
    from bot.records.session import Seat
    from bot.reviews.pool import ReviewPool
    from bot.reviews.reviewer import Reviewer
    from bot.sessions.manager import SessionManager
    from bot.store import open_store
    from cogs.features import Feature, Place
    from cogs.listeners.table_publisher import TablePublisher
    from cogs.listeners.turn_ping import TurnPing
    from cogs.split import SplitUI
    from cogs.table.extension import listeners
    from cogs.ten import TenUI
    from game.registry import engines
    from tests.fakes import FakeClient, FakeInteraction, FakeUser

    store = await open_store(directory / f"{game}.sqlite3")
    found = engines()
    manager = SessionManager(store, {game: found[game]}, seed_source=lambda: 7)
    ui = SplitUI(found[game]) if game == "split" else TenUI(found[game])
    client: Any = FakeClient(manager, {game: ui})
    publisher = TablePublisher(client, client.services)
    turn_ping = TurnPing(client, client.services)
    publisher.on_moved = turn_ping.relink

    async def no_pause(seconds: float) -> None:
        return None

    autoplay = Autoplay(manager, notifier=publisher, sleep=no_pause)
    clock = TurnClock(manager, notifier=publisher)
    client.autoplay, client.turn_clock = autoplay, clock
    # Reviews are queued only when a game ends (no worker starts before one is).
    client.reviews = Reviewer(store, ReviewPool(1), 1.0, manager.clock)
    # The table extension's listeners, in its one declared order.
    features = client.services.features
    features.register(Feature("table listeners",
                              listeners=listeners(client, client.services, publisher, turn_ping)))
    features.register(Feature("reviews", listeners={Place.REVIEWS: client.reviews.on_change}))
    features.subscribe(manager)
    host = Seat(player_id="1", display_name="Ana")
    session = await manager.open_lobby(1, 100, game, host)
    await manager.join(session.id, Seat(player_id="2", display_name="Ben"))
    await manager.start(session.id, "1")
    channel = client.channel(100)
    message = await channel.send(content="table")
    await manager.set_table_message(session.id, message.id)
    # As in play, the table is the answer to /game new (then Start's): that token edits it.
    answered = FakeInteraction(client, user=FakeUser(1, "Ana"), channel=channel)
    answered.original = message
    client.services.routes.hold(session.id, message.id, answered, original=True)
    await manager.settle()
    return store, manager, client, session.id


async def _advance(manager: Any, session_id: int, wanted: Callable[[Any], bool]) -> str:
    """The normal bot's moves until the awaited player has an action ``wanted`` allows; that
    player."""
    rng = random.Random(7)
    for _ in range(500):
        session = manager.get(session_id)
        engine = manager.engine(session.game)
        player = engine.awaiting(session.state)[0]
        if any(wanted(action) for action in engine.legal_actions(session.state, player)):
            return str(player)
        action = engine.bot_action(session.state, player, "normal", rng)
        await manager.act(session_id, player, session.version, action)
    raise RuntimeError("no such move came up")


async def _open_view(client: Any, session_id: int, player: str) -> Any:
    """The player clicks My hand on the table: their private view (a FakeMessage)."""
    from tests.fakes import FakeInteraction, FakeUser, click

    user = FakeUser(int(player), player)
    channel = client.channel(100)
    interaction = FakeInteraction(client, user=user, channel=channel)
    await click(interaction, f"tb:hand:{session_id}")
    sent = interaction.last
    sent.message.view = sent.view
    return sent.message


def _dispatcher(client: Any, player: str, message: Any, custom_id: str,
                values: list[str] | None) -> Callable[[], Awaitable[None]]:
    from tests.fakes import FakeInteraction, FakeUser

    user = FakeUser(int(player), player)
    interaction = FakeInteraction(client, user=user, channel=client.channel(100),
                                  message=message)
    if values is not None:
        interaction.data = {"custom_id": custom_id, "values": values}

    async def press() -> None:
        import discord

        for factory in client.controls:  # as the extensions registered them
            match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match:
                base: Any = (discord.ui.Button(custom_id=custom_id) if values is None
                             else discord.ui.Select(custom_id=custom_id))
                item = await factory.from_custom_id(interaction, base, match)
                await item.callback(interaction)
                assert interaction.sent, "the click was not answered"
                return
        raise AssertionError(f"no control handles {custom_id!r}")

    return press


def _option(message: Any, marker: str, label: Callable[[str], bool]) -> tuple[str, list[str]]:
    for item in message.view.children:
        custom_id = str(getattr(item, "custom_id", ""))
        if marker in custom_id:
            for option in item.options:
                if label(option.label):
                    return custom_id, [option.value]
    raise RuntimeError(f"no {marker} option")


def _button(message: Any, label: Callable[[str], bool]) -> str:
    for item in message.view.children:
        if label(str(getattr(item, "label", "") or "")):
            return str(item.custom_id)
    raise RuntimeError("no such button")


async def split_discard(directory: Path) -> list[tuple[str, Counting]]:
    from game.split.actions import Discard

    store, manager, client, sid = await _setup(directory, "split")
    try:
        player = await _advance(manager, sid, lambda action: isinstance(action, Discard))
        message = await _open_view(client, sid, player)
        custom_id, values = _option(message, ":s:disc:", lambda label: True)
        counted = await measure(_dispatcher(client, player, message, custom_id, values), manager)
        return [("SPLIT discard", counted)]
    finally:
        await store.close()


async def ten_buy(directory: Path) -> list[tuple[str, Counting]]:
    from game.ten.state import Buy

    store, manager, client, sid = await _setup(directory, "ten")
    try:
        player = await _advance(manager, sid, lambda action: isinstance(action, Buy))
        message = await _open_view(client, sid, player)
        custom_id, values = _option(message, ":s:buy:", lambda label: True)
        press = _dispatcher(client, player, message, custom_id, values)
        choose = await measure(press, manager)
        paying = manager.get(sid)
        message = await _open_view(client, sid, player)
        pay = _button(message, lambda label: "(suggested)" in label)
        paid = await measure(_dispatcher(client, player, message, pay, None), manager)
        assert manager.get(sid).version == paying.version + 1, "the payment was not made"
        return [("TEN buy: the card", choose), ("TEN buy: the payment", paid)]
    finally:
        await store.close()


def rows(results: list[tuple[str, Counting]]) -> list[tuple[object, ...]]:
    found = []
    for name, counted in results:
        for part, tally in (("click", counted.click), ("listeners", counted.listeners)):
            found.append((name, part, tally.calls, len(tally.files), tally.crossings,
                          *(tally.watched[column] for column in COLUMNS)))
    return found


async def run() -> list[tuple[str, Counting]]:
    with tempfile.TemporaryDirectory() as directory:
        return [*await split_discard(Path(directory)), *await ten_buy(Path(directory))]


def main() -> None:
    print(machine_line())
    print("Calls of game/, bot/ and cogs/ functions per click (the click's task: callback to"
          " answer; listeners: every change delivered). Gate = bot.sessions.transitions.check_move"
          " (status, seat, version, turn: 4 checks each run).")
    print(table(("click", "part", "calls", "files", "crossings", *COLUMNS),
                rows(asyncio.run(run()))))


if __name__ == "__main__":
    main()
